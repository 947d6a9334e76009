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
}
