import ImageWall

/// The library's defaults: every option starts from them, and its help shows them.
let libraryDefaults = WallOptions()
