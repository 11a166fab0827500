/// What a content error does to an extraction (the `sync.contentPolicy` setting).
///
/// Safety errors always refuse a package. Content errors — a missing font or image, a dangling swipe
/// target, no `index.html` — are common in real packages that tablets show anyway, so by default they are
/// kept as findings of the installed package; ``refuse`` makes them refuse it like a safety error.
package enum ContentPolicy: String, Sendable, Hashable, CaseIterable {
    /// Install the package and keep its content errors as findings (the default).
    case install
    /// Refuse a package with a content error; the previous revision stays.
    case refuse
}
