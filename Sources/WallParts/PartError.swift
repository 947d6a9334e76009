import WallCore

/// A part file (or a set of them) that cannot be assembled, and why.
public typealias PartError = FileRefusal<PartProblem>

/// What kind of problem a part file, or the set of parts given, has (see ``PartError``).
public enum PartProblem: String, Sendable, Hashable, CaseIterable {
    /// The file cannot be read.
    case unreadable
    /// Not a part file ImageWall writes.
    case notAPart
    /// A part whose contents do not check out (a checksum, a record out of place).
    case damaged
    /// A part cut short: a render still writing it, or a copy that stopped.
    case truncated
    /// A part of another manifest, count of parts, version or settings than the others, or
    /// whose rows do not follow the part before it.
    case mismatched
    /// The same part given twice.
    case repeated
    /// Parts missing: together they do not make the whole sheet.
    case incomplete
    /// No part files given.
    case noParts
    /// An output parts cannot make: a lossy sheet (JPEG, WebP, PDF) is rendered in one process.
    case lossyOutput
}
