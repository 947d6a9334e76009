import Foundation
import WallCore

#if canImport(Glibc)
    import Glibc
#endif

/// Where the project's and the shared test images are.
public enum Fixtures {
    /// The tests' own cache folder, which `XDG_CACHE_HOME` names for this process and the
    /// commands it runs, set before any path here is used: a render left on the default cache
    /// never reads or writes the user's real one (`~/.cache/imagewall`), and each test run
    /// starts cold.
    public static let cacheHome: String = {
        var template = Array((NSTemporaryDirectory() + "/imagewall-test-cache-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            fatalError("cannot make the tests' cache folder: \(String(cString: strerror(errno)))")
        }
        let path = String(cString: made)
        setenv("XDG_CACHE_HOME", path, 1)
        atexit { _ = try? FileManager.default.removeItem(atPath: Fixtures.cacheHome) }
        return path
    }()

    /// The package's root folder.
    public static let packageRoot: String = {
        _ = cacheHome
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/_WallTestSupport/Fixtures.swift
        return parts.joined(separator: "/")
    }()

    /// `SampleImages/`.
    public static let sampleImages = packageRoot + "/SampleImages"

    /// `../shared/corpora` beside the checkout, or `nil` where it is absent.
    public static let corpora: String? = {
        let path = packageRoot + "/../shared/corpora"
        var status = stat()
        return stat(path, &status) == 0 ? path : nil
    }()

    /// The debug build of the command, as `make test` builds it before the tests run.
    public static let binary = packageRoot + "/.build/debug/imagewall"

    /// The image files of corpus folder `folder` (its notes, `SOURCE.txt` and `MANIFEST.tsv`,
    /// left out), sorted.
    public static func corpusImages(in folder: String) -> [String] {
        files(in: folder).filter { !$0.hasSuffix(".txt") && !$0.hasSuffix(".tsv") }
    }

    /// The path of a sample by file name.
    public static func sample(_ name: String) -> String { sampleImages + "/" + name }

    /// File names in `folder`, sorted, without hidden ones.
    public static func files(in folder: String) -> [String] {
        (directoryEntries(at: folder) ?? []).map(\.name).filter { !$0.hasPrefix(".") }.sorted()
    }
}

/// A fresh folder under /tmp, removed with everything in it when released (links removed, not
/// followed).
public final class TemporaryFolder {
    /// The folder's path.
    public let path: String

    /// Makes a new empty folder.
    public init() {
        _ = Fixtures.cacheHome
        var template = Array("/tmp/imagewall-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(decoding: template.map { UInt8(bitPattern: $0) }.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// A folder for fixtures a suite makes once and keeps in a `static let` (never released):
    /// removed when the test process exits.
    public static func lastingTheProcess() -> TemporaryFolder {
        let folder = TemporaryFolder()
        lasting.withLock { paths in
            if paths.isEmpty { atexit { TemporaryFolder.lasting.withLock { $0.forEach(TemporaryFolder.remove) } } }
            paths.append(folder.path)
        }
        return folder
    }

    private static let lasting = Locked<[String]>([])

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    public func write(_ bytes: [UInt8], to name: String) -> String {
        let target = file(name)
        let handle = fopen(target.systemPath, "wb")!
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
        fclose(handle)
        return target
    }

    /// The bytes of `name`, or `nil` when it cannot be read.
    public func read(_ name: String) -> [UInt8]? { Fixtures.read(file(name)) }

    deinit { TemporaryFolder.remove(path) }

    /// Removes `path` and everything in it, a folder a test made read-only opened up first (a
    /// folder, never a link's target).
    static func remove(_ path: String) {
        var status = stat()
        guard lstat(path.systemPath, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            unlink(path.systemPath)
            return
        }
        chmod(path.systemPath, 0o700)
        for entry in directoryEntries(at: path) ?? [] { remove(path + "/" + entry.name) }
        rmdir(path.systemPath)
    }
}

extension Fixtures {
    /// The bytes of the file at `path`, or `nil` when it cannot be read.
    public static func read(_ path: String) -> [UInt8]? {
        guard let handle = fopen(path.systemPath, "rb") else { return nil }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 65536, handle) }
            if got == 0 { break }
            bytes += chunk[0..<got]
        }
        return bytes
    }

    /// Hidden entries of `folder` (temporary files start with a dot).
    public static func hiddenFiles(in folder: String) -> [String] {
        (directoryEntries(at: folder) ?? []).map(\.name).filter { $0.hasPrefix(".") }
    }
}

extension Fixtures {
    /// Runs `program` with `arguments` to its end: its exit status, standard output and
    /// standard error (read together, so neither pipe fills up).
    public static func run(_ program: String, _ arguments: [String]) throws -> (
        status: Int32, output: Data, errors: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let errorText = Locked(Data())
        let reader = Thread { errorText.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
        reader.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        return (process.terminationStatus, data, String(decoding: errorText.withLock { $0 }, as: UTF8.self))
    }
}
