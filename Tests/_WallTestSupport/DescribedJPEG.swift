import Foundation
import WallCodecs
import WallCore

/// A JPEG given the metadata a photo library writes about a picture, for tests: an EXIF block
/// (ImageDescription, Make, and a GPS position), an XMP packet (dc:description, xmp:Rating) and an IPTC
/// caption (in Photoshop's APP13), each only when asked, inserted after the SOI of a JPEG
/// without metadata of its own; a place as EXIF's GPS writes it (degrees, minutes and seconds,
/// and the hemisphere).
public enum DescribedJPEG {
    /// Writes `source` (a JPEG without metadata) to `target` with the metadata given.
    public static func write(
        _ source: String, to target: String, exifDescription: String? = nil, make: String? = nil,
        xmpDescription: String? = nil, iptcCaption: [UInt8]? = nil, place: PictureDetails.Location? = nil,
        xmpRating: Int? = nil, faces: [Region] = []
    ) throws {
        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        precondition(jpeg.count > 2 && jpeg[0] == 0xFF && jpeg[1] == 0xD8, "not a JPEG")
        var segments: [UInt8] = []
        if exifDescription != nil || make != nil || place != nil {
            let tiff = exif(description: exifDescription, make: make, place: place)
            segments += segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff)
        }
        if xmpDescription != nil || xmpRating != nil || !faces.isEmpty {
            let escaped = (xmpDescription ?? "").replacingOccurrences(of: "&", with: "&amp;")
                .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            let description =
                xmpDescription == nil
                ? ""
                : "<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escaped)</rdf:li></rdf:Alt></dc:description>"
            let rating = xmpRating.map { " xmp:Rating=\"\($0)\"" } ?? ""
            // MWG regions: each face's centre, width and height as shares of the picture.
            let items = faces.map { face in
                """
                <rdf:li rdf:parseType="Resource"><mwg-rs:Type>Face</mwg-rs:Type><mwg-rs:Area \
                stArea:x="\(face.x + face.width / 2)" stArea:y="\(face.y + face.height / 2)" \
                stArea:w="\(face.width)" stArea:h="\(face.height)" stArea:unit="normalized"/></rdf:li>
                """
            }.joined()
            let regions =
                faces.isEmpty
                ? ""
                : "<mwg-rs:Regions rdf:parseType=\"Resource\"><mwg-rs:RegionList><rdf:Bag>\(items)"
                    + "</rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions>"
            let packet = """
                <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" \
                xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/" \
                xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#"\(rating)>
                \(description)\(regions)
                </rdf:Description></rdf:RDF></x:xmpmeta>
                <?xpacket end="w"?>
                """
            segments += segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(packet.utf8))
        }
        if let iptcCaption {
            // IIM: record 2, dataset 120 (caption), then Photoshop's 8BIM resource 0x0404 around it.
            var iim: [UInt8] = [0x1C, 0x02, 0x78] + bigEndian16(iptcCaption.count) + iptcCaption
            if iim.count % 2 == 1 { iim.append(0) }
            let resource = Array("8BIM".utf8) + [0x04, 0x04, 0, 0] + bigEndian32(iim.count) + iim
            segments += segment(0xED, Array("Photoshop 3.0".utf8) + [0] + resource)
        }
        try Data([0xFF, 0xD8] + segments + jpeg[2...]).write(to: URL(fileURLWithPath: target))
    }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + bigEndian16(payload.count + 2) + payload
    }

    static func bigEndian16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A big-endian TIFF block: IFD0 with ImageDescription, Make and a GPS IFD pointer, and the
    /// GPS IFD with latitude, longitude and altitude.
    static func exif(description: String?, make: String?, place: PictureDetails.Location?) -> [UInt8] {
        typealias Entry = (tag: Int, type: Int, count: Int, value: [UInt8])
        func ascii(_ tag: Int, _ text: String) -> Entry {
            let bytes = Array(text.utf8) + [0]
            return (tag, 2, bytes.count, bytes)
        }
        func rationals(_ tag: Int, _ values: [(Int, Int)]) -> Entry {
            (tag, 5, values.count, values.flatMap { bigEndian32($0.0) + bigEndian32($0.1) })
        }
        func dms(_ degrees: Double) -> [(Int, Int)] {
            let value = abs(degrees)
            let whole = Int(value), minutes = Int((value - Double(whole)) * 60)
            let seconds = ((value - Double(whole)) * 60 - Double(minutes)) * 60
            return [(whole, 1), (minutes, 1), (Int((seconds * 1000).rounded()), 1000)]
        }
        // Lays out an IFD at `start` (from the TIFF header): 12-byte entries, then values that do
        // not fit in four bytes.
        func ifd(_ entries: [Entry], at start: Int) -> [UInt8] {
            let sorted = entries.sorted { $0.tag < $1.tag }
            var table: [UInt8] = bigEndian16(sorted.count)
            var extra: [UInt8] = []
            let extraStart = start + 2 + sorted.count * 12 + 4
            for entry in sorted {
                table += bigEndian16(entry.tag) + bigEndian16(entry.type) + bigEndian32(entry.count)
                if entry.value.count <= 4 {
                    table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    table += bigEndian32(extraStart + extra.count)
                    extra += entry.value
                    if extra.count % 2 == 1 { extra.append(0) }
                }
            }
            return table + [0, 0, 0, 0] + extra
        }
        var first: [Entry] = []
        if let description { first.append(ascii(0x010E, description)) }
        if let make { first.append(ascii(0x010F, make)) }
        var gps: [Entry] = []
        if let place {
            gps += [
                (0x0000, 1, 4, [2, 3, 0, 0]), ascii(0x0001, place.latitude < 0 ? "S" : "N"),
                rationals(0x0002, dms(place.latitude)), ascii(0x0003, place.longitude < 0 ? "W" : "E"),
                rationals(0x0004, dms(place.longitude)),
            ]
            if let altitude = place.altitude {
                gps += [(0x0005, 1, 1, [altitude < 0 ? 1 : 0]), rationals(0x0006, [(Int(abs(altitude) * 10), 10)])]
            }
            first.append((0x8825, 4, 1, [0, 0, 0, 0]))  // placed below
        }
        let header: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]
        var main = ifd(first, at: 8)
        if !gps.isEmpty {
            let gpsStart = 8 + main.count
            first.removeLast()
            first.append((0x8825, 4, 1, bigEndian32(gpsStart)))
            main = ifd(first, at: 8)
            return header + main + ifd(gps, at: gpsStart)
        }
        return header + main
    }
}
