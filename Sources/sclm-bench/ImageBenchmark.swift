import Foundation
import SCLMCore
import SCLMImage

/// Times what `sclm diff` does with one slide's two renders: decode both PNGs, compare them, encode the diff
/// image; each step `runs` times, its median in milliseconds.
struct ImageBenchmark {
    let old: String
    let new: String
    let runs: Int

    init(arguments: [String]) throws {
        guard let old = value("--old", in: arguments), let new = value("--new", in: arguments) else {
            throw SCLMError(.usage, "image needs --old PNG --new PNG")
        }
        self.old = old
        self.new = new
        runs = value("--runs", in: arguments).flatMap(Int.init) ?? 50
    }

    func run() throws {
        let oldBytes = try Self.read(old)
        let newBytes = try Self.read(new)
        let decode = try Self.median(runs) { _ = try PNGCodec.decode(oldBytes) }
        let (first, second) = (try PNGCodec.decode(oldBytes), try PNGCodec.decode(newBytes))
        let diff = PixelDiff()
        let compare = try Self.median(runs) { _ = diff.compare(first, second) }
        let comparison = diff.compare(first, second)
        let image = comparison.diffImage()
        let draw = try Self.median(runs) { _ = comparison.diffImage() }
        let encode = try Self.median(runs) { _ = try PNGCodec.encode(image) }
        print(
            #"{"decode_ms": \#(decode), "compare_ms": \#(compare), "diff_image_ms": \#(draw), "encode_ms": \#(encode), "#
                + #""width": \#(first.width), "height": \#(first.height), "changed_pixels": \#(comparison.changedPixels), "#
                + #""regions": \#(comparison.regions.count)}"#)
    }

    private static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SCLMError(.storage, "cannot read \(path)")
        }
        return Array(data)
    }

    /// The median time of `runs` calls of `body`, in milliseconds.
    private static func median(_ runs: Int, _ body: () throws -> Void) throws -> Double {
        var times: [Double] = []
        for _ in 0..<max(1, runs) {
            let start = ContinuousClock.now
            try body()
            times.append((ContinuousClock.now - start).inSeconds * 1000)
        }
        return times.sorted()[times.count / 2]
    }
}
