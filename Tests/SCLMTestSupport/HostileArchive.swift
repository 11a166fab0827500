import Foundation
import Testing

/// A hostile or broken zip, built at test time, and the rule it must trip (shared by the archive tests and
/// the end-to-end sync tests).
package struct HostileArchive: Sendable, CustomTestStringConvertible {
    package let name: String
    /// The rule validation reports.
    package let rule: String
    /// The rule extraction refuses on (it stops at the first error, which may come earlier).
    package var extractionRule: String?
    package let build: @Sendable (_ path: String) throws -> Void

    package init(
        name: String, rule: String, extractionRule: String? = nil,
        build: @escaping @Sendable (_ path: String) throws -> Void
    ) {
        self.name = name
        self.rule = rule
        self.extractionRule = extractionRule
        self.build = build
    }

    package var testDescription: String { "\(name) → \(rule)" }

    /// Builds the archive at `path` on a thread of its own: some take seconds (a 100,000-entry zip, a
    /// bomb), which would otherwise hold a thread of the small cooperative pool other tests wait on.
    ///
    /// - Throws: what building throws.
    package func write(to path: String) async throws {
        let build = self.build
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread { continuation.resume(with: Result { try build(path) }) }.start()
        }
    }

    /// The valid package plus `extra`, written to `path`, then edited by `edit`.
    private static func package(
        at path: String, extra: (inout ZipBuilder) -> Void = { _ in }, edit: (inout ZipBytes) throws -> Void = { _ in }
    ) throws {
        var zip = PackageFixtures.validZip()
        extra(&zip)
        try zip.write(to: path)
        var bytes = try ZipBytes(contentsOf: path)
        try edit(&bytes)
        try bytes.write(to: path)
    }

    package static let all: [HostileArchive] = [
        HostileArchive(name: "zip slip", rule: "PATH-TRAVERSAL") { path in
            try package(at: path) { $0.file("../evil.html", "<p>pwned</p>") }
        },
        HostileArchive(name: "absolute path", rule: "PATH-ABSOLUTE") { path in
            try package(at: path) { $0.file("/tmp/sclm-absolute.html", "<p>pwned</p>") }
        },
        HostileArchive(name: "symlink pointing outside", rule: "ENTRY-SYMLINK") { path in
            try package(at: path) { $0.symlink("img/escape", to: "/etc") }
        },
        HostileArchive(name: "hard link (shared local header)", rule: "ENTRY-HARDLINK") { path in
            try package(at: path, extra: { $0.file("img/copy.png", "placeholder") }) {
                try $0.pointEntry("img/copy.png", intoEntry: "img/logo.png")
            }
        },
        HostileArchive(name: "overlapping entries", rule: "ARCHIVE-OVERLAP") { path in
            try package(at: path, extra: { $0.file("img/copy.png", "placeholder") }) {
                try $0.pointEntry("img/copy.png", intoEntry: "img/logo.png", skipping: 100)
            }
        },
        HostileArchive(name: "names differing only in case", rule: "PATH-CASE-COLLISION") { path in
            try package(at: path) { $0.file("img/LOGO.png", "other") }
        },
        HostileArchive(name: "duplicate entry", rule: "PATH-DUPLICATE") { path in
            try package(at: path) { $0.file("slide2.html", "<p>second copy</p>") }
        },
        // A refused method is never decoded: validation and extraction both stop at the central directory.
        HostileArchive(
            name: "1 KiB bzip2 stream expanding to 1 GiB", rule: "ARCHIVE-METHOD"
        ) { path in
            try Bzip2Bomb.writeZip(
                to: path, expandingToAtLeast: 1 << 30, base: PackageFixtures.validZip(), entry: "mediafiles/bomb.bin")
        },
        HostileArchive(name: "deflate run of zeros", rule: "BUDGET-RATIO") { path in
            try package(at: path) { $0.zeros("mediafiles/zeros.bin", count: 64 << 20) }
        },
        HostileArchive(name: "100,000 tiny entries", rule: "BUDGET-ENTRY-COUNT") { path in
            try package(at: path) { zip in
                for index in 0..<100_000 { zip.file("tiny/\(index).txt", "x", compression: .store) }
            }
        },
        HostileArchive(name: "CRC flipped", rule: "ARCHIVE-CRC") { path in
            try package(at: path, extra: { $0.file("data.txt", "some stored text", compression: .store) }) {
                try $0.flipFirstDataByte(ofEntry: "data.txt")
            }
        },
        HostileArchive(name: "wrong CRC declared for a deflated entry", rule: "ARCHIVE-CRC") { path in
            try package(at: path, edit: { try $0.setCRC(0x1234_5678, onEntry: "slide2.html") })
        },
        HostileArchive(name: "local header CRC differs from the central directory's", rule: "ARCHIVE-CORRUPT") { path in
            try package(
                at: path, edit: { try $0.setCRC(0x1234_5678, onEntry: "css/main.css", inCentralDirectory: false) })
        },
        HostileArchive(name: "truncated file", rule: "ARCHIVE-TRUNCATED") { path in
            try package(at: path, edit: { $0.truncate(to: $0.bytes.count / 2) })
        },
        HostileArchive(name: "encrypted entry", rule: "ARCHIVE-ENCRYPTED") { path in
            try package(at: path, edit: { try $0.setFlags(0x0001, onEntry: "img/bg.jpg") })
        },
        HostileArchive(name: "non-UTF-8 name", rule: "PATH-INVALID-UTF8") { path in
            try package(at: path, extra: { $0.file("img/XXXX.png", "cp1251 name") }) {
                try $0.rename("img/XXXX.png", to: Array("img/".utf8) + [0xF1, 0xEB, 0xE0, 0xE9] + Array(".png".utf8))
            }
        },
        HostileArchive(name: "non-UTF-8 name flagged as UTF-8", rule: "PATH-INVALID-UTF8") { path in
            try package(at: path, extra: { $0.file("img/XXXX.png", "bad bytes") }) {
                try $0.rename(
                    "img/XXXX.png", to: Array("img/".utf8) + [0xC3, 0x28, 0xFF, 0xFE] + Array(".png".utf8),
                    utf8Flag: true)
            }
        },
        HostileArchive(name: "backslash separator", rule: "PATH-BACKSLASH") { path in
            try package(at: path, extra: { $0.file("img_win.png", "windows") }) {
                try $0.rename("img_win.png", to: Array("img\\win.png".utf8))
            }
        },
        HostileArchive(name: "control character in a name", rule: "PATH-CONTROL-CHAR") { path in
            try package(at: path, extra: { $0.file("img/a_b.png", "newline") }) {
                try $0.rename("img/a_b.png", to: Array("img/a\nb.png".utf8))
            }
        },
        HostileArchive(name: "character device", rule: "ENTRY-SPECIAL") { path in
            try package(at: path, extra: { $0.file("dev/null", "") }) {
                try $0.setUnixMode(0o020644, onEntry: "dev/null")
            }
        },
        // libarchive 3.6 unpacks a FIFO entry as a regular file; the mode in the central directory says FIFO.
        HostileArchive(name: "FIFO entry", rule: "ENTRY-SPECIAL") { path in
            try package(at: path, extra: { $0.file("pipe", "") }) { try $0.setUnixMode(0o010644, onEntry: "pipe") }
        },
        HostileArchive(name: "socket entry", rule: "ENTRY-SPECIAL") { path in
            try package(at: path, extra: { $0.file("socket", "") }) {
                try $0.setUnixMode(0o140755, onEntry: "socket")
            }
        },
        // libarchive 3.6 ignores the PKWARE Unix extra field and unpacks the entry's own data.
        HostileArchive(name: "hard link (PKWARE Unix extra field)", rule: "ENTRY-HARDLINK") { path in
            try package(at: path, extra: { $0.file("img/copy.png", "placeholder") }) {
                try $0.setUnixMode(0o100644, onEntry: "img/copy.png")
                try $0.addUnixExtraField(Array("img/logo.png".utf8), onEntry: "img/copy.png")
            }
        },
        HostileArchive(name: "bzip2 compression", rule: "ARCHIVE-METHOD") { path in
            try package(at: path, extra: { $0.file("bz.txt", "not really bzip2", compression: .store) }) {
                try $0.setMethod(12, onEntry: "bz.txt")
            }
        },
        HostileArchive(name: "nested 40 folders deep", rule: "BUDGET-DEPTH") { path in
            try package(at: path) { $0.file(String(repeating: "d/", count: 40) + "deep.txt", "deep") }
        },
        HostileArchive(name: "damaged central-directory record", rule: "ARCHIVE-CORRUPT") { path in
            try package(at: path, edit: { try $0.damageCentralRecord(ofEntry: "slide2.html") })
        },
        // Sizes and offsets near 2^64: additions on them overflowed (and trapped) before they were checked.
        HostileArchive(name: "ZIP64 compressed size 2^64-1", rule: "ARCHIVE-CORRUPT") { path in
            try package(at: path, edit: { try $0.setZip64(compressedSize: .max, onEntry: "slide2.html") })
        },
        HostileArchive(name: "ZIP64 local header offset 2^64-1", rule: "ARCHIVE-CORRUPT") { path in
            try package(at: path, edit: { try $0.setZip64(localHeaderOffset: .max, onEntry: "slide2.html") })
        },
        HostileArchive(name: "ZIP64 local header offset near 2^64 behind a stub", rule: "ARCHIVE-CORRUPT") { path in
            try package(
                at: path,
                edit: { zip in
                    try zip.setZip64(localHeaderOffset: .max - 8, onEntry: "slide2.html")
                    zip.prependStub(16)
                })
        },
        HostileArchive(name: "ZIP64 end record past the end of the file", rule: "ARCHIVE-CORRUPT") { path in
            try package(at: path, edit: { try $0.addZip64Locator(pointingAt: .max - 30) })
        },
        HostileArchive(name: "not a zip", rule: "ARCHIVE-NOT-ZIP") { path in
            try Data("<html>this is not a zip</html>".utf8).write(to: URL(fileURLWithPath: path))
        },
    ]
}
