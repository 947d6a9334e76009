import Foundation
import PackagePlugin

/// Embeds a target's stylesheets and scripts (its `.css` and `.js` files; WallPages keeps them in
/// `Assets/`) at build time: one generated Swift file, `PageAssets`, holds each file's text as a
/// string constant, so the pages need no resource bundle and the binary stays one file.
@main
struct PageAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let assets = target.sourceFiles.map(\.url).filter { ["css", "js"].contains($0.pathExtension) }
            .sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("PageAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(assets.count) page assets of \(target.name)",
                executable: try context.tool(named: "imagewall-page-assets").url,
                arguments: [output.path] + assets.map(\.path), inputFiles: assets, outputFiles: [output])
        ]
    }
}
