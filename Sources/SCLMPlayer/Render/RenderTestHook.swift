import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test hook that crashes the page of named slides once they load (`Page.crash`), so the end-to-end tests
/// can check that a crashed slide is reported `RENDER-CRASHED` and the run goes on (docs/development.md).
///
/// Compiled into debug builds only, and inert unless `SCLM_DEBUG_CRASH_SLIDES` names slides (comma-separated
/// package paths, `crash.html,b/c.html`).
enum RenderTestHook {
    /// The slides whose page is crashed once loaded; always empty in a release build.
    static let crashingSlides: Set<String> = {
        #if DEBUG
            guard let value = getenv("SCLM_DEBUG_CRASH_SLIDES") else { return [] }
            return Set(String(cString: value).split(separator: ",").map(String.init))
        #else
            return []
        #endif
    }()
}
