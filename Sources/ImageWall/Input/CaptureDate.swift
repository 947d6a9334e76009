import WallFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// When a picture was taken, as well as its file tells, and what told it: the camera's
/// metadata (EXIF DateTimeOriginal, with its offset from UTC when recorded), else a date in
/// the file's name (`IMG_20240314_101522`, `2024-03-14 10.15.22`, `PXL_20240314_…`), else the
/// file's modification time in UTC — the chain gallery generators such as thumbsup follow.
public struct CaptureDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Where a date came from.
    public enum Source: String, Sendable, Codable {
        /// The file's metadata: EXIF, a RAW file's header, a video's creation time.
        case metadata
        /// A date written in the file's name.
        case name
        /// The file's modification time.
        case modified
    }

    /// The calendar date and clock time, as the camera's clock read them.
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// The offset from UTC the metadata records ("+01:00"), when it does.
    public var offset: String?
    /// What gave the date.
    public var source: Source

    /// The date of `image` by the chain above.
    public init(of image: ProbedImage) {
        if let taken = image.info.dateTaken, var date = CaptureDate(exif: taken) {
            date.offset = image.info.camera?.timeOffset
            self = date
        } else if let named = CaptureDate(fileName: FilePaths.name(of: image.path)) {
            self = named
        } else {
            self = CaptureDate(modified: image.modified)
        }
    }

    init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, source: Source) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
            year, month, day, hour, minute, second
        )
        self.source = source
    }

    /// An EXIF date, "YYYY:MM:DD HH:MM:SS" (the separators are not checked: writers use dashes
    /// as well as colons).
    init?(exif text: String) {
        let b = Array(text.utf8)
        guard b.count >= 19, b[10] == 0x20 else { return nil }
        guard let year = CaptureDate.number(b, 0, 4), let month = CaptureDate.number(b, 5, 2),
            let day = CaptureDate.number(b, 8, 2), let hour = CaptureDate.number(b, 11, 2),
            let minute = CaptureDate.number(b, 14, 2), let second = CaptureDate.number(b, 17, 2),
            CaptureDate.isDate(year, month, day), hour < 24, minute < 60, second < 61
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second, source: .metadata)
    }

    /// The first date (and the time after it, when there is one) written in a file's name: a
    /// year 1900–2099, month and day, as one run of eight digits or split by `-`, `_` or `.`,
    /// not inside a longer number; a time of six digits, or split by `-`, `_`, `.` or `:`, may
    /// follow after one separator (`_`, `-`, space, `T`, `.`).
    init?(fileName name: String) {
        let b = Array(name.utf8)
        func digit(_ i: Int) -> Bool { i >= 0 && i < b.count && (0x30...0x39).contains(b[i]) }
        func separator(_ i: Int, _ set: [UInt8]) -> Bool { i < b.count && set.contains(b[i]) }
        let dateSeparators: [UInt8] = [0x2D, 0x5F, 0x2E]  // - _ .
        for start in b.indices where digit(start) && !digit(start - 1) {
            guard let year = CaptureDate.number(b, start, 4), (1900...2099).contains(year) else { continue }
            var i = start + 4
            let split = separator(i, dateSeparators) ? b[i] : nil
            if split != nil { i += 1 }
            guard let month = CaptureDate.number(b, i, 2) else { continue }
            i += 2
            if let split {
                guard i < b.count, b[i] == split else { continue }
                i += 1
            }
            guard let day = CaptureDate.number(b, i, 2), CaptureDate.isDate(year, month, day) else { continue }
            i += 2
            var date = CaptureDate(year: year, month: month, day: day, source: .name)
            if let time = CaptureDate.time(b, after: i) {
                (date.hour, date.minute, date.second) = time
            } else if digit(i) {
                continue  // part of a longer number
            }
            self = date
            return
        }
        return nil
    }

    /// A modification time, in UTC.
    init(modified seconds: Double) {
        var time = time_t(seconds.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        self.init(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec), source: .modified)
    }

    /// Seconds since 1970 on the camera's clock (its offset from UTC not applied): what tells
    /// how far apart two pictures of one camera were taken.
    var instant: Int {
        var parts = tm()
        (parts.tm_year, parts.tm_mon, parts.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
        return Int(timegm(&parts))
    }

    /// A clock time after a date ending at `i`: one separator, then HHMMSS or HH?MM?SS.
    private static func time(_ b: [UInt8], after i: Int) -> (Int, Int, Int)? {
        guard i < b.count, [0x5F, 0x2D, 0x20, 0x54, 0x2E].contains(b[i]) else { return nil }
        var at = i + 1
        guard let hour = number(b, at, 2), hour < 24 else { return nil }
        at += 2
        let split: UInt8? = at < b.count && [0x2D, 0x5F, 0x2E, 0x3A].contains(b[at]) ? b[at] : nil
        if split != nil { at += 1 }
        guard let minute = number(b, at, 2), minute < 60 else { return nil }
        at += 2
        if let split {
            guard at < b.count, b[at] == split else { return nil }
            at += 1
        }
        guard let second = number(b, at, 2), second < 61 else { return nil }
        return (hour, minute, second)
    }

    /// The decimal number of the `count` digits at `at`, or `nil`.
    private static func number(_ b: [UInt8], _ at: Int, _ count: Int) -> Int? {
        guard at >= 0, at + count <= b.count else { return nil }
        var value = 0
        for i in at..<at + count {
            guard (0x30...0x39).contains(b[i]) else { return nil }
            value = value * 10 + Int(b[i] - 0x30)
        }
        return value
    }

    /// Whether `day` exists in `month` of `year` (Gregorian).
    static func isDate(_ year: Int, _ month: Int, _ day: Int) -> Bool {
        (1...12).contains(month) && day >= 1 && day <= days(in: month, of: year)
    }

    /// How many days `month` (1–12) of `year` has (Gregorian).
    static func days(in month: Int, of year: Int) -> Int {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// English month names, January first.
    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// "2024-03-14 10:15:22", with the offset after it when known ("2024-03-14 10:15:22 +01:00").
    public var description: String { offset.map { dateTime + " " + $0 } ?? dateTime }

    /// "2024-03-14 10:15:22": the camera's clock, which orders pictures as `<` does.
    public var dateTime: String { "\(year)-\(CaptureDate.two(month))-\(CaptureDate.two(day)) \(clock)" }

    /// The ISO 8601 form the manifest records: "2024-03-14T10:15:22+01:00", no offset when
    /// none is known (a local time).
    public var iso8601: String {
        "\(year)-\(CaptureDate.two(month))-\(CaptureDate.two(day))T\(clock)"
            + (offset ?? (source == .modified ? "Z" : ""))
    }

    private var clock: String { "\(CaptureDate.two(hour)):\(CaptureDate.two(minute)):\(CaptureDate.two(second))" }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// Earlier first, by the camera's clock (offsets are not applied: a day is the day the
    /// photographer lived where the photo was taken).
    public static func < (a: CaptureDate, b: CaptureDate) -> Bool {
        (a.year, a.month, a.day, a.hour, a.minute, a.second) < (b.year, b.month, b.day, b.hour, b.minute, b.second)
    }

    /// Formats the date with C `strftime` conversions (`%Y-%m-%d`, `%d %B %Y`, `%H:%M`; `%z` the
    /// offset from UTC when one is known), in
    /// English month and day names whatever the locale.
    public func formatted(_ pattern: String) -> String {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        parts.tm_wday = Int32(CaptureDate.weekday(year, month, day))
        parts.tm_yday = Int32(CaptureDate.dayOfYear(year, month, day))
        var buffer = [CChar](repeating: 0, count: 512)
        // The process never leaves the "C" locale (nothing calls setlocale), so names are English.
        let count = strftime(&buffer, buffer.count, withOffset(pattern), &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `pattern` with each `%z` replaced by the offset from UTC as `strftime` writes one
    /// ("-0800", "+0000"), or by nothing when none is known (a local time), rather than by a
    /// zone that is not the picture's.
    private func withOffset(_ pattern: String) -> String {
        guard pattern.contains("%z") else { return pattern }
        let known = offset ?? (source == .modified ? "+00:00" : nil)  // modification times are UTC
        let zone = known.map { $0.replacingOccurrences(of: ":", with: "") } ?? ""
        var out = "", percent = false
        for character in pattern {
            if percent {
                out += character == "z" ? zone.replacingOccurrences(of: "%", with: "%%") : "%" + String(character)
                percent = false
            } else if character == "%" {
                percent = true
            } else {
                out.append(character)
            }
        }
        return percent ? out + "%" : out
    }

    /// 0 for Sunday (Sakamoto's method).
    static func weekday(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let t = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        let y = month < 3 ? year - 1 : year
        return (y + y / 4 - y / 100 + y / 400 + t[month - 1] + day) % 7
    }

    /// 0 for 1 January.
    static func dayOfYear(_ year: Int, _ month: Int, _ day: Int) -> Int {
        (1..<month).reduce(day - 1) { $0 + days(in: $1, of: year) }
    }
}
