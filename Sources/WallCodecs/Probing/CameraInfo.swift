/// What the camera recorded about a photo: the body, the lens and the exposure, as EXIF (or a
/// RAW file's header) states them. Every field is optional: files carry any subset.
public struct CameraInfo: Hashable, Sendable, Codable {
    /// The maker, e.g. "Canon".
    public var make: String?
    /// The model, e.g. "Canon EOS R6" (makers often repeat their name in it).
    public var model: String?
    /// The lens model, e.g. "RF24-105mm F4 L IS USM".
    public var lens: String?
    /// The exposure time in seconds, as a fraction (numerator, denominator): 1/250 is (1, 250).
    public var exposureTime: Fraction?
    /// The f-number, e.g. 2.8.
    public var fNumber: Double?
    /// The ISO speed.
    public var iso: Int?
    /// The focal length in millimetres.
    public var focalLength: Double?
    /// The rating, 0 to 5 stars (EXIF's Rating tag, or XMP's xmp:Rating).
    public var rating: Int?
    /// The offset from UTC of the time the photo was taken, "+01:00", when recorded.
    public var timeOffset: String?

    /// A fraction as EXIF stores rationals.
    public struct Fraction: Hashable, Sendable, Codable {
        /// The numerator.
        public var numerator: Int
        /// The denominator (never 0).
        public var denominator: Int

        /// The fraction `numerator`/`denominator`.
        public init(_ numerator: Int, _ denominator: Int) {
            self.numerator = numerator
            self.denominator = denominator
        }

        /// Its value.
        public var value: Double { Double(numerator) / Double(denominator) }
    }

    /// Nothing known.
    public init() {}

    /// `true` when no field is known.
    public var isEmpty: Bool { self == CameraInfo() }

    /// Make and model as one name, the make's first word before a model that does not start
    /// with it: "Apple iPhone 12", "NIKON D850" from "NIKON CORPORATION" and "NIKON D850", "Canon
    /// EOS R6" from "Canon" and "Canon EOS R6"; `nil` when neither is known.
    public var name: String? {
        let make = self.make ?? "", model = self.model ?? ""
        guard !model.isEmpty else { return make.isEmpty ? nil : make }
        let brand = make.split(separator: " ").first.map(String.init) ?? ""
        if brand.isEmpty || model.lowercased().hasPrefix(brand.lowercased()) { return model }
        return "\(brand) \(model)"
    }

    /// The focal lengths a lens's name gives, in millimetres: 70...200 of "EF 70-200mm f/2.8L",
    /// 50...50 of "EF50mm f/1.8"; `nil` when it gives none.
    static func focalRange(ofLens name: String) -> ClosedRange<Double>? {
        let characters = Array(name)
        guard let mm = name.range(of: "mm") else { return nil }
        var end = name.distance(from: name.startIndex, to: mm.lowerBound)
        while end > 0, characters[end - 1] == " " { end -= 1 }
        var start = end
        while start > 0, characters[start - 1].isNumber || characters[start - 1] == "." || characters[start - 1] == "-"
        {
            start -= 1
        }
        let numbers = String(characters[start..<end]).split(separator: "-").compactMap { Double($0) }
        guard let low = numbers.first, let high = numbers.last, low > 0, high >= low else { return nil }
        return low...high
    }

    /// A lens known only by its focal lengths in millimetres, as a maker writes them: "16-35mm",
    /// "100mm" for a prime, "7.5-21mm".
    public static func lensName(shortest: Double, longest: Double) -> String {
        func number(_ mm: Double) -> String {
            let tenths = Int((mm * 10).rounded())
            return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
        }
        let (low, high) = (number(shortest), number(longest))
        return low == high ? "\(low)mm" : "\(low)-\(high)mm"
    }

    /// These fields with the lens left out when its name says focal lengths that the picture's
    /// was not: a maker note names a lens by a number several lenses share (Canon's 26 is more
    /// than one), and a name found so for a picture taken at 31 mm is not "EF 70-200mm". For
    /// such guessed names only: a lens the file names itself may carry a converter.
    public var lensCheckedAgainstFocalLength: CameraInfo {
        guard let lens, let focal = focalLength, let range = Self.focalRange(ofLens: lens) else { return self }
        // A zoom's stated ends round; a focal length is written to a millimetre or a tenth.
        let slack = max(1, range.upperBound * 0.03)
        guard focal < range.lowerBound - slack || focal > range.upperBound + slack else { return self }
        var checked = self
        checked.lens = nil
        return checked
    }

    /// These fields, each one unknown here taken from `other` (another reading of the same
    /// file, less trusted): a body and its model are taken together, so a name is never made
    /// of one reader's make and another's model.
    public func filling(from other: CameraInfo?) -> CameraInfo {
        guard let other else { return self }
        var camera = self
        if make == nil && model == nil { (camera.make, camera.model) = (other.make, other.model) }
        camera.lens = lens ?? other.lens
        camera.exposureTime = exposureTime ?? other.exposureTime
        camera.fNumber = fNumber ?? other.fNumber
        camera.iso = iso ?? other.iso
        camera.focalLength = focalLength ?? other.focalLength
        camera.rating = rating ?? other.rating
        camera.timeOffset = timeOffset ?? other.timeOffset
        return camera
    }
}
