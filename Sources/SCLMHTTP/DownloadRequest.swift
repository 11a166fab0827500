/// A download of one resource into a file, possibly continuing a partial one.
///
/// With ``resumeOffset`` N > 0 the file is cut to N bytes and the transport asks for `Range: bytes=N-`;
/// with ``ifRange`` set it also sends `If-Range`, so a server whose resource changed answers 200 with the
/// whole body, which is then written from offset 0 in the same request (``DownloadResult/Outcome/restarted``).
package struct DownloadRequest: Sendable, Equatable {
    /// The GET request (URL, headers, optional total timeout).
    package var request: HTTPRequest
    /// The file to write (created with mode 0600 when missing).
    package var destinationPath: String
    /// Bytes already in the file to keep; 0 downloads from the start.
    package var resumeOffset: Int64
    /// The validator (a strong `ETag`, quoted as the server sent it) that must still match for a 206.
    package var ifRange: String?
    /// The most bytes the file may hold; a larger body aborts the transfer.
    package var maxFileBytes: Int64?

    /// Creates a download request.
    package init(
        _ request: HTTPRequest, to destinationPath: String, resumeOffset: Int64 = 0, ifRange: String? = nil,
        maxFileBytes: Int64? = nil
    ) {
        self.request = request
        self.destinationPath = destinationPath
        self.resumeOffset = resumeOffset
        self.ifRange = ifRange
        self.maxFileBytes = maxFileBytes
    }
}

/// Where a download stands, reported while it runs.
package struct DownloadProgress: Sendable, Equatable {
    /// Bytes in the destination file now.
    package var fileBytes: Int64
    /// The size the file will have when the transfer completes, when the server announced a length.
    package var expectedFileBytes: Int64?
    /// Bytes of body received by this request.
    package var receivedBytes: Int64
    /// The `ETag` of the response being written, so a caller can persist it for a later resume while the
    /// transfer is still running.
    package var entityTag: String?

    /// Creates a progress report.
    package init(fileBytes: Int64, expectedFileBytes: Int64?, receivedBytes: Int64, entityTag: String? = nil) {
        self.fileBytes = fileBytes
        self.expectedFileBytes = expectedFileBytes
        self.receivedBytes = receivedBytes
        self.entityTag = entityTag
    }
}

/// The result of a finished download.
package struct DownloadResult: Sendable, Equatable {
    /// How the server answered.
    package enum Outcome: Sendable, Equatable {
        /// 200 for a download from offset 0: the file holds the whole body.
        case complete
        /// 206: the body continued the file at the requested offset.
        case resumed
        /// 200 although a range was asked for (the resource changed or ranges are unsupported): the file
        /// was cut to zero and now holds the whole body.
        case restarted
        /// 416: nothing to send from that offset; `size` is the resource size from `Content-Range: bytes */N`.
        /// When it equals the file's size the file is already complete. The file is left untouched.
        case rangeNotSatisfiable(size: Int64?)
    }

    /// How the server answered.
    package var outcome: Outcome
    /// The final status (200, 206 or 416).
    package var status: Int
    /// The final response's header fields.
    package var headers: HTTPHeaders
    /// The size of the destination file after the transfer.
    package var fileBytes: Int64
    /// Body bytes received by this request.
    package var receivedBytes: Int64

    /// Creates a result.
    package init(outcome: Outcome, status: Int, headers: HTTPHeaders, fileBytes: Int64, receivedBytes: Int64) {
        self.outcome = outcome
        self.status = status
        self.headers = headers
        self.fileBytes = fileBytes
        self.receivedBytes = receivedBytes
    }

    /// The resource's `ETag`, to pass as ``DownloadRequest/ifRange`` when resuming later.
    package var entityTag: String? { headers["ETag"] }
}
