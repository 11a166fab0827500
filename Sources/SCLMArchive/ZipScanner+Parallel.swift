import Dispatch
import Synchronization

extension ZipScanner {
    /// What one worker leaves behind: its journal, its bytes, its sink (to absorb), the error it threw.
    private struct WorkerOutcome<Sink: PackageSink>: Sendable {
        var journal: [JournalEntry] = []
        var byteCount: Int64 = 0
        var sink: Sink
        var error: (any Error)?
    }

    /// Reads the entries with `workers` libarchive readers at once, each over its own view of the file
    /// behind `fd` (``ZipView``: `pread`, a position of its own) and its own share of the entries, then replays what they found into `scan` in
    /// entry order (``PackageScan/merge(_:stopsAtFirstError:)``), so the findings are those of one thread.
    ///
    /// The workers share one byte budget and one stop mark (``SharedBudget``) and the cancellation flag; a
    /// worker that fails stops the others. Memory per worker is one reader, one block and one analyser.
    ///
    /// - Throws: the first error a worker threw (in share order), after every worker has ended and its
    ///   sink has been absorbed into `sink`.
    func readInParallel<Sink: PackageSink>(
        fd: Int32, directory: ZipDirectory, workers: Int, skipping refused: Set<String>,
        checksums: EntryChecksums, into scan: inout PackageScan, sink: inout Sink
    ) throws {
        let shares = ParallelPlan.shares(of: directory, count: workers)
        let shared = SharedBudget()
        var sinks: [Sink] = []
        do {
            for _ in 0..<workers { sinks.append(try sink.makeWorker()) }
        } catch {
            for index in sinks.indices { sink.absorb(&sinks[index]) }
            throw error
        }
        let starting = sinks
        let declared = scan.declaredBytes
        let ended = Mutex<[WorkerOutcome<Sink>?]>(Array(repeating: nil, count: workers))
        DispatchQueue.concurrentPerform(iterations: workers) { index in
            let outcome = runWorker(
                fd: fd, endRecordOffset: directory.endRecordOffset, share: shares[index], shared: shared,
                declared: declared, skipping: refused, checksums: checksums, sink: starting[index])
            ended.withLock { $0[index] = outcome }
        }
        var outcomes = ended.withLock { $0.compactMap { $0 } }
        for index in outcomes.indices { sink.absorb(&outcomes[index].sink) }
        if let error = outcomes.lazy.compactMap(\.error).first { throw error }
        scan.merge(outcomes.map(\.journal), stopsAtFirstError: sink.stopsAtFirstError)
        scan.addBytes(outcomes.reduce(0) { $0 + $1.byteCount })
    }

    /// One worker: reads its share into a journaled scan; `declared` is the package's declared size, for
    /// progress.
    private func runWorker<Sink: PackageSink>(
        fd: Int32, endRecordOffset: UInt64, share: Range<Int>, shared: SharedBudget, declared: Int64,
        skipping refused: Set<String>, checksums: EntryChecksums, sink: Sink
    ) -> WorkerOutcome<Sink> {
        ParallelPlan.noteWorkerStart()
        var outcome = WorkerOutcome(sink: sink)
        var scan = PackageScan(workerOf: policy, shared: shared)
        scan.declaredBytes = declared  // what progress reports as expected
        do {
            try readEntries(
                fd: fd, endRecordOffset: endRecordOffset, share: share, skipping: refused, checksums: checksums,
                into: &scan, sink: &outcome.sink)
        } catch {
            shared.stop(at: -1)
            outcome.error = error
        }
        outcome.journal = scan.journal ?? []
        outcome.byteCount = scan.byteCount
        return outcome
    }
}
