/// A package rule: a stable ID, a fixed severity, a class, what it checks and the usual fix.
///
/// IDs never change once published: CI configurations and JUnit reports refer to them. The full catalog is
/// ``all``; docs/validation.md's rule table lists the same rules.
package struct Rule: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The group a rule belongs to, which is also the prefix of its ID.
    package enum Group: String, Sendable, CaseIterable {
        case archive, path, entry, budget, content
        /// What `sclm validate --render` saw when the slides ran in a browser.
        case render

        /// The class of every rule in the group: archive, path, entry-type and budget rules are about
        /// safety, the rest (render rules too) about content.
        package var ruleClass: Class {
            switch self {
            case .archive, .path, .entry, .budget: .safety
            case .content, .render: .content
            }
        }
    }

    /// What breaking a rule means for installing the package.
    ///
    /// Sync never installs a package with a safety error; a content error is stored with the installed
    /// revision and refuses the package only under `sync.contentPolicy refuse`. Validation reports both alike.
    package enum Class: String, Sendable, Hashable, Codable, CaseIterable {
        /// The archive is damaged, escapes its folder, holds links or special entries, breaks a budget or has
        /// names that are ambiguous once unpacked: unpacking it is unsafe.
        case safety
        /// The content is incomplete or unusual (references, swipe targets, the start slide, remote
        /// resources, API usage, HTML, clutter): a tablet still shows it.
        case content
    }

    /// The stable ID, e.g. `PATH-TRAVERSAL`.
    package let id: String
    /// Errors fail validation (and refuse extraction, as ``ruleClass`` and the policy say); warnings are advisory.
    package let severity: Severity
    /// The rule's group.
    package let group: Group
    /// The rule's class, from its group.
    package var ruleClass: Class { group.ruleClass }
    /// What the rule checks, as one sentence.
    package let summary: String
    /// The usual fix, as one line.
    package let fix: String

    init(_ id: String, _ severity: Severity, _ group: Group, _ summary: String, fix: String) {
        self.id = id
        self.severity = severity
        self.group = group
        self.summary = summary
        self.fix = fix
    }

    package var description: String { id }

    package static func == (lhs: Rule, rhs: Rule) -> Bool { lhs.id == rhs.id }
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The rule with `id`, if there is one.
    package static func named(_ id: String) -> Rule? { all.first { $0.id == id } }
}

// MARK: - Catalog

extension Rule {
    /// Every rule, in documentation order.
    package static let all: [Rule] = [
        archiveNotZip, archiveTruncated, archiveCorrupt, archiveCRC, archiveEncrypted, archiveMethod,
        archiveOverlap,
        pathAbsolute, pathTraversal, pathBackslash, pathControlCharacter, pathInvalidUTF8, pathCaseCollision,
        pathDuplicate, pathTooLong,
        entrySymlink, entryHardlink, entryDevice, entrySpecial,
        budgetTotalSize, budgetEntryCount, budgetRatio, budgetDepth, budgetFileSize,
        contentNoIndex, contentSlideNotAtRoot, contentJunk, referenceMissing, referenceCaseMismatch,
        referenceEscapesPackage, referenceRemote, swipeTargetMissing, storyCLMScriptMissing, htmlEmpty,
        htmlUndecodable,
        renderJSError, renderConsoleError, renderLoadFailed, renderRemote, renderBridgeError, renderTimeout,
        renderCrashed, renderNotReached, renderDialog, renderTooLarge,
    ]

    // MARK: Archive

    package static let archiveNotZip = Rule(
        "ARCHIVE-NOT-ZIP", .error, .archive, "The file is not a zip archive.",
        fix: "Publish the .zip your build produces; StoryCLM packages are zip files.")
    package static let archiveTruncated = Rule(
        "ARCHIVE-TRUNCATED", .error, .archive,
        "The zip ends early: its central directory or an entry's data is missing.",
        fix: "Download or build the package again; the file was cut off.")
    package static let archiveCorrupt = Rule(
        "ARCHIVE-CORRUPT", .error, .archive,
        "The zip's structure is damaged: headers disagree or compressed data cannot be decoded.",
        fix: "Re-create the zip with a standard zip tool.")
    package static let archiveCRC = Rule(
        "ARCHIVE-CRC", .error, .archive, "An entry's data does not match its CRC-32 checksum.",
        fix: "Re-create the zip; the stored data is corrupted.")
    package static let archiveEncrypted = Rule(
        "ARCHIVE-ENCRYPTED", .error, .archive, "An entry is encrypted (password-protected).",
        fix: "Zip the package without a password.")
    package static let archiveMethod = Rule(
        "ARCHIVE-METHOD", .error, .archive,
        "An entry uses a compression method other than store or deflate, which players cannot unpack.",
        fix: "Re-create the zip with standard deflate compression.")
    package static let archiveOverlap = Rule(
        "ARCHIVE-OVERLAP", .error, .archive, "Entries overlap inside the zip file (a zip-bomb technique).",
        fix: "Re-create the zip with a standard zip tool.")

    // MARK: Paths

