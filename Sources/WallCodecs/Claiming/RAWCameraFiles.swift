/// RAW camera files, known by their names: most are TIFF inside (NEF, DNG, ARW, CR2), so they
/// are claimed ahead of the TIFF codec, which would otherwise draw their small previews or
/// fail on their sensor data. No codec reads them yet: each is reported as what it is.
struct RAWCameraFiles: FormatClaimant {
    /// Ahead of the containers RAW files are made of.
    var priority: ClaimPriority { .specialised }

    /// RAW camera files. Most are TIFF inside, holding a small preview beside the sensor data,
    /// so they are known by their extension.
    static let extensions: Set<String> = [
        "3fr", "arw", "cr2", "cr3", "crw", "dcr", "dng", "erf", "iiq", "k25", "kdc", "mef", "mos", "mrw", "nef", "nrw",
        "orf", "pef", "raf", "raw", "rw2", "rwl", "sr2", "srf", "srw", "x3f",
    ]

    /// A file whose extension names a RAW format, whatever its first bytes.
    func claim(_ file: FileSignature) -> FileClaim? {
        guard let ext = file.fileExtension, Self.extensions.contains(ext) else { return nil }
        return .unread(.rawCamera(fileExtension: ext))
    }
}
