import Foundation

/// The first and last days of a set of pictures, from their ISO 8601 dates.
package struct DateRange: Equatable {
    package var first: String
    package var last: String

    /// The range of `dates`' days (their first ten characters: the camera's clock, as the
    /// sheets order them); `nil` for none.
    package static func of(_ dates: [String]) -> DateRange? {
        let days = dates.map { String($0.prefix(10)) }.filter { $0.count == 10 }
        guard let first = days.min(), let last = days.max() else { return nil }
        return DateRange(first: first, last: last)
    }

    /// Both ranges' days together.
    package func joined(_ other: DateRange?) -> DateRange {
        guard let other else { return self }
        return DateRange(first: min(first, other.first), last: max(last, other.last))
    }

    /// "12 May 2021", "12–14 May 2021", "30 April – 2 May 2021", "12 May 2021 – 3 September 2023".
    package var text: String {
        let a = DateRange.parts(first), b = DateRange.parts(last)
        guard let a, let b else { return first == last ? first : "\(first) – \(last)" }
        if a == b { return "\(a.day) \(DateRange.months[a.month - 1]) \(a.year)" }
        if a.year == b.year && a.month == b.month {
            return "\(a.day)–\(b.day) \(DateRange.months[a.month - 1]) \(a.year)"
        }
        if a.year == b.year {
            return "\(a.day) \(DateRange.months[a.month - 1]) – \(b.day) \(DateRange.months[b.month - 1]) \(a.year)"
        }
        return
            "\(a.day) \(DateRange.months[a.month - 1]) \(a.year) – \(b.day) \(DateRange.months[b.month - 1]) \(b.year)"
    }

    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    static func parts(_ day: String) -> (year: Int, month: Int, day: Int)? {
        let fields = day.split(separator: "-")
        guard fields.count == 3, let y = Int(fields[0]), let m = Int(fields[1]), let d = Int(fields[2]),
            (1...12).contains(m)
        else { return nil }
        return (y, m, d)
    }
}
