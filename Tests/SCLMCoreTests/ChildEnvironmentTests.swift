import SCLMCore
import SCLMTestSupport
import Testing

/// What a program sclm starts may see of sclm's environment: no secret variable, no proxy password.
@Suite(.tags(.small)) struct ChildEnvironmentTests {
    @Test func secretVariablesAreWithheldAndTheRestKept() {
        let environment = ChildEnvironment(
            ["SCLM_PASSWORD": "hunter2", "LANG": "C.UTF-8", "SCLM_API_URL": "https://api.example/", "PATH": "/bin"],
            withholding: ["SCLM_PASSWORD", "SCLM_CLIENT_SECRET"])
        #expect(environment.entries == ["LANG=C.UTF-8", "PATH=/bin", "SCLM_API_URL=https://api.example/"])
    }

    @Test func proxyURLsLoseTheirPasswordButKeepUserHostAndPort() {
        let environment = ChildEnvironment(
            [
                "https_proxy": "http://alice:s3cret@proxy.example:3128",
                "HTTP_PROXY": "http://bob:pa:ss@10.0.0.1:8080/",
                "ALL_PROXY": "socks5h://carol@proxy.example:1080", "no_proxy": "localhost,127.0.0.1",
                "NOTE": "http://dave:kept@example.com",
            ], withholding: [])
        #expect(
            environment.entries == [
                "ALL_PROXY=socks5h://carol@proxy.example:1080", "HTTP_PROXY=http://bob@10.0.0.1:8080/",
                "NOTE=http://dave:kept@example.com", "https_proxy=http://alice@proxy.example:3128",
                "no_proxy=localhost,127.0.0.1",
            ])
    }

    @Test func passwordsAreRemovedFromURLsWherePresentOnly() {
        #expect(URLPasswords.removing(from: "http://user:s3cret@proxy:3128") == "http://user@proxy:3128")
        #expect(URLPasswords.removing(from: "user:s3cret@proxy:3128") == "user@proxy:3128")
        #expect(URLPasswords.removing(from: "https://api.example/v1?a=b@c") == "https://api.example/v1?a=b@c")
        #expect(URLPasswords.removing(from: "http://proxy:3128") == "http://proxy:3128")
    }
}
