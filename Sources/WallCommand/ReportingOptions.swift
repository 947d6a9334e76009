import ArgumentParser
import Foundation
import ImageWall

#if canImport(Glibc)
    import Glibc
#endif

/// What a command prints while and after it works.
struct ReportingOptions: ParsableArguments {
    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false

    @Flag(
        name: [.short, .long],
        help:
            "Also print every page written, files ignored as not images, and decoders' notes that change no pixel.")
    var verbose = false

    @Flag(
        help: ArgumentHelp(
            "Print the time each stage took at the end (\(StageProfile.Stage.allCases.filter { $0 != .renditions }.map(\.rawValue).joined(separator: ", ")), and in a gallery its pictures' renditions: reading a manifest, probe, layout and writing manifests in wall seconds, the others in CPU seconds summed over threads), with the process's CPU time and peak memory."
        ))
    var profile = false

    @Option(
        help: ArgumentHelp(
            "Progress on stderr: auto (a bar on a terminal), json (one object a line), none.", valueName: "style"))
    var progress: ProgressStyle = .auto

    init() {}
}

extension ReportingOptions {
    /// Prints `profile`'s stages (those measured, and always the render's), the process's CPU
    /// time and its peak memory, for `--profile`.
    static func report(_ profile: StageProfile) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu =
            Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
                usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let totals = profile.totals
        var line = "profile:"
        for stage in StageProfile.Stage.allCases where stage != .renditions || totals[stage] != nil {
            let unit = stage.isWall ? "s wall" : "s CPU"
            line += String(format: " %@ %.2f %@,", stage.rawValue, totals[stage] ?? 0, unit)
        }
        Console.error(line + String(format: " process %.2f s CPU, peak %d MB", cpu, usage.ru_maxrss / 1024))
    }
}
