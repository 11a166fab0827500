/// The alert a headless host should show: the mode, texts in one language, buttons, checkbox and URL.
package struct VersionAlert: Sendable, Equatable, Codable {
    /// FORCE, LAZY or INFO.
    package var mode: ComparisonMode
    /// The language of the texts.
    package var language: Language
    /// Title.
    package var title: String
    /// Message.
    package var message: String
    /// The OK button label.
    package var ok: String
    /// The Cancel button label; LAZY alerts only.
    package var cancel: String?
    /// The URL OK opens (FORCE and LAZY); `nil` for INFO or when the record has none.
    package var url: String?
    /// Whether the "don't show again" checkbox is offered (LAZY and INFO, when the record asks for it).
    package var checkbox: Bool
    /// The checkbox label in ``language`` when ``checkbox`` is true.
    package var checkboxLabel: String?
    /// Whether any answer disarms the alert until the record changes (ALVersionControl "optional").
    package var showsOnce: Bool

    /// The alert for `record` (whose mode must not be NONE) in `language`.
    package init(record: VersionRecord, language: Language) {
        mode = record.mode
        self.language = language
        title = record.title[language]
        message = record.message[language]
        ok = record.ok[language]
        cancel = record.mode == .lazy ? record.cancel[language] : nil
        url = record.mode == .info || record.url.isEmpty ? nil : record.url
        checkbox = record.mode != .force && record.isCheckboxVisible
        checkboxLabel = checkbox ? AlertTexts.checkboxLabel[language] : nil
        showsOnce = record.showsOnce
    }
}
