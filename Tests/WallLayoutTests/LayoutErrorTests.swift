import Testing
import WallCore
import WallLayout

@Suite("Layout refusals")
struct LayoutErrorTests {
    /// The refusal `change` makes of a working configuration.
    func refusal(_ change: (inout LayoutConfiguration) -> Void, sizes: [Size] = [Size(width: 40, height: 30)])
        -> LayoutError?
    {
        var configuration = LayoutConfiguration()
        change(&configuration)
        do {
            _ = try configuration.arrange(sizes)
            return nil
        } catch {
            return error
        }
    }

    @Test("an option out of range is refused by the option's name, as the manifest codes it")
    func options() {
        let cases: [(String, (inout LayoutConfiguration) -> Void)] = [
            ("width", { $0.width = 0 }),
            ("width", { ($0.kind, $0.width) = (.grid, nil) }),
            ("columnGap", { $0.columnGap = -1 }),
            ("rowGap", { $0.rowGap = -1 }),
            ("padding", { $0.padding = Insets(all: 1500) }),
            ("rowHeight", { ($0.kind, $0.rowHeight) = (.justified, 0) }),
            ("columnWidth", { $0.columnWidth = 0 }),
            ("minColumns", { $0.minColumns = 0 }),
            ("maxColumns", { ($0.minColumns, $0.maxColumns) = (5, 4) }),
            ("maxAspect", { $0.maxAspect = 0.5 }),
            ("maxPageHeight", { $0.maxPageHeight = 5 }),
            // The limit the pixels set, lower than the height's: the pixels are at fault.
            ("maxPagePixels", { ($0.maxPageHeight, $0.maxPagePixels) = (10_000, 20_000) }),
            ("columns", { $0.columns = 0 }),
            ("columns", { ($0.width, $0.columns) = (100, 90) }),
            ("spanWide", { $0.spanWide = 0.5 }),
        ]
        for (option, change) in cases {
            let error = refusal(change)
            guard case .option(let named, let reason) = error else {
                Issue.record("\(option): \(String(describing: error))")
                continue
            }
            #expect(named == option, "\(reason)")
            #expect(error?.message == "invalid layout: \(reason)")
        }
    }

    @Test("an option a layout does not take names the layout and those that take it")
    func notForLayout() {
        let error = refusal { ($0.kind, $0.evenBottom) = (.grid, true) }
        guard case .notForLayout("evenBottom", layout: .grid, let takenBy, let reason) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(takenBy == [.masonry, .columns])
        #expect(reason == "even bottoms need the masonry or columns layout, not grid")
        let hero = refusal { ($0.kind, $0.hero) = (.strip, 1) }
        guard case .notForLayout("hero", layout: .strip, let heroes, _) = hero else {
            Issue.record("\(String(describing: hero))")
            return
        }
        #expect(heroes == LayoutKind.withHeroes && !heroes.contains(.strip))
    }

    @Test("sizes the engine cannot place, and walls too large for a sheet")
    func inputsAndSize() {
        guard case .unplaceable = refusal({ _ in }, sizes: [Size(width: 0, height: 10)]) else {
            Issue.record("an image without area was placed")
            return
        }
        let tall = refusal(
            { ($0.kind, $0.columns, $0.maxAspect) = (.columns, 1, nil) },
            sizes: Array(repeating: Size(width: 1, height: 0x7FFF_FFFF), count: 1000))
        guard case .tooLarge(let reason) = tall else {
            Issue.record("\(String(describing: tall))")
            return
        }
        #expect(reason.contains("px tall"))
    }
}
