import WallCore

#if canImport(Glibc)
    import Glibc
#endif

/// A command run to its end with its own peak memory and time: for promises about what one
/// run costs.
///
/// The peak comes from `/usr/bin/time`, which forks the command itself. A process started
/// straight from this one would not do: Linux starts a child's peak at its parent's (the test
/// runner's hundreds of megabytes) when it is spawned.
public struct MeasuredRun {
    /// The exit status, or 128 + the signal that ended it.
    public var status: Int32
    /// Wall-clock seconds.
    public var seconds: Double
    /// The command's peak resident memory in megabytes, or `nil` without `/usr/bin/time`.
    public var peakMB: Double?
    /// The CPU seconds (user and system) the command used, or `nil` without `/usr/bin/time`:
    /// unlike `seconds`, hardly changed by what else the machine is doing.
    public var cpuSeconds: Double?
    /// What it wrote on stderr.
    public var errors: String

    /// Runs `executable` with `arguments`, stdout discarded.
    public init(_ executable: String, _ arguments: [String]) {
        let timer = "/usr/bin/time"
        let report = "/tmp/imagewall-time-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let timed = access(timer, X_OK) == 0
        let program = timed ? timer : executable
        let argumentsRun = timed ? ["-f", "%M %U %S", "-o", report, executable] + arguments : arguments
        var pipe: [Int32] = [0, 0]
        _ = pipe.withUnsafeMutableBufferPointer { Glibc.pipe($0.baseAddress!) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + argumentsRun).map { strdup($0.systemPath) } + [nil]
        defer { argv.forEach { free($0) } }
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        posix_spawn_file_actions_destroy(&actions)
        close(pipe[1])
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while spawned == 0 {
            let got = buffer.withUnsafeMutableBytes { read(pipe[0], $0.baseAddress!, 4096) }
            if got <= 0 { break }
            output += buffer[0..<got]
        }
        close(pipe[0])
        var waitStatus: Int32 = 0
        var usage = rusage()
        if spawned == 0 { wait4(pid, &waitStatus, 0, &usage) }
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        let exited = waitStatus & 0x7F == 0
        status = spawned != 0 ? -1 : exited ? (waitStatus >> 8) & 0xFF : 128 + (waitStatus & 0x7F)
        seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        errors = String(decoding: output, as: UTF8.self)
        peakMB = nil
        cpuSeconds = nil
        if timed, let text = Fixtures.read(report) {
            unlink(report)
            // `time` notes a command that failed before its figures, which are the last line.
            let lines = String(decoding: text, as: UTF8.self).split(separator: "\n")
            let figures = lines.last.map { $0.split(separator: " ").compactMap { Double($0) } } ?? []
            if figures.count == 3 {
                peakMB = figures[0] / 1024
                cpuSeconds = figures[1] + figures[2]
            }
        }
    }
}
