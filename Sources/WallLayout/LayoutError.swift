import WallCore

/// A layout that cannot be made from the given configuration.
public enum LayoutError: WallError, Equatable {
    /// An option or combination of options is out of range; the text says which.
    case invalid(String)

    /// What is wrong, in a sentence.
    public var message: String {
        switch self {
        case .invalid(let text): return "invalid layout: \(text)"
        }
    }
}
