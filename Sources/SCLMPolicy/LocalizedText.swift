/// A text in the three OSAM languages, as the backend sends it (`{"es":…,"en":…,"ca":…}`).
public struct LocalizedText: Sendable, Equatable, Codable {
    /// Catalan.
    public var ca: String
    /// Spanish.
    public var es: String
    /// English.
    public var en: String

    /// Creates a text from its three translations.
    public init(ca: String, es: String, en: String) {
        self.ca = ca
        self.es = es
        self.en = en
    }

    /// The same text in every language.
    public init(_ text: String) {
        self.init(ca: text, es: text, en: text)
    }

    /// The translation for `language`.
    public subscript(language: Language) -> String {
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
