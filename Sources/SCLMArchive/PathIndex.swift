/// The names in a package: finds duplicates and case collisions as entries arrive, and answers the exact-
/// and case-insensitive look-ups that reference checks need.
///
/// Look-ups are byte-exact (`café` in NFC and in NFD are different files on Linux and Android), while
/// collisions are found with Swift's canonical, lowercased comparison: names that one of the players'
/// file systems would merge.
struct PathIndex {
    /// What a name is.
    enum Kind: Equatable {
        case file
        /// A folder, listed by its own entry or implied by the entries below it.
        case directory
    }

    /// Names as bytes, hashed in one call (hashing `[UInt8]` element by element is several times slower).
    private struct Key: Hashable {
        let bytes: [UInt8]

        init(_ path: String) { bytes = Array(path.utf8) }

        func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
    }

    private var kinds: [Key: Kind] = [:]
    private var folded: [String: String] = [:]
    private var reportedCollisions: Set<String> = []
    /// The folder of the last name inserted: archives list a folder's files together, so its prefixes
    /// are usually known already.
    private var lastFolder = ""

    /// Records `path` (normalised, non-empty) and the folders above it; returns the findings it causes.
    mutating func insert(_ path: String, isDirectory: Bool) -> [Finding] {
        let folder = PackagePath.directory(of: path)
        var findings: [Finding] = []
        if folder != lastFolder || folder.isEmpty {
            var prefix = ""
            for component in folder.split(separator: "/", omittingEmptySubsequences: true) {
                prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
                findings += insertOne(prefix, kind: .directory, isEntry: false)
            }
            lastFolder = folder
        }
        return findings + insertOne(path, kind: isDirectory ? .directory : .file, isEntry: true)
    }

    private mutating func insertOne(_ path: String, kind: Kind, isEntry: Bool) -> [Finding] {
        let key = Key(path)
        if let existing = kinds[key] {
            guard existing == .file || kind == .file, isEntry || existing == .file else { return [] }
            let message =
                existing == kind
                ? "'\(path)' appears more than once; only one copy can be unpacked"
                : "'\(path)' is both a file and a folder"
            return [Finding(.pathDuplicate, path: path, message: message)]
        }
        kinds[key] = kind
        let lowered = path.lowercased()
        guard let first = folded[lowered] else {
            folded[lowered] = path
            return []
        }
        // Below a folder that already collides every name collides too: the folder's finding says it all.
        guard !hasCollidingAncestor(lowered), reportedCollisions.insert(lowered).inserted else { return [] }
        return [
            Finding(
                .pathCaseCollision, path: path,
                message: "'\(path)' and '\(first)' differ only in case or Unicode normalisation",
                fix: "Rename '\(path)' or '\(first)' so the names differ in more than case.")
        ]
    }

    private func hasCollidingAncestor(_ lowered: String) -> Bool {
        var prefix = Substring(lowered)
        while let slash = prefix.lastIndex(of: "/") {
            prefix = prefix[..<slash]
            if reportedCollisions.contains(String(prefix)) { return true }
        }
        return false
    }

    /// What `path` is, matched byte for byte.
    func kind(of path: String) -> Kind? { kinds[Key(path)] }

    /// The packaged spelling of `path` when it matches only case-insensitively (or in another normalisation).
    func caseVariant(of path: String) -> String? {
        guard let spelling = folded[path.lowercased()], !spelling.utf8.elementsEqual(path.utf8) else { return nil }
        return spelling
    }
}
