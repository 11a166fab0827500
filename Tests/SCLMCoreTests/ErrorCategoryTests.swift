import SCLMCore
import Testing

@Suite struct ErrorCategoryTests {
    @Test func exitCodesFollowTheCLIContract() {
        let expected: [ErrorCategory: Int32] = [
            .usage: 64, .auth: 77, .network: 69, .temporary: 75, .storage: 74, .archive: 1, .policy: 1,
            .notFound: 1, .noInput: 66, .cancelled: 130, .internal: 70,
        ]
        for category in ErrorCategory.allCases {
            #expect(category.exitCode == expected[category], "\(category)")
        }
    }

    @Test func cancellationAndUnknownErrorsHaveCategories() {
        struct Opaque: Error {}
        #expect(CancellationError().category == .cancelled)
        #expect(Opaque().category == .internal)
        #expect(SCLMError(.auth, "session expired").category == .auth)
    }
}