    package static let pathAbsolute = Rule(
        "PATH-ABSOLUTE", .error, .path, "An entry name is an absolute path (`/…` or `C:…`).",
        fix: "Store entry names relative to the package root.")
    package static let pathTraversal = Rule(
        "PATH-TRAVERSAL", .error, .path,
        "An entry name contains a `..` component that can escape the package (zip slip).",
        fix: "Remove `..` from entry names; store them relative to the package root.")
    package static let pathBackslash = Rule(
        "PATH-BACKSLASH", .error, .path,
        "An entry name contains a backslash, which Android and iOS players read as part of the file name.",
        fix: "Re-create the zip with a tool that stores `/` as the folder separator.")
    package static let pathControlCharacter = Rule(
        "PATH-CONTROL-CHAR", .error, .path,
        "An entry name contains a NUL or control character (C0 or C1), a line separator (U+2028, U+2029) or a bidirectional override or isolate (U+202A–U+202E, U+2066–U+2069).",
        fix: "Rename the file using printable characters only.")
    package static let pathInvalidUTF8 = Rule(
        "PATH-INVALID-UTF8", .error, .path,
        "An entry name is not valid UTF-8 (a legacy code page such as CP437 or CP1251).",
        fix: "Re-create the zip with UTF-8 file names (zip on Linux/macOS, or 7-Zip with -mcu=on).")
    package static let pathCaseCollision = Rule(
        "PATH-CASE-COLLISION", .error, .path,
        "Two names differ only in letter case or Unicode normalisation; one overwrites the other on iOS and Windows.",
        fix: "Rename one of them so the names differ in more than case.")
    package static let pathDuplicate = Rule(
        "PATH-DUPLICATE", .error, .path, "A name appears twice, or as both a file and a folder.",
        fix: "Remove the duplicate entry and re-create the zip.")
    package static let pathTooLong = Rule(
        "PATH-TOO-LONG", .error, .path, "An entry name is longer than 1,024 bytes or has a component over 255 bytes.",
        fix: "Shorten the file or folder name.")

    // MARK: Entry types

    package static let entrySymlink = Rule(
        "ENTRY-SYMLINK", .error, .entry, "An entry is a symbolic link.",
        fix: "Replace the link with the file it points to.")
    package static let entryHardlink = Rule(
        "ENTRY-HARDLINK", .error, .entry, "An entry is a hard link or shares its stored data with another entry.",
        fix: "Store every file once, as a regular file.")
    package static let entryDevice = Rule(
        "ENTRY-DEVICE", .error, .entry,
        "An entry is a device, FIFO or socket as the file system (a package folder) or libarchive reports it.",
        fix: "Remove it; packages hold only regular files and folders.")
    package static let entrySpecial = Rule(
        "ENTRY-SPECIAL", .error, .entry,
        "A zip entry's Unix mode declares a FIFO, socket or device, even where libarchive would unpack a regular file.",
        fix: "Re-create the zip from regular files and folders only.")

    // MARK: Budgets

    package static let budgetTotalSize = Rule(
        "BUDGET-TOTAL-SIZE", .error, .budget, "The unpacked package is larger than the total-size budget.",
        fix: "Shrink the media (compress video, resize images) or raise --max-size.")
    package static let budgetEntryCount = Rule(
        "BUDGET-ENTRY-COUNT", .error, .budget, "The package has more entries than the entry-count budget.",
        fix: "Bundle small files together or raise --max-entries.")
    package static let budgetRatio = Rule(
        "BUDGET-RATIO", .error, .budget,
        "An entry expands far more than real content does (a zip bomb): over the compression-ratio budget.",
        fix: "Remove the entry; real content never compresses this well.")
    package static let budgetDepth = Rule(
        "BUDGET-DEPTH", .error, .budget, "An entry is nested deeper than the folder-depth budget.",
        fix: "Flatten the folder structure.")
    package static let budgetFileSize = Rule(
        "BUDGET-FILE-SIZE", .error, .budget, "A single file is larger than the per-file size budget.",
        fix: "Shrink the file (compress video, resize images) or split it.")

    // MARK: Content

