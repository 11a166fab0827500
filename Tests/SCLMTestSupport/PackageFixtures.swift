import Foundation
import Synchronization

/// Packages the archive tests build at run time: a small valid StoryCLM presentation and hostile variants.
package enum PackageFixtures {
    /// A start slide that links a stylesheet, an image, a second slide and storyclm.js.
    package static let indexHTML = """
        <!DOCTYPE html>
        <html>
        <head>
          <meta charset="utf-8">
          <meta name="clm-swipe-next" content="slide2.html">
          <link rel=stylesheet href="css/main.css">
          <script src="js/storyclm.js"></script>
        </head>
        <body>
          <img src='img/logo.png' srcset="img/logo.png 1x, img/logo@2x.png 2x" alt="">
          <div style="background-image: url(img/bg.jpg)"></div>
          <a href="slide2.html#top">next</a>
          <script>document.querySelector('a').onclick = function () { StoryCLM.Go('slide2.html'); };</script>
        </body>
        </html>
        """

    package static let slide2HTML = """
        <html><head>
        <meta name="clm-swipe-previous" content="index.html">
        <meta name="clm-swipe-next" content="">
        <link rel="stylesheet" href="css/main.css"></head>
        <body><video src="mediafiles/intro.mp4" poster="img/bg.jpg"></video></body></html>
        """

    package static let mainCSS = """
        @import url("fonts.css");
        /* url(commented-out.png) is not a reference */
        body { background: #fff url('../img/bg.jpg') no-repeat; }
        """

    /// Deterministic pseudo-random bytes (incompressible, like images and video). Each (count, seed) is made
    /// once per test process: the tests build the same packages over and over, and an unoptimized test
    /// build makes megabytes of noise slowly.
    package static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        let key = NoiseKey(count: count, seed: seed)
        if let made = madeNoise.withLock({ $0[key] }) { return made }
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            var index = 0
            while index < count {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                base[index] = UInt8(truncatingIfNeeded: state)
                index += 1
            }
            initialized = count
        }
        madeNoise.withLock { $0[key] = bytes }
        return bytes
    }

    private struct NoiseKey: Hashable {
        let count: Int
        let seed: UInt64
    }

    private static let madeNoise = Mutex<[NoiseKey: [UInt8]]>([:])

    /// A package of an `index.html` and `count` files `media/<n>.bin` of 1 MiB of noise each: big enough
    /// that unpacking it takes many blocks (for cancellation tests).
    package static func noiseZip(files count: Int) -> ZipBuilder {
        var builder = ZipBuilder()
        builder.file("index.html", "<html></html>")
        for index in 0..<count { builder.file("media/\(index).bin", bytes: noise(1 << 20, seed: UInt64(index))) }
        return builder
    }

    /// The files of the valid package, path → contents.
    package static let validFiles: [(String, [UInt8])] = [
        ("index.html", Array(indexHTML.utf8)),
        ("slide2.html", Array(slide2HTML.utf8)),
        ("css/main.css", Array(mainCSS.utf8)),
        ("css/fonts.css", Array("@font-face { font-family: X; src: url(../fonts/x.woff2) format('woff2'); }".utf8)),
        ("fonts/x.woff2", noise(2_000, seed: 1)),
        ("js/storyclm.js", Array("window.StoryCLMBridge = { Invoke: function () {} }; window.StoryCLM = {};".utf8)),
        ("img/logo.png", noise(30_000, seed: 2)),
        ("img/logo@2x.png", noise(60_000, seed: 3)),
        ("img/bg.jpg", noise(120_000, seed: 4)),
        ("mediafiles/intro.mp4", noise(300_000, seed: 5)),
    ]

    /// A zip builder holding the valid package (folders listed explicitly, as most zip tools do).
    package static func validZip() -> ZipBuilder {
        var zip = ZipBuilder()
        for folder in ["css/", "fonts/", "js/", "img/", "mediafiles/"] { zip.directory(folder) }
        for (path, bytes) in validFiles {
            zip.file(path, bytes: bytes, compression: path.hasSuffix(".mp4") ? .store : .deflate)
        }
        return zip
    }

    /// Writes the valid package as a folder under `root`.
    package static func writeValidFolder(at root: String) throws {
        for (path, bytes) in validFiles {
            let file = root + "/" + path
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: file))
        }
    }

    /// The names in `folder`, recursively, sorted (to prove nothing was written).
    package static func listing(_ folder: String) -> [String] {
        (FileManager.default.subpaths(atPath: folder) ?? []).sorted()
    }
}
