import SCLMArchive

/// The content rules on one packaged file (`FileContentCheck.findings(ofFile:_:chunkSize:)`): the HTML, CSS
/// and script tokenizers over chunks of a chosen size, reference extraction and the reference checks. The
/// first byte chooses the file's type and folder, the second the chunk size.
enum ContentTarget {
    private static let paths = ["index.html", "slides/intro/index.htm", "css/deck.css", "js/app.js"]

    static func fuzz(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let path = paths[Int(input.byte()) % paths.count]
        let chunkSize = input.size()
        _ = FileContentCheck.findings(ofFile: path, input.rest, chunkSize: chunkSize)
    }
}
