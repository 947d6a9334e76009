import Testing
import WallCore

@testable import ImageWall

/// Batch variants park their finished cells in spills: in memory while the batch's share has
/// room, the rest in a temporary file, and every cell comes back as it went in.
@Suite("Tile spills")
struct TileSpillTests {
    /// A cell of `size` whose every byte depends on its index and place.
    func cell(_ index: Int, _ size: Size, channels: Int) -> Bitmap {
        let count = size.width * size.height * channels
        let pixels = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index &* 7) }
        return Bitmap(size: size, alpha: channels == 4 ? .premultiplied : .none, pixels: pixels)
    }

    @Test("cells kept in memory and cells written out come back the same; the memory is given back")
    func roundTrip() throws {
        let sizes = (0..<12).map { Size(width: 10 + $0, height: 7 + $0 % 3) }
        for channels in [3, 4] {
            // Room for about a third of the cells: the first ones stay, the others go to the file.
            let total = sizes.reduce(0) { $0 + $1.width * $1.height * channels }
            let memory = SpillMemory(limit: total / 3)
            let spill = TileSpill(sizes: sizes, channels: channels, memory: memory)
            for index in sizes.indices { try spill.store(cell(index, sizes[index], channels: channels), at: index) }
            #expect(!memory.take(total / 3), "the share is in use")
            for index in sizes.indices.reversed() {
                #expect(try spill.load(index) == cell(index, sizes[index], channels: channels), "cell \(index)")
            }
            #expect(memory.take(total / 3), "loading gave the share back")
        }
    }

    @Test("with no memory to share, every cell goes through the file")
    func fileOnly() throws {
        let sizes = [Size(width: 3, height: 2), Size(width: 5, height: 4)]
        let spill = TileSpill(sizes: sizes, channels: 3, memory: SpillMemory(limit: 0))
        for index in sizes.indices { try spill.store(cell(index, sizes[index], channels: 3), at: index) }
        for index in sizes.indices { #expect(try spill.load(index) == cell(index, sizes[index], channels: 3)) }
    }
}
