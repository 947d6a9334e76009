/// How a justified wall's last row is set when it is not full.
public enum LastRow: String, Sendable, Codable, CaseIterable {
    /// At the target height, flush left.
    case left
    /// Stretched to the full width like the other rows.
    case justify
    /// At the target height, centred.
    case center
}
