/// One thing a worker recorded while reading its share of a package, tagged with the entry's position.
struct JournalEntry {
    /// What was recorded.
    enum Event {
        case finding(Finding)
        case name(String, isDirectory: Bool)
        case file(FileFacts)
        /// The worker stopped the package here (a bomb, a fatal archive error).
        case stop
    }

    /// The entry's position in libarchive's order.
    let entry: Int
    let event: Event
}

extension PackageScan {
    /// Replays the journals of a parallel pass in entry order, as one thread would have met them: the
    /// names meet in one content index, and the replay ends after the entry where one thread would have
    /// stopped (a stop a worker recorded, or the first refusing error when `stopsAtFirstError`), so what
    /// other workers read beyond it is dropped.
    mutating func merge(_ journals: [[JournalEntry]], stopsAtFirstError: Bool) {
        let ordered = journals.joined().enumerated().sorted {
            ($0.element.entry, $0.offset) < ($1.element.entry, $1.offset)
        }
        var current = ordered.first?.element.entry ?? 0
        for (_, item) in ordered {
            if item.entry != current {
                if shouldStop(stopsAtFirstError: stopsAtFirstError) { return }
                current = item.entry
            }
            replay(item.event)
        }
        _ = shouldStop(stopsAtFirstError: stopsAtFirstError)
    }

    private mutating func replay(_ event: JournalEntry.Event) {
        switch event {
        case .finding(let finding): report(finding)
        case .name(let path, let isDirectory): index(path, isDirectory: isDirectory)
        case .file(let facts): add(facts)
        case .stop: isStopped = true
        }
    }
}
