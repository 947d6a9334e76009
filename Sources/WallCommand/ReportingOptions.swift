import ArgumentParser

/// What a command prints while and after it works.
struct ReportingOptions: ParsableArguments {
    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false

    @Flag(
        name: [.short, .long],
        help:
            "Also print every page written, files ignored as not images, and decoders' notes that change no pixel.")
    var verbose = false

    @Flag(help: "Print the time each stage took (probe, layout, decode, resample, cells, encode) at the end.")
    var profile = false

    @Option(
        help: ArgumentHelp(
            "Progress on stderr: auto (a bar on a terminal), json (one object a line), none.", valueName: "style"))
    var progress: ProgressStyle = .auto

    init() {}
}
