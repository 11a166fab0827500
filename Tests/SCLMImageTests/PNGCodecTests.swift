import Foundation
import SCLMImage
import SCLMTestSupport
import Testing

/// PNG through libpng: what is written reads back the same, and bytes that are not a PNG sclm can read (or
/// claim a picture too large) are refused with an error, never a crash.
@Suite(.tags(.small)) struct PNGCodecTests {
    /// A picture with every channel varying, alpha included.
    static func gradient(width: Int, height: Int) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image.set(x, y, to: (UInt8(x % 256), UInt8(y % 256), UInt8((x * y) % 256), UInt8(255 - (x % 128))))
            }
        }
        return image
    }

    @Test func anEncodedPictureDecodesToTheSamePixels() throws {
        let image = Self.gradient(width: 301, height: 77)
        let png = try PNGCodec.encode(image)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try PNGCodec.decode(png) == image)
    }

    @Test(arguments: [
        [UInt8](), Array("not a png at all".utf8), Array([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
    ])
    func bytesThatAreNoPNGAreRefused(_ bytes: [UInt8]) {
        #expect(throws: ImageError.self) { try PNGCodec.decode(bytes) }
    }

    @Test func aTruncatedPNGIsRefused() throws {
        let png = try PNGCodec.encode(Self.gradient(width: 64, height: 64))
        #expect(throws: ImageError.self) { try PNGCodec.decode(Array(png.prefix(png.count / 2))) }
    }

    /// The header says 100000 × 100000: refused before 40 GB are asked for.
    @Test func aPictureLargerThanAnyViewportIsRefusedFromItsHeader() throws {
        let path = ProcessRunner.packageRoot + "/Tests/Fuzz/Corpus/png/huge-header.png"
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let error = try #require(throws: ImageError.self) { try PNGCodec.decode(bytes) }
        #expect(error.message.contains("100000x100000"), "\(error)")
    }

    /// Colour types other than RGBA (the grey and palette seeds of the fuzz corpus) decode to RGBA.
    @Test(arguments: ["grey.png", "palette.png", "rgb.png", "rgba16.png"])
    func otherColourTypesDecodeToRGBA(_ name: String) throws {
        let path = ProcessRunner.packageRoot + "/Tests/Fuzz/Corpus/png/" + name
        let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(image.pixels.count == image.width * image.height * 4)
    }
}
