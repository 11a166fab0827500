/// Texts sclm supplies itself: the checkbox label and the defaults for texts a record leaves out.
package enum AlertTexts {
    /// The "don't show again" label, which OSAM never takes from the backend.
    package static let checkboxLabel = LocalizedText(
        ca: "No mostrar de nou", es: "No mostrar de nuevo", en: "Don't show again")
    /// The title used when a response has none (ALVersionControl sends only a message); OSAM's own default.
    package static let defaultTitle = LocalizedText(ca: "Actualitza't!", es: "¡Actualízate!", en: "Update it!")
    /// The OK button label when a record leaves `ok` out (the README calls it optional).
    package static let defaultOK = LocalizedText(ca: "D'acord", es: "Aceptar", en: "OK")
    /// The Cancel button label when a record leaves `cancel` out.
    package static let defaultCancel = LocalizedText(ca: "Cancel·lar", es: "Cancelar", en: "Cancel")
}

extension AlertTexts {
    /// The message used when an ALVersionControl response has none.
    package static let defaultMessage = LocalizedText(
        ca: "Hi ha una versió nova disponible.", es: "Nueva versión disponible.", en: "A new version is available.")
}
