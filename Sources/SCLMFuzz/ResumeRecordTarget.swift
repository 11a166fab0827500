import Foundation
import SCLMSync

/// A resume record as a later run finds it beside a `.part` file (`ResumeRecord.decode`), then where a
/// download would continue from a part of a size the input chooses.
enum ResumeRecordTarget {
    private static let url = URL(fileURLWithPath: "/blob")

    static func fuzz(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let partSize = Int64(input.byte()) - 1
        guard let record = ResumeRecord.decode(Data(input.rest)) else { return }
        for fileSize in [record.fileSize, partSize, Int64.max] {
            let link = BlobLink(url: url, fileSize: fileSize, blobId: record.blobId)
            for size in [partSize, record.fileSize, nil] {
                _ = DownloadStateMachine.resumePoint(of: .init(size: size, record: record), for: link)
            }
        }
    }
}
