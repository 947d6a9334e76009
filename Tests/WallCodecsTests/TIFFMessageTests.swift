import Testing

@testable import WallCodecs

/// libtiff's messages as a user reads them.
@Suite("TIFF: libtiff's messages")
struct TIFFMessageTests {
    @Test("a negative byte count printed unsigned is said in words")
    func negativeCounts() {
        #expect(
            TIFFCodec.plain("TIFFFillStrip: Read error on strip 0; got 18446744073709550151 bytes, expected 1012")
                == "TIFFFillStrip: Read error on strip 0; got none: the data lies 1465 bytes past the end of the file, expected 1012"
        )
        #expect(TIFFCodec.plain("offset 18446744073709551615 is bad") == "offset -1 is bad")
        #expect(TIFFCodec.plain("got 1012 bytes, expected 4096") == "got 1012 bytes, expected 4096")
    }
}
