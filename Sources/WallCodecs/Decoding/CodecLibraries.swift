import CColorShim
import CExivShim
import CFFmpegShim
import CGIFShim
import CHEIFShim
import CJPEGShim
import CJXLShim
import CPNGShim
import CRawShim
import CTIFFShim
import CWebPShim

/// The libraries that turn files into pixels, and their versions.
public enum CodecLibraries {
    /// One line naming each library and its version: a new version of any of them may decode
    /// differently, so a cache keys its entries by it. FFmpeg's are its headers' (the libraries
    /// themselves load only for a video, whose decode plan names them), and so are libheif's.
    public static let versions: String = {
        let webp = iw_webp_library_version()
        // libtiff says "LIBTIFF, Version 4.5.0\nCopyright …": its number alone.
        let tiffLine = String(cString: iw_tiff_library_version()).split(separator: "\n").first.map(String.init) ?? "?"
        let tiff = "libtiff " + (tiffLine.split(separator: " ").last.map(String.init) ?? tiffLine)
        return [
            "libjpeg \(iw_jpeg_library_version())",
            "libpng \(iw_png_library_version())",
            "zlib \(String(cString: iw_zlib_library_version()))",
            // libheif's as built: it loads on the first HEIF file (a HEIF's decode plan names the
            // one loaded).
            "libheif \(String(cString: iw_heif_header_version()))",
            "libwebp \(webp >> 16).\((webp >> 8) & 0xFF).\(webp & 0xFF)",
            tiff,
            "giflib \(iw_gif_library_version())",
            "LibRaw \(String(cString: iw_raw_version()))",
            "Exiv2 \(String(cString: iw_exiv_version()))",
            // libjxl's as built: it loads on the first JPEG XL file (a JPEG XL's decode plan names
            // the one loaded).
            "libjxl \(String(cString: iw_jxl_header_version()))",
            // FFmpeg's as built: the libraries load on the first video (a video's decode plan
            // names the ones loaded).
            String(cString: iw_ffmpeg_header_versions()),
            "lcms \(iw_color_library_version())",
        ].joined(separator: ", ")
    }()
}
