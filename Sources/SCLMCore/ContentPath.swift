import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resolves names that content sends (slides, media files) and paths a page requests to files inside a
/// presentation's folder, refusing anything that could leave it: absolute paths, `..`, backslashes,
/// control characters, and symlinks whose target lies outside.
package enum ContentPath {
    /// Whether `path` is a relative path of plain components (no `..`, `.`, empty, absolute, `\`, NUL or
    /// control characters).
    package static func isSafeRelative(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), path.utf8.count <= 1024 else { return false }
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" }) else {
            return false
        }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part != "." && part != ".."
        }
    }

    /// Whether `name` is one safe path component (a file at the folder's root).
    package static func isPlainName(_ name: String) -> Bool {
        isSafeRelative(name) && !name.contains("/")
    }

    /// The real path of the regular file `relative` under `root`, or `nil` when it is unsafe, missing,
    /// not a regular file, or resolves (through symlinks) outside `root`.
    package static func regularFile(_ relative: String, inside root: String) -> String? {
        guard isSafeRelative(relative), let realRoot = realPath(root), let real = realPath(root + "/" + relative)
        else { return nil }
        guard real.hasPrefix(realRoot + "/") else { return nil }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return real
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
