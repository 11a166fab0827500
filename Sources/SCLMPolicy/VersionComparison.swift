/// OSAM 3.2's dotted version comparison (`utils/Helpers.kt` `compareVersions`), used by the OS-version filter.
package enum VersionComparison {
    /// Compares two dotted versions component by component; a missing component counts as 0.
    ///
    /// Kept exactly as OSAM does it (quirk Q10): if **any** component of either side is not an integer
    /// (`"17.4 beta"`, `"17.x"`, `""`), the versions compare as equal.
    ///
    /// - Returns: a negative number when `lhs < rhs`, 0 when equal, a positive number when `lhs > rhs`.
    package static func compare(_ lhs: String, _ rhs: String) -> Int {
        guard let left = components(lhs), let right = components(rhs) else { return 0 }
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            if a != b { return a < b ? -1 : 1 }
        }
        return 0
    }

    private static func components(_ version: String) -> [Int]? {
        var result: [Int] = []
        for part in version.split(separator: ".", omittingEmptySubsequences: false) {
            guard let number = Int(part) else { return nil }
            result.append(number)
        }
        return result
    }
}
