/// A text in the three OSAM languages, as the backend sends it (`{"es":…,"en":…,"ca":…}`).
package struct LocalizedText: Sendable, Equatable, Codable {
    /// Catalan.
    package var ca: String
    /// Spanish.
    package var es: String
    /// English.
    package var en: String

    /// Creates a text from its three translations.
    package init(ca: String, es: String, en: String) {
        self.ca = ca
        self.es = es
        self.en = en
    }

    /// The same text in every language.
    package init(_ text: String) {
        self.init(ca: text, es: text, en: text)
    }

    /// The translation for `language`.
    package subscript(language: Language) -> String {
        get {
            switch language {
            case .ca: ca
            case .es: es
            case .en: en
            }
        }
        set {
            switch language {
            case .ca: ca = newValue
            case .es: es = newValue
            case .en: en = newValue
            }
        }
    }
}
