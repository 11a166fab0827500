/// What the content of one presentation may read back from the store: the presentations of its own
/// client, and the sessions and custom events of those presentations — under a password login only the
/// sessions that user recorded.
///
/// The bridge builds one scope from the presentation it starts with and reads presentations, sessions and
/// custom events only through the queries that take it (``Database/storedPresentation(id:in:)``,
/// ``Database/installedPresentations(in:)``, ``Database/sessions(in:)``, ``Database/session(id:in:)``,
/// ``Database/customEvents(sessionId:presentationId:in:)``), so content of one client never sees another
/// client's data, whichever command it uses.
package struct ContentScope: Sendable, Equatable {
    /// Whose sessions are visible.
    package enum SessionOwners: Sendable, Equatable {
        /// Every user's (no login, or a service login).
        case everyone
        /// Only those recorded by this user (a password login; `nil` is a login without a subject).
        case user(String?)
    }

    /// The client whose presentations are visible.
    package var clientId: Int64
    /// Whose sessions are visible.
    package var sessionOwners: SessionOwners

    /// Creates a scope.
    package init(clientId: Int64, sessionOwners: SessionOwners) {
        self.clientId = clientId
        self.sessionOwners = sessionOwners
    }
}
