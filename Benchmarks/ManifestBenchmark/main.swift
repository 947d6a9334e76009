import ImageWall

#if canImport(Glibc)
    import Glibc
#endif

// Reads a manifest whole, as `render --from-manifest` does in one process (release build), and
// prints the tiles read, the seconds taken and the peak memory. Output line stable for `make bench`.
//   usage: imagewall-manifest-bench MANIFEST.json

guard CommandLine.arguments.count == 2 else {
    print("usage: imagewall-manifest-bench MANIFEST.json")
    exit(2)
}
var start = timespec()
clock_gettime(CLOCK_MONOTONIC, &start)
do {
    let manifest = try Wall.readManifest(CommandLine.arguments[1], threads: RunLimits.everyCore)
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &end)
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    print("\(manifest.tiles.count) \((seconds * 100).rounded() / 100) \(usage.ru_maxrss / 1024)")
} catch {
    print("imagewall-manifest-bench: \(error)")
    exit(1)
}
