import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// Every StoryCLM command through the built `sclm bridge`, with the data shapes of
/// the StoryCLM commands of docs/bridge.md, plus navigation history and sessions as StoryContent keeps them.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct BridgeCommandsTests {
    static let second = InstalledPresentationFixture(
        presentationId: 20, name: "Second deck", order: 5,
        slides: [.init("index.html"), .init("intro.html")], mediaFiles: [])

    @Test func baseCommandsAnswerStoryCLMShapes() async throws {
        let bridge = try await BridgeSession(
            fixtures: [InstalledPresentationFixture()], environment: ["LANG": "ru_RU.UTF-8"], login: true)
        let app = try #require(await bridge.data("getAppInfo") as? [String: Any])
        #expect(app["os"] as? String == "Linux")
        #expect(app["localization"] as? String == "ru")
        #expect(app["appVersion"] as? String == SCLMVersion.current)
        for key in ["osVersion", "device", "appName"] { #expect(app[key] is String, "\(key)") }
        let user = try #require(await bridge.data("getUserInfo") as? [String: String])
        #expect(user == ["id": "user-42", "username": "anna@example.com"])
        #expect(await bridge.data("getNavigationData") as? [String: Any] != nil)
        #expect(
            await bridge.call("go", ["slideName": "slide1.html", "data": ["test": "test"]])?["ErrorCode"] as? Int == 200
        )
        #expect(await bridge.data("getNavigationData") as? [String: String] == ["test": "test"])
        #expect(await bridge.call("go", ["slideName": "nope.html"])?["ErrorCode"] as? Int == 404)
        #expect(await bridge.call("go", ["slideName": "../secret.html"])?["ErrorCode"] as? Int == 400)
        #expect(await bridge.call("go", [:])?["ErrorCode"] as? Int == 400)
        #expect(await bridge.process.finish() == 0)
    }

    @Test func geoLocationComesFromConfigurationWithStoryCLMsSpelling() async throws {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        try InstalledPresentationFixture().install(in: Home(root: home))
        for (key, value) in [
            ("bridge.latitude", "45.01741"), ("bridge.longitude", "41.8989"), ("bridge.address", "Stavropol"),
        ] {
            #expect(try await ProcessRunner.sclm(["config", "set", key, value], home: home).status == 0)
        }
        let process = try BridgeProcess(sclm: ["bridge", "--presentation", "10"], home: home)
        process.send(#"{"Command":"getGeoLocationInfo","GUID":"geo"}"#)
        let data = try #require(await process.response(to: "geo")?["Data"] as? [String: String])
        #expect(data["latitude"] == "45.01741")
        #expect(data["longtitude"] == "41.8989")
        #expect(data["longitude"] == "41.8989")
        #expect(data["address"] == "Stavropol")
        #expect(await process.finish() == 0)
    }

    @Test func navigationHistoryFollowsGoAndTheMap() async throws {
        let bridge = try await BridgeSession()
        #expect(await bridge.data("getPreviousSlide") == nil)
        #expect(await bridge.call("getPreviousSlide")?["ErrorMessage"] as? String == "No previous slide")
        #expect((await bridge.data("getNextSlide") as? [String: String])?["slide"] == "slide1.html")
        #expect(await bridge.call("go", ["slideName": "slide2.html"])?["ErrorCode"] as? Int == 200)
        let changed = try #require(await bridge.process.event("slideChanged")?["Data"] as? [String: String])
        #expect(changed == ["slide": "slide2.html", "previous": "index.html"])
        #expect((await bridge.data("getPreviousSlide") as? [String: String])?["slide"] == "slide1.html")
        #expect(await bridge.call("getNextSlide")?["ErrorCode"] as? Int == 404)
        #expect(await bridge.call("go", ["slideName": "slide1.html"])?["ErrorCode"] as? Int == 200)
        #expect((await bridge.data("getCurrentSlideName") as? [String: String])?["slide"] == "slide1.html")
        #expect(await bridge.data("getBackForwardList") as? [String] == ["index.html", "slide2.html", "slide1.html"])
        let map = try #require(await bridge.data("getMap") as? [String: [String]])
        #expect(map["index.html"] == ["slide1.html", "slide2.html"])
        #expect(map["slide2.html"] == ["index.html"])
        #expect(await bridge.process.finish() == 0)
    }

    @Test func presentationCommandsOpenAnotherPresentationAndKeepItsHistory() async throws {
        let bridge = try await BridgeSession(fixtures: [InstalledPresentationFixture(), Self.second])
        let info = try #require(await bridge.data("getPresentationInfo") as? [String: Any])
        #expect(info["presentationId"] as? Int == 10)
        #expect(info["name"] as? String == "Demo deck")
        #expect(info["revision"] as? Int == 3)
        #expect(info["slidesCount"] as? Int == 3)
        #expect(info["mediaFilesCount"] as? Int == 1)
        for key in ["status", "order"] { #expect(info[key] is Int, "\(key)") }
        for key in ["shortdescription", "shortDescription", "longDescription"] {
            #expect(info[key] is String, "\(key)")
        }
        let presentations = try #require(await bridge.data("getPresentations") as? [[String: Any]])
        #expect(presentations.map { $0["presId"] as? Int } == [20, 10])
        #expect(presentations.map { $0["name"] as? String } == ["Second deck", "Demo deck"])
        #expect(await bridge.call("open", ["presId": 99, "slideName": "", "data": [:]])?["ErrorCode"] as? Int == 404)
        #expect(await bridge.call("open", ["slideName": "x.html"])?["ErrorCode"] as? Int == 400)
        #expect(
            await bridge.call("open", ["presId": "20", "slideName": "intro.html", "data": ["from": "10"]])?["ErrorCode"]
                as? Int == 200)
        let closed = try #require(await bridge.process.event("presentationClosed")?["Data"] as? [String: Any])
        #expect(closed["presId"] as? Int == 10)
        #expect(closed["state"] as? Int == 3)
        let opened = try #require(await bridge.process.event("presentationOpened")?["Data"] as? [String: Any])
        #expect(opened["presId"] as? Int == 20)
        #expect(opened["slide"] as? String == "intro.html")
        #expect((await bridge.data("getCurrentSlideName") as? [String: String])?["slide"] == "intro.html")
        #expect(await bridge.data("getNavigationData") as? [String: String] == ["from": "10"])
        let history = try #require(await bridge.data("getBackForwardPresList") as? [[String: Any]])
        #expect(history.map { $0["presId"] as? Int } == [10, 20])
        #expect(history.map { $0["name"] as? String } == ["Demo deck", "Second deck"])
        #expect(await bridge.process.finish() == 0)
    }

    @Test func uiMediaAndMapButtonsEmitUIChanged() async throws {
        let bridge = try await BridgeSession()
        for command in [
            "hideCloseBtn", "hideSystemBtns", "hideMediaLibraryBtn", "showMediaLibraryBtn", "hideMapBtn", "showMapBtn",
        ] {
            #expect(await bridge.call(command)?["ErrorCode"] as? Int == 200, "\(command)")
            let event = try #require(await bridge.process.event("uiChanged")?["Data"] as? [String: Any], "\(command)")
            #expect(event["command"] as? String == command)
        }
        bridge.process.send(json: ["Command": "hideCloseBtn", "GUID": "ui-last"])
        _ = await bridge.process.response(to: "ui-last")
        let flags = try #require(await bridge.process.event("uiChanged")?["Data"] as? [String: Any])
        #expect(flags["closeButtonHidden"] as? Bool == true)
        #expect(flags["systemButtonsHidden"] as? Bool == true)
        #expect(flags["mediaLibraryButtonHidden"] as? Bool == false)
        #expect(flags["mapButtonHidden"] as? Bool == false)
        #expect(await bridge.process.finish() == 0)
    }

    @Test func mediaFilesOpenOnlyInsideThePresentation() async throws {
        let bridge = try await BridgeSession()
        let outside = bridge.folder.appending("secret.pdf")
        try Data("secret".utf8).write(to: URL(fileURLWithPath: outside))
        let sources = bridge.fixture.sourcesDirectory(in: bridge.home)
        try FileManager.default.createSymbolicLink(
            atPath: sources + "/mediafiles/link.pdf", withDestinationPath: outside)
        #expect(
            await bridge.data("getMediaFiles") as? [[String: String]] == [
                ["title": "Brochure", "fileName": "brochure.pdf"]
            ])
        let opened = try #require(await bridge.call("openMediaFile", ["id": -1, "name": "brochure.pdf"]))
        #expect(opened["Data"] as? [String: String] == ["name": "brochure.pdf", "status": "close"])
        let event = try #require(await bridge.process.event("mediaFileOpened")?["Data"] as? [String: Any])
        #expect((event["path"] as? String)?.hasSuffix("/sources/mediafiles/brochure.pdf") == true)
        #expect(event["mimeType"] as? String == "application/pdf")
        #expect(
            await bridge.call("openMediaFile", ["id": 10, "name": "../../../../secret.pdf"])?["ErrorCode"] as? Int
                == 403)
        #expect(await bridge.call("openMediaFile", ["id": -1, "name": outside])?["ErrorCode"] as? Int == 403)
        #expect(await bridge.call("openMediaFile", ["id": -1, "name": "link.pdf"])?["ErrorCode"] as? Int == 404)
        #expect(await bridge.call("openMediaFile", ["id": -1, "name": "missing.pdf"])?["ErrorCode"] as? Int == 404)
        #expect(await bridge.call("openMediaFile", ["id": -1])?["ErrorMessage"] as? String != nil)
        #expect(await bridge.call("openMediaFile", ["id": -1])?["ErrorCode"] as? Int == 400)
        let library = try #require(await bridge.call("openMediaLibrary "))
        #expect(library["Data"] as? [String: String] == ["status": "close"])
        #expect(await bridge.process.event("mediaLibraryOpened") != nil)
        #expect(await bridge.process.finish() == 0)
    }

    @Test func customEventsAreValidatedStoredAndReadBack() async throws {
        let bridge = try await BridgeSession()
        let set = try #require(
            await bridge.call("setCustomEvent", ["key": "specialnost", "value": "Участковый педиатр"]))
        #expect(set["Data"] as? [String: String] == ["specialnost": "Участковый педиатр"])
        #expect(await bridge.call("setEventKey", ["key": "childs", "value": 16])?["ErrorCode"] as? Int == 200)
        #expect(await bridge.call("setCustomEvent", ["key": "childs", "value": "17"])?["ErrorCode"] as? Int == 200)
        #expect(await bridge.data("getCustomEventByKey", ["key": "childs"]) as? [String: String] == ["value": "17"])
        let object = try #require(
            await bridge.data("getCustomEventsObject", ["sessionId": "", "contentId": ""]) as? [String: String])
        #expect(object == ["specialnost": "Участковый педиатр", "childs": "17"])
        #expect(
            await bridge.data("deleteCustomEventByKey", ["key": "childs"]) as? [String: String] == ["key": "childs"])
        #expect(await bridge.call("getCustomEventByKey", ["key": "childs"])?["ErrorCode"] as? Int == 404)
        for (key, value) in [
            ("bad key", "v"), ("", "v"), ("ключ", "<script>"), (String(repeating: "k", count: 129), "v"),
        ] {
            #expect(
                await bridge.call("setCustomEvent", ["key": key, "value": value])?["ErrorCode"] as? Int == 400, "\(key)"
            )
        }
        #expect(
            await bridge.call("setCustomEvent", ["key": "note", "value": "a@b.c #1: x; y, z."])?["ErrorCode"] as? Int
                == 200)
        let sessionId = try #require(bridge.opened["Data"].flatMap { ($0 as? [String: Any])?["sessionId"] as? String })
        let byId = try #require(
            await bridge.data("getCustomEventsObject", ["sessionId": sessionId, "contentId": "10"]) as? [String: String]
        )
        #expect(byId["specialnost"] == "Участковый педиатр")
        #expect(await bridge.process.finish() == 0)
        #expect(try bridge.sql("SELECT count(*) FROM custom_events WHERE key = 'specialnost'") == "[[1]]")
    }

    @Test func aSessionIsCompletedByClosePresentation() async throws {
        let bridge = try await BridgeSession(login: true)
        #expect(await bridge.call("go", ["slideName": "slide1.html"])?["ErrorCode"] as? Int == 200)
        #expect(await bridge.call("setSessionComplete")?["ErrorCode"] as? Int == 200)
        let current = try #require(await bridge.data("getCurrentSession") as? [String: Any])
        let alias = try #require(await bridge.data("getCurrentSessions") as? [String: Any])
        #expect(current["sessionId"] as? String == alias["sessionId"] as? String)
        #expect(current["presentationId"] as? String == "10")
        #expect(current["userId"] as? String == "user-42")
        #expect(current["state"] as? Int == 0)
        #expect(current["complete"] as? Bool == true)
        #expect(current["slidesCount"] as? Int == 1)
        let slides = try #require(current["slides"] as? [[String: Any]])
        #expect(slides.map { $0["name"] as? String } == ["index.html"])
        for key in ["id", "duration", "created"] { #expect(slides.first?[key] != nil, "\(key)") }
        for key in ["created", "timeZone", "latitude", "longitude", "duration"] {
            #expect(current[key] != nil, "\(key)")
        }
        let sessionId = try #require(current["sessionId"] as? String)
        bridge.notify("closePresentation", ["mode": 1])
        let closed = try #require(await bridge.process.event("presentationClosed")?["Data"] as? [String: Any])
        #expect(closed["state"] as? Int == 1)
        #expect(closed["mode"] as? Int == 1)
        let byId = try #require(await bridge.data("getSessionById", ["id": sessionId]) as? [String: Any])
        #expect(byId["state"] as? Int == 1)
        #expect((byId["slides"] as? [[String: Any]])?.map { $0["name"] as? String } == ["index.html", "slide1.html"])
        let list = try #require(await bridge.data("getSessions") as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list.first?["presentationId"] as? String == "10")
        #expect(Set(list.first?.keys.map { $0 } ?? []) == ["sessionId", "presentationId", "created"])
        #expect(await bridge.call("getSessionById", ["id": "nope"])?["ErrorCode"] as? Int == 404)
        #expect(await bridge.call("getCurrentSlideName")?["ErrorCode"] as? Int == 404)
        #expect(await bridge.process.finish() == 0)
        #expect(try bridge.sql("SELECT state, slidesCount, userId FROM sessions") == #"[[1, 2, "user-42"]]"#)
    }

    @Test func closeModeTwoMarksTheSessionATestRun() async throws {
        let bridge = try await BridgeSession()
        #expect(await bridge.call("closePresentation", ["mode": 2])?["ErrorCode"] as? Int == 200)
        #expect(await bridge.call("closePresentation", ["mode": 7])?["ErrorCode"] as? Int == 400)
        #expect(await bridge.process.finish() == 0)
        #expect(try bridge.sql("SELECT state FROM sessions") == "[[2]]")
    }

    @Test func anUnfinishedSessionIsRestoredOnTheNextRun() async throws {
        let bridge = try await BridgeSession()
        let firstOpened = try #require(bridge.opened["Data"] as? [String: Any])
        #expect(firstOpened["isRestored"] as? Bool == false)
        #expect(await bridge.call("go", ["slideName": "slide2.html"])?["ErrorCode"] as? Int == 200)
        #expect(await bridge.call("setCustomEvent", ["key": "step", "value": "2"])?["ErrorCode"] as? Int == 200)
        #expect(await bridge.process.finish() == 0)
        #expect(
            try bridge.sql("SELECT state, lastOpenedSlideName, slidesCount FROM sessions")
                == #"[[0, "slide2.html", 2]]"#)

        try await bridge.restart()
        let reopened = try #require(bridge.opened["Data"] as? [String: Any])
        #expect(reopened["isRestored"] as? Bool == true)
        #expect(reopened["sessionId"] as? String == firstOpened["sessionId"] as? String)
        #expect(reopened["slide"] as? String == "slide2.html")
        let session = try #require(await bridge.data("getCurrentSession") as? [String: Any])
        #expect(
            (session["slides"] as? [[String: Any]])?.map { $0["name"] as? String } == ["index.html", "slide2.html"])
        #expect(await bridge.data("getCustomEventByKey", ["key": "step"]) as? [String: String] == ["value": "2"])
        #expect(await bridge.process.finish() == 0)
        #expect(try bridge.sql("SELECT count(*), max(isRestored) FROM sessions") == "[[1, 1]]")
    }

    /// Changes are answered from memory and written by the recorder right after (issue 38); a read of recorded
    /// data answers only once everything before it is written, so a `kill -9` after it loses nothing.
    @Test func killDashNineAfterARecordedReadLosesNothingAnsweredBeforeIt() async throws {
        let bridge = try await BridgeSession()
        #expect(await bridge.call("go", ["slideName": "slide1.html"])?["ErrorCode"] as? Int == 200)
        #expect(await bridge.call("go", ["slideName": "slide2.html"])?["ErrorCode"] as? Int == 200)
        #expect(await bridge.call("setCustomEvent", ["key": "answered", "value": "yes"])?["ErrorCode"] as? Int == 200)
        #expect(await bridge.call("setSessionComplete")?["ErrorCode"] as? Int == 200)
        #expect(await bridge.call("getCurrentSession")?["ErrorCode"] as? Int == 200)
        bridge.process.kill(SIGKILL)
        #expect(await bridge.process.waitForExit() == 128 + SIGKILL)
        #expect(
            try bridge.sql("SELECT slideName FROM session_actions ORDER BY created, rowid")
                == #"[["index.html"], ["slide1.html"]]"#)
        #expect(try bridge.sql("SELECT value FROM custom_events WHERE key = 'answered'") == #"[["yes"]]"#)
        #expect(
            try bridge.sql("SELECT complete, state, lastOpenedSlideName FROM sessions") == #"[[1, 0, "slide2.html"]]"#)
    }

    @Test func aPresentationThatIsNotInstalledIsRefused() async throws {
        let folder = TemporaryDirectory()
        let home = Home(root: folder.appending("home"))
        try InstalledPresentationFixture(isInstalled: false).install(in: home)
        let notInstalled = try await ProcessRunner.sclm(["bridge", "--presentation", "10"], home: home.root)
        #expect(notInstalled.status == 1)
        #expect(notInstalled.stdout.isEmpty)
        #expect(notInstalled.stderr.contains("is not installed"))
        #expect(notInstalled.stderr.contains("sclm sync --presentation 10"))
        let unknown = try await ProcessRunner.sclm(["bridge", "--presentation", "77"], home: home.root)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("presentation 77 is not known"))
        let missing = try await ProcessRunner.sclm(["bridge"], home: home.root)
        #expect(missing.status == 64)
        let badModule = try await ProcessRunner.sclm(
            ["bridge", "--presentation", "10", "--module", "nonsense"], home: home.root)
        #expect(badModule.status == 64)
    }

    @Test func aStartSlideCanBeChosenAndMustExist() async throws {
        let bridge = try await BridgeSession(["--slide", "slide1.html"])
        #expect((bridge.opened["Data"] as? [String: Any])?["slide"] as? String == "slide1.html")
        #expect(await bridge.process.finish() == 0)
        let result = try await ProcessRunner.sclm(
            ["bridge", "--presentation", "10", "--slide", "nope.html"], home: bridge.home.root)
        #expect(result.status == 64)
        #expect(result.stderr.contains("no slide 'nope.html'"))
    }
}

