// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ImageWall",
    products: [
        .executable(name: "imagewall", targets: ["imagewall"]),
        .library(name: "ImageWall", targets: ["ImageWall"]),
        .library(name: "WallLayout", targets: ["WallLayout"]),
        .library(name: "WallParts", targets: ["WallParts"]),
        .library(name: "WallPages", targets: ["WallPages"]),
        .library(name: "WallReview", targets: ["WallReview"]),
        .library(name: "WallGallery", targets: ["WallGallery"]),
        // OpenCV's face detector, in a library of its own that ImageWall loads only when a crop
        // asks for faces (beside the executable, or in PREFIX/lib/imagewall when installed).
        .library(name: "ImageWallFaces", type: .dynamic, targets: ["CFaceShim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `make docs`: the library's DocC documentation.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C at the edge: headers through pkg-config, setjmp only inside the shims.
        .systemLibrary(
            name: "CLibPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CLibJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CFontconfig", pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(
            name: "CFriBidi", pkgConfig: "fribidi",
            providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(
            name: "CLCMS2", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]),
        // libheif's headers only (Debian's libheif-dev): the shim loads the library on the first
        // HEIF or AVIF file, so nothing links it.
        .systemLibrary(name: "CLibHEIF"),
        .systemLibrary(
            name: "CLibWebP", pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(
            name: "CLibTIFF", pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(
            name: "CLibGIF", pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"])]),
        .systemLibrary(
            name: "CLibRaw", pkgConfig: "libraw_r",
            providers: [.apt(["libraw-dev"])]),
        // FFmpeg's headers only (Debian's libavformat-dev, libavcodec-dev, libswscale-dev): the shim
        // loads the libraries on the first video, so nothing links them.
        .systemLibrary(name: "CFFmpeg"),
        .systemLibrary(
            name: "CLibJXL", providers: [.apt(["libjxl-dev"])]),
        .systemLibrary(
            name: "CLibExiv2", pkgConfig: "exiv2",
            providers: [.apt(["libexiv2-dev"])]),
        .systemLibrary(
            name: "CZstd", pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(
            name: "CXXHash", pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"])]),
        // OpenEXR (Debian's libopenexr-dev), linked: its files read a band of rows at a time.
        .systemLibrary(
            name: "CLibOpenEXR", pkgConfig: "OpenEXR",
            providers: [.apt(["libopenexr-dev"])]),
        .target(name: "CJPEGShim", dependencies: ["CLibJPEG"]),
        // Opening libraries at run time, for the shims that load theirs on the first file needing them.
        .target(name: "CLibraryLoading", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CHEIFShim", dependencies: ["CLibHEIF", "CLibraryLoading", "CKernels"]),
        .target(
            name: "CWebPShim", dependencies: ["CLibWebP"],
            linkerSettings: [.linkedLibrary("webpmux"), .linkedLibrary("webpdemux"), .linkedLibrary("webp")]),
        .target(name: "CTIFFShim", dependencies: ["CLibTIFF"]),
        .target(name: "CGIFShim", dependencies: ["CLibGIF"]),
        .target(name: "CRawShim", dependencies: ["CLibRaw"]),
        .target(name: "CTextShim", dependencies: ["CFreeType", "CHarfBuzz", "CFontconfig", "CFriBidi"]),
        .target(name: "CJXLShim", dependencies: ["CLibJXL", "CLibraryLoading"]),
        .target(name: "CExivShim", dependencies: ["CLibExiv2"], linkerSettings: [.linkedLibrary("exiv2")]),
        .target(name: "CJSONShim", linkerSettings: [.linkedLibrary("simdjson")]),
        .target(name: "CFFmpegShim", dependencies: ["CFFmpeg", "CLibraryLoading"]),
        // librsvg, poppler-glib and cairo, loaded by the shim on the first SVG or PDF read.
        .target(name: "CVectorShim", dependencies: ["CLibraryLoading"], linkerSettings: [.linkedLibrary("dl")]),
        // OpenCV (Debian's libopencv-objdetect-dev and libopencv-imgcodecs-dev): the libraries the
        // face detector and the Radiance HDR reader need, linked into the library ImageWall loads
        // for faces or a Radiance file.
        .target(
            name: "CFaceShim",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
            linkerSettings: [
                .linkedLibrary("opencv_objdetect"), .linkedLibrary("opencv_imgcodecs"),
                .linkedLibrary("opencv_imgproc"),
                .linkedLibrary("opencv_core"),
            ]),
        .target(name: "CColorShim", dependencies: ["CLCMS2"]),
        .target(name: "CEXRShim", dependencies: ["CLibOpenEXR"]),
        .target(name: "CProcessShim"),
        // libharu (Debian's libhpdf-dev ships no pkg-config file): the library by name.
        .target(name: "CPDFShim", linkerSettings: [.linkedLibrary("hpdf")]),
        // ImageWall's own deflater for PNG bands: C, scalar, no library (see its header).
        .target(name: "CDeflate"),
        // The resampler's hot loops (its weighted sums, the 2 x 2 box shrink): C twins of their Swift
        // definitions, plain, SSE2 and AVX2.
        .target(name: "CKernels"),
        // zlib for libpng's streams and joining Adler-32s; libdeflate (Debian's libdeflate-dev) for the
        // sheets' checksums.
        .target(
            name: "CPNGShim", dependencies: ["CLibPNG", "CDeflate", "CKernels"],
            linkerSettings: [.linkedLibrary("z"), .linkedLibrary("deflate")]),

        // Pure Swift stages.
        .target(name: "WallCore"),
        // Files and paths: atomic writes, private folders, output checks, process setup.
        .target(name: "WallFiles", dependencies: ["WallCore", "CProcessShim"]),
        .target(name: "WallLayout", dependencies: ["WallCore"]),
        .target(
            name: "WallCodecs",
            dependencies: [
                "WallCore", "WallFiles", "CJPEGShim", "CPNGShim", "CHEIFShim", "CWebPShim", "CTIFFShim", "CGIFShim",
                "CRawShim", "CFFmpegShim", "CJXLShim", "CExivShim", "CColorShim", "CPDFShim", "CVectorShim", "CDeflate",
                "CEXRShim",
            ]),
        .target(name: "WallText", dependencies: ["WallCore", "CTextShim"]),
        .target(name: "WallCompositor", dependencies: ["WallCore", "CKernels"]),
        .target(name: "WallCache", dependencies: ["WallCore", "CXXHash", "CZstd"]),
        .target(name: "WallJSON", dependencies: ["CJSONShim", "CKernels"]),
        .target(
            name: "ImageWall",
            dependencies: [
                "WallCore", "WallFiles", "WallLayout", "WallCodecs", "WallCompositor", "WallText", "WallCache",
                "WallJSON",
            ]),
        // What consumes a render: part files and their assembly; every page; diff and reports.
        .target(
            name: "WallParts",
            dependencies: [
                "ImageWall", "WallCore", "WallFiles", "WallLayout", "WallCodecs", "WallCompositor", "WallCache",
            ]),
        // Every page a person opens; its stylesheets and scripts (Assets/) made Swift constants at
        // build time by the PageAssets plugin, so the binary stays one file.
        .target(
            name: "WallPages",
            dependencies: ["ImageWall", "WallCore", "WallFiles", "WallCodecs", "WallCompositor", "WallJSON"],
            plugins: ["PageAssets"]),
        .executableTarget(name: "imagewall-page-assets"),
        .plugin(name: "PageAssets", capability: .buildTool(), dependencies: ["imagewall-page-assets"]),
        .target(
            name: "WallReview",
            dependencies: [
                "ImageWall", "WallPages", "WallCore", "WallFiles", "WallLayout", "WallCodecs", "WallCompositor",
                "WallJSON",
            ]),
        // A library of folders as a gallery site, kept up to date.
        .target(
            name: "WallGallery",
            dependencies: [
                "ImageWall", "WallPages", "WallCore", "WallFiles", "WallLayout", "WallCodecs", "WallCompositor",
                "WallCache", "WallJSON",
            ]),
        .target(
            name: "WallCommand",
            dependencies: [
                "ImageWall", "WallParts", "WallPages", "WallReview", "WallGallery", "WallCodecs", "WallCompositor",
                "WallLayout", "WallCache", "WallFiles", "WallCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "imagewall", dependencies: ["WallCommand"]),

        // The sample pictures: their catalogue (shared with the tests) and the generator.
        .target(name: "WallSamples", dependencies: ["WallCore", "WallText"]),
        .executableTarget(
            name: "imagewall-samples", dependencies: ["WallSamples", "WallCodecs", "WallCore", "WallText"]),

        // Benchmarks (make bench).
        .executableTarget(
            name: "imagewall-layout-bench", dependencies: ["WallCore", "WallLayout"],
            path: "Benchmarks/LayoutBenchmark"),
        .executableTarget(
            name: "imagewall-manifest-bench", dependencies: ["ImageWall"], path: "Benchmarks/ManifestBenchmark"),
        .executableTarget(
            name: "imagewall-corpus", dependencies: ["WallCore", "WallCodecs"], path: "Benchmarks/CorpusMaker"),

        // Fuzzing (make fuzz): built only with --sanitize fuzzer.
        .executableTarget(name: "imagewall-fuzz", dependencies: ["WallCodecs", "WallCore"], path: "Fuzz/DecodeFuzzer"),

        // Tests.
        .target(
            name: "_WallTestSupport",
            dependencies: ["WallCore", "WallLayout", "WallCodecs", "WallSamples"],
            path: "Tests/_WallTestSupport"),
        .testTarget(name: "WallCoreTests", dependencies: ["WallCore"]),
        .testTarget(name: "WallLayoutTests", dependencies: ["WallLayout", "WallCore", "_WallTestSupport"]),
        .testTarget(
            name: "WallCodecsTests",
            dependencies: ["WallCodecs", "WallCore", "WallFiles", "WallSamples", "_WallTestSupport"]),
        .testTarget(
            name: "WallCompositorTests", dependencies: ["WallCompositor", "WallCore", "CKernels", "_WallTestSupport"]),
        .testTarget(name: "WallTextTests", dependencies: ["WallText"]),
        .testTarget(name: "WallJSONTests", dependencies: ["WallJSON", "CKernels", "_WallTestSupport"]),
        .testTarget(name: "WallFilesTests", dependencies: ["WallFiles", "_WallTestSupport"]),
        .testTarget(
            name: "WallCacheTests",
            dependencies: ["WallCache", "ImageWall", "WallCore", "WallLayout", "_WallTestSupport"]),
        .testTarget(name: "WallPagesTests", dependencies: ["WallPages", "_WallTestSupport"]),
        .testTarget(
            name: "WallReviewTests",
            dependencies: ["WallReview", "ImageWall", "WallCodecs", "WallCore", "_WallTestSupport"]),
        .testTarget(name: "WallPartsTests", dependencies: ["WallParts", "ImageWall", "WallCore", "_WallTestSupport"]),
        .testTarget(
            name: "WallCommandTests",
            dependencies: [
                "WallCommand", "ImageWall", "WallParts", "WallPages", "WallReview", "WallCodecs", "WallCore",
                "WallFiles", "WallLayout", "WallSamples", "WallText", "_WallTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["Help"]),
        .testTarget(
            name: "WallGalleryTests",
            dependencies: [
                "WallGallery", "WallPages", "ImageWall", "WallCodecs", "WallCompositor", "WallCore", "WallFiles",
                "_WallTestSupport",
            ]),
        .testTarget(
            name: "ImageWallTests",
            dependencies: [
                "ImageWall", "WallPages", "WallReview", "WallCodecs", "WallCompositor", "WallLayout", "WallSamples",
                "WallFiles", "WallCore", "WallJSON", "_WallTestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
