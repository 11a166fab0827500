import Foundation
import SCLMCore

/// Tells packages from folders of packages, so `sclm validate DIR` on a folder such as `sample-content/`
/// checks each package in it instead of one package with an error per sibling.
///
/// A package is a zip file or a folder with an HTML file at its root.
enum PackageFolder {
    /// `paths` with every folder that is not a package but holds packages replaced by those packages (in
    /// name order); `note` is told of each entry skipped there. Other paths are kept as given, so a missing
    /// path or a folder without packages is still reported by the validator.
    static func expand(_ paths: [String], note: (String) -> Void) -> [String] {
        paths.flatMap { path -> [String] in
            guard FileSystem.isDirectory(path), !isPackage(path) else { return [path] }
            let children = entries(of: path)
            let packages = children.filter(isPackage)
            guard !packages.isEmpty else { return [path] }
            for skipped in children where !packages.contains(skipped) {
                let what = FileSystem.isDirectory(skipped) ? "a folder without an HTML file at its root" : "not a zip"
                note("skipping \(skipped): not a package (\(what))")
            }
            return packages
        }
    }

    /// Whether `path` is a package: a `.zip` file, or a folder with an `.html` file at its root.
    static func isPackage(_ path: String) -> Bool {
        guard FileSystem.isDirectory(path) else { return path.lowercased().hasSuffix(".zip") }
        return entries(of: path).contains { $0.lowercased().hasSuffix(".html") && !FileSystem.isDirectory($0) }
    }

    /// The visible entries of folder `path`, as paths, in name order.
    private static func entries(of path: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
        return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(folder)/\($0)" }
    }
}