    package static let contentNoIndex = Rule(
        "CONTENT-NO-INDEX", .error, .content, "There is no `index.html` (the start slide) at the package root.",
        fix: "Add index.html at the root; zip the presentation folder's contents, not the folder itself.")
    package static let contentSlideNotAtRoot = Rule(
        "CONTENT-SLIDE-NOT-AT-ROOT", .error, .content,
        "A slide (HTML with `clm-swipe-*` or `clm` meta tags) is in a sub-folder; players load slides from the root only.",
        fix: "Move the slide to the package root and update links to it.")
    package static let contentJunk = Rule(
        "CONTENT-JUNK", .warning, .content,
        "Operating-system or version-control clutter is packaged (`__MACOSX`, `.DS_Store`, `Thumbs.db`, `.git`).",
        fix: "Exclude it when zipping (e.g. zip -r pkg.zip . -x '.*' -x '__MACOSX/*').")
    package static let referenceMissing = Rule(
        "REF-MISSING", .error, .content,
        "A local `src`/`href`/`srcset`/`poster`/CSS `url()`/`@import` reference names a file that is not in the package.",
        fix: "Add the missing file or correct the reference.")
    package static let referenceCaseMismatch = Rule(
        "REF-CASE-MISMATCH", .error, .content,
        "A reference matches a packaged file only when letter case is ignored; it breaks on Android and Linux.",
        fix: "Use the file name's exact case in the reference (or rename the file).")
    package static let referenceEscapesPackage = Rule(
        "REF-ESCAPES-PACKAGE", .error, .content,
        "A reference points outside the package (`/abs/path`, `file:`, a drive letter, or too many `../`).",
        fix: "Reference files with paths relative to the referring file, inside the package.")
    package static let referenceRemote = Rule(
        "REF-REMOTE", .warning, .content,
        "A resource is loaded from the network (`http(s)://`); content must work offline on a tablet.",
        fix: "Package the resource and reference it with a relative path.")
    package static let swipeTargetMissing = Rule(
        "SWIPE-TARGET-MISSING", .error, .content,
        "A `clm-swipe-next`/`clm-swipe-previous` meta tag names a slide that is not in the package.",
        fix: "Point the meta tag at an existing slide, or leave its content empty for none.")
    package static let storyCLMScriptMissing = Rule(
        "STORYCLM-JS-MISSING", .error, .content,
        "A page calls `StoryCLM.` or `StoryCLMBridge.` but loads no packaged storyclm.js.",
        fix: "Package storyclm.js and load it with <script src=\"js/storyclm.js\"></script> before your scripts.")
    package static let htmlEmpty = Rule(
        "HTML-EMPTY", .error, .content, "An HTML file is empty or whitespace only.",
        fix: "Add the slide's markup or remove the file.")
    package static let htmlUndecodable = Rule(
        "HTML-UNDECODABLE", .error, .content,
        "An HTML file is not valid UTF-8 and declares no other charset (or is UTF-16), so its text and links cannot be read reliably.",
        fix: "Save the file as UTF-8, or declare its encoding with <meta charset=\"…\">.")

    // MARK: Render (`sclm validate --render`)

    package static let renderJSError = Rule(
        "RENDER-JS-ERROR", .error, .render,
        "A slide threw an uncaught exception (or an unhandled rejection) while it loaded in a browser.",
        fix: "Fix the script at the line shown; reproduce it with `sclm play PACKAGE --slide NAME --fail-on-error`.")
    package static let renderConsoleError = Rule(
        "RENDER-CONSOLE-ERROR", .warning, .render, "A slide wrote to `console.error` while it loaded.",
        fix: "Fix what the message reports, or remove the console.error call.")
    package static let renderLoadFailed = Rule(
        "RENDER-LOAD-FAILED", .error, .render, "A slide requested a file that is not in the package (answered 404).",
        fix: "Add the file to the package or correct the path the script or page builds.")
    package static let renderRemote = Rule(
        "RENDER-REMOTE", .warning, .render,
        "A slide made a network request to another host; it was refused, as on an offline tablet.",
        fix: "Package the resource, or make the slide work without it.")
    package static let renderBridgeError = Rule(
        "RENDER-BRIDGE-ERROR", .warning, .render, "A StoryCLM bridge call of a slide was answered with an error.",
        fix: "Check the command's name and Data against the StoryCLM API (the message names the command and code).")
    package static let renderTimeout = Rule(
        "RENDER-TIMEOUT", .error, .render,
        "A slide was not rendered in time: it did not load, or settle (no requests or bridge calls for a moment) within the render time limit, its script stopped answering (a loop that never yields), or its picture could not be taken; the message names the phase.",
        fix:
            "Make the slide finish loading; stop polling timers or requests that never end; never block the page's script for seconds."
    )
    package static let renderCrashed = Rule(
        "RENDER-CRASHED", .error, .render, "A slide's page crashed (its renderer died) while it was rendered.",
        fix:
            "Open the slide with `sclm play PATH --slide NAME` to reproduce it; look for runaway memory use or media the browser cannot decode."
    )
    package static let renderNotReached = Rule(
        "RENDER-NOT-REACHED", .error, .render,
        "A slide was not rendered: the run was cancelled or the browser exited before it.",
        fix: "Run the render again to completion; if the browser exited, run with --verbose to see why.")
    package static let renderDialog = Rule(
        "RENDER-DIALOG", .warning, .render,
        "A slide opened a dialog (`alert`, `confirm`, `prompt` or `beforeunload`); the render answered it at once (OK, or the prompt's default).",
        fix:
            "Show messages in the slide itself; a dialog stops the presentation on the tablet until someone answers it."
    )
    package static let renderTooLarge = Rule(
        "RENDER-TOO-LARGE", .warning, .render,
        "A slide asked for a file above the render's whole-answer limit (32 MiB) without `Range`; it was answered 413, so the slide saw a failed request.",
        fix: "Make the file smaller, or load it the way media elements do (in `Range` slices).")
}
