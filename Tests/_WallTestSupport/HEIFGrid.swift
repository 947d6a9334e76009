/// HEIF files whose primary image is a grid of tiles, as phones write them (libheif 1.15, the
/// encoder here, writes single images only): each tile a HEVC image taken from a HEIC file of
/// its own, the grid and its tiles assembled as ISO/IEC 23008-12 describes them.
public enum HEIFGrid {
    /// A HEIF of `tiles` (HEIC files of one image each, all the same size, row after row) laid
    /// `columns` across, its picture `width` × `height` (the right and bottom tiles cropped).
    public static func file(tiles: [[UInt8]], columns: Int, width: Int, height: Int) -> [UInt8] {
        precondition(!tiles.isEmpty && tiles.count % columns == 0)
        let coded = tiles.map(codedImage)
        let rows = tiles.count / columns
        let grid = [0, 0, UInt8(rows - 1), UInt8(columns - 1)] + be16(width) + be16(height)
        let data = [grid] + coded.map(\.data)
        let ids = Array(1...data.count)  // 1: the grid, then the tiles
        // Properties: each tile's hvcC, the tiles' ispe, the grid's ispe (1-based in ipma).
        let tileSize = coded[0].size
        let properties = coded.map(\.hvcC) + [ispe(tileSize.width, tileSize.height), ispe(width, height)]
        var associations = be32(ids.count) + be16(1) + [1, UInt8(coded.count + 2)]
        for (i, id) in ids.dropFirst().enumerated() {
            associations += be16(id) + [2, 0x80 | UInt8(i + 1), UInt8(coded.count + 1)]
        }
        var entries = [UInt8]()
        for id in ids {
            entries += fullBox(
                "infe", version: 2, flags: id == 1 ? 0 : 1,
                be16(id) + be16(0) + Array((id == 1 ? "grid" : "hvc1").utf8) + [0])
        }
        func meta(mdatStart: Int) -> [UInt8] {
            var offset = mdatStart + 8
            var locations = [0x44, 0x00] + be16(ids.count)
            for (id, bytes) in zip(ids, data) {
                locations += be16(id) + be16(0) + be16(1) + be32(offset) + be32(bytes.count)
                offset += bytes.count
            }
            return fullBox(
                "meta", version: 0, flags: 0,
                fullBox("hdlr", version: 0, flags: 0, be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
                    + fullBox("pitm", version: 0, flags: 0, be16(1))
                    + fullBox("iinf", version: 0, flags: 0, be16(ids.count) + entries)
                    + fullBox(
                        "iref", version: 0, flags: 0,
                        box("dimg", be16(1) + be16(coded.count) + ids.dropFirst().flatMap(be16)))
                    + box(
                        "iprp",
                        box("ipco", properties.flatMap { $0 }) + fullBox("ipma", version: 0, flags: 0, associations))
                    + fullBox("iloc", version: 0, flags: 0, locations))
        }
        let ftyp = box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1heic".utf8))
        let start = ftyp.count + meta(mdatStart: 0).count
        return ftyp + meta(mdatStart: start) + box("mdat", data.flatMap { $0 })
    }

    /// The one coded image of a HEIC: its hvcC box (whole), its size and its data.
    static func codedImage(_ file: [UInt8]) -> (hvcC: [UInt8], size: (width: Int, height: Int), data: [UInt8]) {
        let meta = children(file, 0..<file.count).first { $0.type == "meta" }!.payload
        let inside = children(file, meta.lowerBound + 4..<meta.upperBound)
        let iprp = inside.first { $0.type == "iprp" }!.payload
        let ipco = children(file, iprp).first { $0.type == "ipco" }!.payload
        let properties = children(file, ipco)
        let hvcC = properties.first { $0.type == "hvcC" }!
        let ispe = properties.first { $0.type == "ispe" }!.payload
        let size = (width: read32(file, ispe.lowerBound + 4), height: read32(file, ispe.lowerBound + 8))
        // iloc: version 0 or 1, 4-byte offsets and lengths, a base offset of 0 or 4 bytes, one
        // item of one extent (what libheif writes).
        let iloc = inside.first { $0.type == "iloc" }!.payload
        let version = file[iloc.lowerBound]
        let baseBytes = Int(file[iloc.lowerBound + 5] >> 4)
        precondition(
            file[iloc.lowerBound + 4] == 0x44 && [0, 4].contains(baseBytes) && file[iloc.lowerBound + 5] & 0x0F == 0)
        var at = iloc.lowerBound + 6
        precondition(read16(file, at) == 1)
        at += 2 + 2 + (version == 1 ? 2 : 0) + 2  // item count, ID, construction method, data reference
        let base = baseBytes == 4 ? read32(file, at) : 0
        at += baseBytes
        precondition(read16(file, at) == 1)
        let offset = base + read32(file, at + 2), length = read32(file, at + 6)
        return (Array(file[hvcC.whole]), size, Array(file[offset..<offset + length]))
    }

    /// The boxes directly inside `range`: type, the whole box, its payload.
    static func children(_ file: [UInt8], _ range: Range<Int>) -> [(
        type: String, whole: Range<Int>, payload: Range<Int>
    )] {
        var boxes: [(String, Range<Int>, Range<Int>)] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            let size = read32(file, at)
            let type = String(decoding: file[at + 4..<at + 8], as: UTF8.self)
            precondition(size >= 8 && at + size <= range.upperBound, "a box this reader does not take")
            boxes.append((type, at..<at + size, at + 8..<at + size))
            at += size
        }
        return boxes
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(8 + payload.count) + Array(type.utf8) + payload
    }
    static func fullBox(_ type: String, version: UInt8, flags: Int, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + payload)
    }
    static func ispe(_ width: Int, _ height: Int) -> [UInt8] {
        fullBox("ispe", version: 0, flags: 0, be32(width) + be32(height))
    }
    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value) }
    static func read16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
    static func read32(_ bytes: [UInt8], _ at: Int) -> Int { read16(bytes, at) << 16 | read16(bytes, at + 2) }
}
