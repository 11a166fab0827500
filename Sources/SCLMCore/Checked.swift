/// A size, offset, count or position that came from outside sclm: a zip's headers, a server's
/// `Content-Length` or `Content-Range`, a resume record, a JSON number, a DevTools message.
///
/// Swift traps on integer overflow, so a plain `+` of two such numbers is a crash an attacker can choose.
/// This type has no arithmetic operators: it offers only operations that return `nil` on overflow (or on
/// a value that does not fit), and every caller turns that `nil` into the error a malformed value gets
/// (`ARCHIVE-CORRUPT` for a zip, a protocol error for a server). `value` reads the number for comparison,
/// display or an API that needs it; combining two of them goes through this type.
package struct Checked<Value: FixedWidthInteger & Sendable>: Sendable, Hashable, Comparable {
    /// The number itself.
    package let value: Value

    /// Wraps a number read from outside.
    package init(_ value: Value) { self.value = value }

    /// Wraps `other` when it fits in `Value` exactly; `nil` when it does not (negative into unsigned, too large).
    package init?(exactly other: some BinaryInteger) {
        guard let value = Value(exactly: other) else { return nil }
        self.value = value
    }

    /// `self + other`, or `nil` when the sum does not fit.
    package func plus(_ other: Self) -> Self? {
        let (sum, overflow) = value.addingReportingOverflow(other.value)
        return overflow ? nil : Self(sum)
    }

    /// `self + other` for any integer `other`, or `nil` when `other` or the sum does not fit.
    package func plus(_ other: some BinaryInteger) -> Self? {
        Self(exactly: other).flatMap(plus)
    }

    /// `self - other`, or `nil` when the difference does not fit (below zero for unsigned values).
    package func minus(_ other: Self) -> Self? {
        let (difference, overflow) = value.subtractingReportingOverflow(other.value)
        return overflow ? nil : Self(difference)
    }

    /// `self - other` for any integer `other`, or `nil` when `other` or the difference does not fit.
    package func minus(_ other: some BinaryInteger) -> Self? {
        Self(exactly: other).flatMap(minus)
    }

    /// `self × other`, or `nil` when the product does not fit.
    package func times(_ other: some BinaryInteger) -> Self? {
        guard let factor = Self(exactly: other) else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: factor.value)
        return overflow ? nil : Self(product)
    }

    /// The number as another integer type, or `nil` when it does not fit there exactly.
    package func exactly<Other: FixedWidthInteger>(_ type: Other.Type = Other.self) -> Other? {
        Other(exactly: value)
    }

    /// The sum of `values`, or `nil` when any partial sum overflows.
    package static func sum(_ values: some Sequence<Self>) -> Self? {
        values.reduce(Self(0) as Self?) { total, next in total?.plus(next) }
    }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.value < rhs.value }
}

extension Checked: CustomStringConvertible {
    package var description: String { String(value) }
}
