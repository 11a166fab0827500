import CPNG
import SCLMCore

/// PNG through libpng 1.6's simplified API (`png_image_*`): whole images to and from memory as 8-bit RGBA.
///
/// The simplified API keeps libpng's `setjmp` error handling inside the library and reports a failure by its
/// return value, so no `longjmp` crosses a Swift frame. The bytes read are untrusted (screenshots, and a PNG
/// anyone can hand `sclm diff` through its images folder): the header is read first and an image larger than
/// ``RGBAImage/maxSide`` on a side is refused before anything is allocated for it (fuzz target `png`).
package enum PNGCodec {
    /// Decodes `bytes` to RGBA (palette, grey, 16-bit and interlaced images converted).
    ///
    /// - Throws: ``ImageError`` (`.archive`) when the bytes are not a PNG libpng can read, or too large.
    package static func decode(_ bytes: [UInt8]) throws -> RGBAImage {
        var image = sclm_png_image()
        defer { png_image_free(&image) }
        let began = bytes.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard began != 0, sclm_png_failed(&image) == 0 else { throw failure("cannot read the PNG", image) }
        let (width, height) = (Int(image.width), Int(image.height))
        guard (1...RGBAImage.maxSide).contains(width), (1...RGBAImage.maxSide).contains(height) else {
            throw ImageError(
                .archive, "the PNG is \(width)x\(height), larger than \(RGBAImage.maxSide) pixels on a side")
        }
        image.format = png_uint_32(SCLM_PNG_FORMAT_RGBA)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { raw in
            png_image_finish_read(&image, nil, raw.baseAddress, png_int_32(width * 4), nil)
        }
        guard finished != 0, sclm_png_failed(&image) == 0 else { throw failure("cannot decode the PNG", image) }
        guard let decoded = RGBAImage(width: width, height: height, pixels: pixels) else {
            throw ImageError(.internal, "libpng returned a \(width)x\(height) image")
        }
        return decoded
    }

    /// Encodes `image` as an RGBA PNG, favouring speed over size (`PNG_IMAGE_FLAG_FAST`).
    ///
    /// - Throws: ``ImageError`` (`.internal`) when libpng refuses.
    package static func encode(_ image: RGBAImage) throws -> [UInt8] {
        var png = sclm_png_image()
        defer { png_image_free(&png) }
        png.width = png_uint_32(image.width)
        png.height = png_uint_32(image.height)
        png.format = png_uint_32(SCLM_PNG_FORMAT_RGBA)
        png.flags = png_uint_32(SCLM_PNG_IMAGE_FLAG_FAST)
        // Deflate can grow incompressible rows a little: the raw size and a margin always suffice.
        var size = image.pixels.count + image.height + 1024
        var output = [UInt8](repeating: 0, count: size)
        let written = output.withUnsafeMutableBytes { out in
            image.pixels.withUnsafeBytes { pixels in
                png_image_write_to_memory(
                    &png, out.baseAddress, &size, 0, pixels.baseAddress, png_int_32(image.width * 4), nil)
            }
        }
        guard written != 0, sclm_png_failed(&png) == 0 else {
            throw failure("cannot encode the PNG", png, category: .internal)
        }
        output.removeSubrange(size...)
        return output
    }

    /// An ``ImageError`` with libpng's own message.
    private static func failure(_ what: String, _ image: png_image, category: ErrorCategory = .archive) -> ImageError {
        var message = image.message
        let text = withUnsafeBytes(of: &message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return ImageError(category, text.isEmpty ? what : "\(what): \(text)")
    }
}
