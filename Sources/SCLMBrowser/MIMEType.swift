/// The `Content-Type` of a package file, from its extension (what a WebView infers for `file://`).
///
/// No type carries a `charset`: a tablet's WebView (and a plain static server) sends none, so the page's
/// own declarations decide — a `<script charset="windows-1251">` attribute, a BOM, `@charset`, `<meta charset>` —
/// exactly as on the tablet. A forced `charset=utf-8` would override all of them.
enum MIMEType {
    private static let types: [String: String] = [
        "html": "text/html", "htm": "text/html", "css": "text/css", "js": "text/javascript", "mjs": "text/javascript",
        "json": "application/json", "map": "application/json", "xml": "application/xml", "txt": "text/plain",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon", "bmp": "image/bmp",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "eot": "application/vnd.ms-fontobject",
        "mp4": "video/mp4", "m4v": "video/mp4", "webm": "video/webm", "ogv": "video/ogg", "mov": "video/quicktime",
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "ogg": "audio/ogg", "oga": "audio/ogg", "wav": "audio/wav",
        "pdf": "application/pdf", "wasm": "application/wasm", "zip": "application/zip",
    ]

    /// The type for `path` (`application/octet-stream` when the extension is unknown).
    static func of(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "application/octet-stream" }
        return types[path[path.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
