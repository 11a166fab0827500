import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Facts about the Linux system sclm runs on, as content (`getAppInfo`) and OSAM (`deviceInformation`)
/// report them: os-release(5) and uname(2).
package enum SystemFacts {
    /// The `KEY=value` pairs of `path`, else `/etc/os-release`, else `/usr/lib/os-release` (empty when unreadable).
    package static func osRelease(path: String? = nil) -> [String: String] {
        let candidates = path.map { [$0] } ?? ["/etc/os-release", "/usr/lib/os-release"]
        for candidate in candidates {
            if let text = try? String(contentsOfFile: candidate, encoding: .utf8) { return parseOSRelease(text) }
        }
        return [:]
    }

    /// The `KEY=value` lines of an os-release(5) text, surrounding quotes removed; comments skipped.
    package static func parseOSRelease(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            var value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            values[String(trimmed[..<equals])] = value
        }
        return values
    }

    /// The device model: the DMI product name, unless it is missing or a placeholder some firmware reports
    /// (`None`, `To be filled by O.E.M.`, `System Product Name`, `Default string`), else `machine`.
    package static func model(productName: String? = SystemFacts.productName, machine: String = SystemFacts.machine)
        -> String
    {
        let product = productName?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let placeholders: Set<String> = ["", "None", "To be filled by O.E.M.", "System Product Name", "Default string"]
        return placeholders.contains(product) ? machine : product
    }

    /// The language code of the first locale set in `LC_ALL`, `LC_MESSAGES`, `LANG` (`ca_ES.UTF-8` → `ca`),
    /// or `nil` when none is set or it is `C`/`POSIX`.
    package static func language(environment: [String: String]) -> String? {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let code = locale.prefix { $0.isLetter }
        return code.isEmpty || code == "C" || code == "POSIX" ? nil : code.lowercased()
    }

    /// The DMI product name as the firmware reports it (`/sys/class/dmi/id/product_name`), if readable.
    package static var productName: String? {
        try? String(contentsOfFile: "/sys/class/dmi/id/product_name", encoding: .utf8)
    }

    /// The hardware name from uname(2), e.g. `x86_64`.
    package static var machine: String { unameField(\.machine) }

    /// The kernel release from uname(2), e.g. `6.1.0-18-amd64`.
    package static var kernelRelease: String { unameField(\.release) }

    private static func unameField<Field>(_ field: WritableKeyPath<utsname, Field>) -> String {
        var names = utsname()
        guard uname(&names) == 0 else { return "" }
        return withUnsafeBytes(of: &names[keyPath: field]) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
