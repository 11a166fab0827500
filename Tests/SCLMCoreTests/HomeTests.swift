import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

@Suite struct HomeTests {
    @Test func explicitHomeWinsOverEnvironmentAndXDG() {
        let environment = ["SCLM_HOME": "/env/home", "XDG_DATA_HOME": "/xdg", "HOME": "/users/me"]
        #expect(Home.resolve(explicit: "/flag", environment: environment).root == "/flag")
        #expect(Home.resolve(explicit: nil, environment: environment).root == "/env/home")
        #expect(Home.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/xdg"]).root == "/xdg/sclm")
        #expect(Home.resolve(explicit: nil, environment: ["HOME": "/users/me"]).root == "/users/me/.local/share/sclm")
    }

    @Test func prepareCreatesFoldersWithMode0700AndTightensAnExistingHome() throws {
        let folder = TemporaryDirectory()
        let home = Home(root: folder.appending("home"))
        try FileSystem.makeDirectory(home.root, mode: 0o755)
        try home.prepare()
        for path in [home.root, home.contentDirectory, home.cacheDirectory, home.lockDirectory] {
            #expect(FileSystem.mode(of: path) == 0o700, "\(path)")
        }
    }

    @Test func contentPathsFollowTheStoryContentLayout() {
        let home = Home(root: "/h")
        #expect(home.sourcesDirectory(clientId: 3, presentationId: 17) == "/h/content/3/17/sources")
    }

    @Test func prepareFailsClearlyWhenAFileIsInTheWay() throws {
        let folder = TemporaryDirectory()
        try folder.write("x", to: "home")
        let error = #expect(throws: SCLMError.self) { try Home(root: folder.appending("home")).prepare() }
        #expect(error?.category == .storage)
    }
}
