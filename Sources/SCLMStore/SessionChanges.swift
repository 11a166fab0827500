/// What content changes in a session's own fields (storyclm.js 1.x `sessionupdate`); `nil` leaves a field as
/// it is. The fields the host records (presentation, user, times, totals, state) are not among them.
package struct SessionChanges: Sendable, Equatable {
    /// Whether the session was a visit (the v1 session's `visit`).
    package var visit: Int64?
    /// Whether the session was checked in (the v1 session's `checkIn`).
    package var checkIn: Int64?
    /// Whether content declared the presentation fully shown (`complete`; the v1 session's `confirmed`).
    package var confirmed: Bool?

    /// Creates changes; a field left `nil` keeps its stored value.
    package init(visit: Int64? = nil, checkIn: Int64? = nil, confirmed: Bool? = nil) {
        self.visit = visit
        self.checkIn = checkIn
        self.confirmed = confirmed
    }
}
