import ArgumentParser
import ImageWall

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
            "Print the time each stage took at the end (\(StageProfile.Stage.allCases.map(\.rawValue).joined(separator: ", ")): reading a manifest, probe and layout in wall seconds, the others in CPU seconds summed over threads), with the process's CPU time and peak memory."
        ))
    var profile = false

    @Option(
        help: ArgumentHelp(
            "Progress on stderr: auto (a bar on a terminal), json (one object a line), none.", valueName: "style"))
    var progress: ProgressStyle = .auto

    init() {}
}
