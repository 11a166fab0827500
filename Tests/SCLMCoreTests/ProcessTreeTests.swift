import Foundation
import SCLMTestSupport
import Testing

@testable import SCLMCore

/// The process tree and memory figures of the player's `sclm_play_browser_pss_bytes`.
struct ProcessTreeTests {
    @Test func theParentIsReadAfterACommandNameWithSpacesAndParentheses() {
        #expect(ProcessTree.parent(inStat: "4242 (a (b) c) S 17 4242 4242 0 -1") == 17)
        #expect(ProcessTree.parent(inStat: "garbage") == nil)
    }

    @Test func descendantsAreFoundThroughEveryGeneration() {
        let parents: [pid_t: pid_t] = [10: 1, 11: 10, 12: 11, 13: 10, 20: 1]
        #expect(ProcessTree.descendants(of: 10, parents: parents) == [10, 11, 13, 12])
    }

    @Test func thePssLineIsReadInBytes() {
        let rollup = "00400000-7fff [rollup]\nRss:     2048 kB\nPss:     1500 kB\nPss_Anon: 900 kB\n"
        #expect(ProcessTree.proportionalSetSize(inRollup: rollup) == 1500 * 1024)
        #expect(ProcessTree.proportionalSetSize(inRollup: "Rss: 1 kB\n") == nil)
    }

    @Test func aRunningChildIsInTheTreeAndItsMemoryCounted() throws {
        let child = try ProcessRunner.start("/bin/sleep", ["30"])
        defer { child.send(SIGKILL) }
        let tree = ProcessTree(root: getpid())
        #expect(tree.members.first == getpid())
        #expect(tree.members.contains(child.pid))
        #expect(tree.proportionalSetSize > ProcessTree(root: child.pid).proportionalSetSize)
    }
}
