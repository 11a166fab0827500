import Foundation
import SCLMCore

/// The one scratch folder of a fuzzing process, where the zip and folder targets put their input; the next
/// process removes it once this one has exited (``ScratchFolder``).
enum FuzzScratch {
    /// The folder, made at first use; `nil` (so the target does nothing) when it cannot be created.
    static let path: String? = try? ScratchFolder.make(prefix: "sclm-fuzz-")
}