/// The HTTP module through libcurl against a loopback server.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct BridgeHTTPTests {
    /// Answers every request with its method, path, one header and body echoed as JSON (201 for POST).
    static let echoServer = """
        import http.server, json, os, sys, threading, time
        class Echo(http.server.BaseHTTPRequestHandler):
            def answer(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
                reply = json.dumps({"method": self.command, "path": self.path, "deck": self.headers.get("X-Deck"),
                                    "body": body.decode("utf-8")}).encode()
                self.send_response(201 if self.command == "POST" else 404 if self.path == "/missing" else 200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)
            do_GET = do_POST = do_PUT = do_DELETE = answer
            def log_message(self, *args): pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Echo)
        print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
        parent = os.getppid()
        def leave_with_parent():  # a killed test run must not leave the server behind
            while os.getppid() == parent:
                time.sleep(0.5)
            server.shutdown()
        threading.Thread(target=leave_with_parent, daemon=True).start()
        server.serve_forever()
        """

    private func decodedBody(_ response: [String: Any]?) throws -> [String: Any] {
        let body = try #require((response?["Data"] as? [String: Any])?["body"] as? String)
        let data = try #require(Data(base64Encoded: body))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func contentCallsALoopbackServerWithBase64BodiesAndRealStatuses() async throws {
        let scripts = TemporaryDirectory()
        let server = try ServerProcess(script: try scripts.write(Self.echoServer, to: "echo_http.py"))
        defer { server.stop() }
        let base = server.url.absoluteString
        // A loopback server is only reachable when listed (by default content reaches public hosts only).
        let bridge = try await BridgeSession(settings: ["bridge.httpAllowedHosts": "127.0.0.1:\(server.url.port ?? 0)"])
        let got = await bridge.call("httpget", ["url": base + "/a?x=1", "headers": ["X-Deck": "cardiora"]])
        #expect(got?["ErrorCode"] as? Int == 200)
        #expect(got?["Status"] as? String == "no error")
        let echoed = try decodedBody(got)
        #expect(echoed["path"] as? String == "/a?x=1")
        #expect(echoed["deck"] as? String == "cardiora")
        let posted = await bridge.call(
            "httppost", ["url": base + "/b", "body": Data("héllo".utf8).base64EncodedString()])
        #expect(posted?["ErrorCode"] as? Int == 201)
        #expect(posted?["Status"] as? String == "created")
        #expect(try decodedBody(posted)["body"] as? String == "héllo")
        #expect(await bridge.call("httpput", ["url": base + "/c", "body": ""])?["ErrorCode"] as? Int == 200)
        let missing = await bridge.call("httpdelete", ["url": base + "/missing"])
        #expect(missing?["ErrorCode"] as? Int == 404)
        #expect(missing?["Status"] as? String == "not found")
        #expect(await bridge.call("httpget", ["url": "file:///etc/passwd"])?["ErrorCode"] as? Int == 400)
        #expect(await bridge.process.finish() == 0)
    }

    @Test func theAllowListRefusesOtherHosts() async throws {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        try InstalledPresentationFixture().install(in: Home(root: home))
        #expect(
            try await ProcessRunner.sclm(["config", "set", "bridge.httpAllowedHosts", "api.example.com"], home: home)
                .status
                == 0)
        let process = try BridgeProcess(sclm: ["bridge", "--presentation", "10"], home: home)
        process.send(#"{"Command":"httpget","Data":{"url":"http://127.0.0.1:9/"},"GUID":"h"}"#)
        let refused = await process.response(to: "h")
        #expect(refused?["ErrorCode"] as? Int == 403)
        #expect((refused?["ErrorMessage"] as? String)?.contains("bridge.httpAllowedHosts") == true)
        #expect(await process.finish() == 0)
    }
}
