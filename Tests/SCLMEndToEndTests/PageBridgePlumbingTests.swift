import Foundation
import SCLMCore
import SCLMTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ChromiumTests {
    /// The page bridge runs in-process: while a deck plays, sclm holds no pipe but the browser's and runs
    /// no thread of the bridge's own.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct PageBridgePlumbingTests {
        /// The pipes (beyond stdin, stdout and stderr) and the thread names of process `pid`.
        struct Plumbing: Sendable {
            let pipes: [String]
            let threads: [String]

            init(of pid: Int32) {
                let files = FileManager.default
                let descriptors = (try? files.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
                pipes = descriptors.compactMap(Int32.init).filter { $0 > 2 }.sorted().compactMap { fd in
                    let target = try? files.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")
                    return target?.hasPrefix("pipe:") == true ? "\(fd) \(target ?? "")" : nil
                }
                threads = ((try? files.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).compactMap { task in
                    (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                }
            }
        }

        @Test func aPlayingDeckCostsNoPipeOrThreadBeyondTheBrowsers() async throws {
            let play = try PlayTests.PlayHome(
                DeckFiles.librarySlide("StoryCLM.CustomEvents.Set('ready', 'yes', function () {});"))
            let process = try ProcessRunner.startSclm(
                [
                    "--home", play.home.root, "play", "--presentation", String(play.fixture.presentationId),
                    "--headless",
                ])
            let (database, pid) = (play.home.databasePath, process.pid)
            let seen = Mutex<Plumbing?>(nil)
            let ready = await process.send(
                SIGINT,
                when: {
                    guard
                        (try? ProcessRunner.sql("SELECT value FROM custom_events", in: database)) == #"[["yes"]]"#
                    else { return false }
                    seen.withLock { $0 = Plumbing(of: pid) }
                    return true
                }, timeout: 30)
            #expect(ready)
            let result = await process.result(timeout: 20)
            #expect(result.status == 130, "\(result)")
            let plumbing = try #require(seen.withLock { $0 })
            // The browser's command, message and log pipes; the page's messages and answers use none.
            #expect(plumbing.pipes.count == 3, "\(plumbing.pipes)")
            let bridgeThreads = plumbing.threads.filter {
                $0.hasPrefix("sclm-page") || $0.hasPrefix("sclm-bridge") || $0.hasPrefix("sclm-line")
            }
            #expect(bridgeThreads.isEmpty, "\(plumbing.threads)")
            #expect(plumbing.threads.contains { $0.hasPrefix("sclm-devtools") }, "\(plumbing.threads)")
        }
    }
}
