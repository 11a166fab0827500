import Foundation

/// Files of a test deck written at test time: slide HTML, scripts, media, relative to the package root.
package struct DeckFiles: Sendable {
    /// Path → contents.
    package var files: [String: Data]

    /// Creates a deck from `files`.
    package init(_ files: [String: Data] = [:]) {
        self.files = files
    }

    /// Adds a text file.
    package mutating func add(_ path: String, _ text: String) {
        files[path] = Data(text.utf8)
    }

    /// A slide page that loads `scripts` (package paths) and then runs `body` (JavaScript).
    package static func slide(
        _ title: String, scripts: [String] = ["js/storyclm.js"], body: String, markup: String = ""
    )
        -> String
    {
        """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>\(title)</title></head>
        <body><h1>\(title)</h1>\(markup)
        \(scripts.map { "<script src=\"\($0)\"></script>" }.joined(separator: "\n"))
        <script>
        \(body)
        </script>
        </body></html>
        """
    }

    /// The project's own content library (`bridge-js/storyclm.js`).
    package static var projectLibrary: String {
        (try? String(contentsOfFile: ProcessRunner.packageRoot + "/bridge-js/storyclm.js", encoding: .utf8)) ?? ""
    }

    /// A one-slide deck on the project's library whose `index.html` runs `body`.
    package static func librarySlide(_ body: String) -> DeckFiles {
        var deck = DeckFiles(["js/storyclm.js": Data(projectLibrary.utf8)])
        deck.add("index.html", slide("index", body: body))
        return deck
    }

    /// Writes every file under `root`.
    ///
    /// - Throws: file errors.
    package func write(to root: String) throws {
        for (path, data) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
    }

    /// A mono 8 kHz 16-bit PCM WAV of `seconds` of a tone (plays in a `<video>` element; no encoder needed).
    package static func toneWAV(seconds: Int) -> Data {
        let rate = 8000
        let samples = rate * seconds
        var data = Data("RIFF".utf8)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        append(UInt32(36 + samples * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16))
        append(UInt16(1))
        append(UInt16(1))
        append(UInt32(rate))
        append(UInt32(rate * 2))
        append(UInt16(2))
        append(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        append(UInt32(samples * 2))
        for index in 0..<samples {
            append(Int16(sin(Double(index) * 2 * .pi * 440 / Double(rate)) * 8000))
        }
        return data
    }
}
