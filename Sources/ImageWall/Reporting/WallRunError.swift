import WallCodecs
import WallCore

/// A render that cannot go ahead as a whole.
public enum WallRunError: WallError, Equatable {
    /// Nothing was given to render.
    case noInputs
    /// Inputs were given but none is a readable image; the first failure says why.
    case noImages(tried: Int, first: CodecError? = nil, subFoldersNotRead: Int = 0)
    /// The output would overwrite one of the inputs.
    case outputIsInput(String)
    /// The render was interrupted; nothing was written.
    case cancelled
    /// A manifest to render again records no page files and no output was given.
    case manifestWithoutPages

    /// What stopped the run, in a sentence.
    public var message: String {
        switch self {
        case .noInputs: return "no input images: give image files or folders"
        case .noImages(let tried, let first, let subFolders):
            guard tried > 0 else {
                let hint =
                    subFolders == 0
                    ? ""
                    : "; \(subFolders) sub-folder\(subFolders == 1 ? "" : "s") not read: use -r to take their images"
                return "no input images: the folders given hold no images (\(ImageFormat.names))\(hint)"
            }
            let reason = first.map { "; \($0.message)" } ?? ""
            return "no input images: "
                + (tried == 1 ? "the input could not be read" : "none of the \(tried) inputs could be read") + reason
        case .outputIsInput(let path): return "\(path): refusing to overwrite an input image"
        case .cancelled: return "interrupted: nothing was written"
        case .manifestWithoutPages:
            return "the manifest records no pages (it came from imagewall layout): give -o OUT.png"
        }
    }
}
