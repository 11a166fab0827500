import Foundation
import SCLMTestSupport

/// A generated package for the delta-update tests: HTML slides and scripts (deflated), images (stored,
/// random bytes, so they do not compress), a folder entry; each file's content is chosen by a seed, so two
/// revisions share exactly the files whose seeds they share.
struct DeltaDeck {
    /// One file: its compression and the seed of its bytes.
    struct File: Equatable {
        var compression: ZipBuilder.Compression
        var size: Int
        var seed: UInt64
    }

    /// Files by path.
    var files: [String: File] = [:]

    /// A deck of `count` files.
    init(count: Int, seed: UInt64) {
        var random = SplitMix(seed)
        files["index.html"] = File(compression: .deflate, size: 2_000, seed: random.next())
        for index in 1..<count {
            let isImage = index % 3 == 0
            let path =
                isImage ? "img/picture\(index).jpg" : index % 3 == 1 ? "slide\(index).html" : "js/part\(index).js"
            files[path] = File(
                compression: isImage ? .store : .deflate, size: 1_000 + Int(random.next() % 12_000),
                seed: random.next())
        }
    }

    /// The zip, with the `img/` folder entry first.
    func zip() -> ZipBuilder {
        var zip = ZipBuilder()
        zip.directory("img/")
        for (path, file) in files.sorted(by: { $0.key < $1.key }) {
            zip.file(path, bytes: Self.bytes(file), compression: file.compression)
        }
        return zip
    }

    /// A file's bytes: random for a stored one, repetitive text for a deflated one.
    static func bytes(_ file: File) -> [UInt8] {
        var random = SplitMix(file.seed)
        if file.compression == .store { return (0..<file.size).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        let words = ["slide", "swipe", "<div>", "</div>", "clm", "dose", "\n", "var x = 1;"]
        var text: [UInt8] = []
        while text.count < file.size { text += Array(words[Int(random.next() % UInt64(words.count))].utf8) }
        return Array(text.prefix(file.size))
    }

    /// Changes the content of `count` files (the first ones in path order after `skipping`).
    mutating func change(_ count: Int, skipping: Int = 0) {
        for path in files.keys.sorted().dropFirst(skipping).prefix(count) { files[path]?.seed &+= 1 }
    }

    /// A random edit for the property test: files added, removed, renamed, changed, recompressed.
    mutating func mutate(_ random: inout SplitMix) {
        for path in files.keys.sorted() {
            switch random.next() % 12 {
            case 0: files[path] = nil
            case 1: files[path]?.seed &+= 1
            case 2:
                if let file = files.removeValue(forKey: path) { files["renamed/" + path] = file }
            case 3:
                let compression = files[path]?.compression
                files[path]?.compression = compression == .store ? .deflate : .store
            default: continue
            }
        }
        for index in 0..<Int(random.next() % 5) {
            files["added\(random.next() % 1000)-\(index).css"] = File(
                compression: .deflate, size: 500 + Int(random.next() % 4_000), seed: random.next())
        }
        files["index.html"] = files["index.html"] ?? File(compression: .deflate, size: 300, seed: 1)
    }
}

/// A small seeded generator (SplitMix64), so a failing property case can be replayed.
struct SplitMix {
    private var state: UInt64

    init(_ seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
