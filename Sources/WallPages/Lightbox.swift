/// The lightbox of a page of sheets: a tile clicked opens its picture large in the page, ← and →
/// step through the tiles shown, Esc closes; text comes from the links' attributes and is set as
/// text, never as markup. Without script every tile is a plain link. Its two kinds are the
/// pages' own, byte for byte, until the pages share one.
enum Lightbox {
    /// The `--html` page's: the original where a browser shows it, else its rendition, with a
    /// link to the original; a stack's pictures a button each, ↑ and ↓ between them.
    case sheet
    /// A site's album page's: the picture's 1x and 2x renditions, with a link to its own page.
    case site

    /// Its dialog, put at the end of the page's body.
    var markup: String {
        switch self {
        case .sheet:
            """
            <dialog aria-label="Image"><figure><img alt=""><figcaption><span class="name"></span> ·
            <a class="original">original</a> · <span class="count"></span><span class="stack"></span></figcaption></figure>
            <button class="previous" aria-label="Previous">‹</button><button class="next" aria-label="Next">›</button>
            <button class="close" aria-label="Close">×</button></dialog>
            """
        case .site:
            """
            <dialog aria-label="Picture"><figure><img alt="The picture opened"><figcaption><span class="name"></span> ·
            <a class="open">its page</a> · <span class="count"></span></figcaption></figure>
            <button class="previous" aria-label="Previous picture">‹</button><button class="next" aria-label="Next picture">›</button>
            <button class="close" aria-label="Close">×</button></dialog>
            """
        }
    }

    /// Its script (`Assets/lightbox-sheet.js`, `Assets/lightbox-site.js`).
    var script: String {
        switch self {
        case .sheet: PageAssets.lightboxSheetScript
        case .site: PageAssets.lightboxSiteScript
        }
    }
}
