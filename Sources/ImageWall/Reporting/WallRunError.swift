import WallCodecs
import WallCore

/// A render that cannot go ahead as a whole.
public enum WallRunError: WallError, Equatable {
    /// Nothing was given to render.
    case noInputs
    /// Inputs were given but none is a readable image: `tried` could not be read (the first
    /// failure says why), sub-folders were not read without `-r`, and the sheets ImageWall wrote
    /// that the folders hold were left out (`ownOutputs`).
    case noImages(
        tried: Int, first: CodecError? = nil, subFoldersNotRead: Int = 0, ownOutputs: [String] = [], ratedOut: Int = 0)
    /// The output would overwrite one of the inputs.
    case outputIsInput(String)
    /// The render was interrupted; nothing was written.
    case cancelled
    /// A manifest to render again records no page files and no output was given.
    case manifestWithoutPages
    /// Crops follow faces (`--gravity faces`) and the face detector cannot be loaded: why.
    case noFaceDetector(String)

    /// What stopped the run, in a sentence.
    public var message: String {
        switch self {
        case .noInputs: return "no input images: give image files or folders"
        case .noImages(let tried, let first, let subFolders, let own, let rated):
            var parts: [String] = []
            if tried > 0 {
                parts.append(
                    (tried == 1 ? "the input could not be read" : "none of the \(tried) inputs could be read")
                        + (first.map { "; \($0.message)" } ?? ""))
            }
            if !own.isEmpty {
                let shown = own.prefix(3).joined(separator: ", ") + (own.count > 3 ? ", … (\(own.count) in all)" : "")
                parts.append(
                    "\(own.count == 1 ? "a sheet" : "\(own.count) sheets") ImageWall wrote, left out as earlier "
                        + "outputs: \(shown) (name one to draw it)")
            }
            if rated > 0 {
                parts.append(
                    "\(rated == 1 ? "the picture" : "all \(rated) pictures") left out by rating "
                        + "(--min-rating, --rejected)")
            }
            if parts.isEmpty { parts.append("the folders given hold no images (\(ImageFormat.names))") }
            if subFolders > 0 {
                parts.append(
                    "\(subFolders) sub-folder\(subFolders == 1 ? "" : "s") not read: use -r to take their images")
            }
            return "no input images: " + parts.joined(separator: "; ")
        case .outputIsInput(let path): return "\(path): refusing to overwrite an input image"
        case .cancelled: return "interrupted: nothing was written"
        case .manifestWithoutPages:
            return "the manifest records no pages (it came from imagewall layout): give -o OUT.png"
        case .noFaceDetector(let reason):
            return "--gravity faces: \(reason) (make deps installs OpenCV, make build the detector)"
        }
    }
}
