"use strict";
// Integration: every StoryCLM.* call through the stdio transport against the real `sclm bridge`, on a
// home with the sample decks installed (tests/home.js). Skipped, with the reason printed, when sclm is
// not built; the HTTP and OSAM calls are checked when the bridge declares those modules.
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const http = require("http");
const path = require("path");
const { connect, ErrorCodes, TablesQuery } = require("../storyclm.js");
const { installedHome, allowHosts, bridgeBinary, removeHome } = require("./home.js");

const binary = bridgeBinary();

/** Resolves with the data of the next `name` event (rejects after `timeout` ms). */
function nextEvent(clm, name, timeout = 5000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { clm.off(name, listener); reject(new Error(`no ${name} event within ${timeout} ms`)); }, timeout);
    function listener(data) {
      clearTimeout(timer);
      clm.off(name, listener);
      resolve(data);
    }
    clm.on(name, listener);
  });
}

/** Rejects unless `promise` rejects with a StoryCLMError of `code`; returns the error. */
async function failsWith(promise, code) {
  try {
    await promise;
  } catch (error) {
    assert.equal(error.name, "StoryCLMError", error.message);
    assert.equal(error.errorCode, code, error.message);
    return error;
  }
  throw new assert.AssertionError({ message: `expected a failure with code ${code}` });
}

if (binary.skip) {
  console.log(`# bridge integration tests skipped: ${binary.skip}`);
  test("StoryCLM calls against sclm bridge", { skip: binary.skip }, () => {});
} else {
  const { sclm } = binary;

  test("StoryCLM calls against sclm bridge", async (t) => {
    const home = installedHome(sclm);
    t.after(() => removeHome(home));
    allowHosts(sclm, home, "127.0.0.1");  // the Http calls go to a test server on loopback
    const events = [];
    const clm = connect({ sclm, home, presentation: 101, timeout: 15000 });
    clm.on("*", (data, name) => events.push([name, data]));
    t.after(() => clm.close());
    const opened = await nextEvent(clm, "presentationOpened");
    const declared = new Set((await clm.SendCommand("bridge.describe")).data.modules.flatMap((module) => module.commands));

    await t.test("opening emits presentationOpened and slideChanged, with a new session", () => {
      assert.equal(opened.presId, 101);
      assert.equal(opened.slide, "index.html");
      assert.equal(opened.isRestored, false);
      assert.match(opened.sessionId, /\S/);
      assert.deepEqual(events.find(([name]) => name === "slideChanged")[1], { slide: "index.html", previous: null });
    });

    await t.test("System, User, Geolocation", async () => {
      const info = (await clm.System.GetInfo()).data;
      assert.equal(info.os, "Linux");
      for (const key of ["localization", "osVersion", "device", "appVersion"]) { assert.equal(typeof info[key], "string", key); }
      const user = (await clm.User.Get()).data;
      assert.deepEqual(Object.keys(user).sort(), ["id", "username"]);
      const place = (await clm.Geolocation.Get()).data;
      for (const key of ["latitude", "longtitude", "address"]) { assert.equal(typeof place[key], "string", key); }
    });

    await t.test("Presentation: info, slide names, Go with data, history", async () => {
      const info = (await clm.Presentation.GetInfo()).data;
      assert.equal(info.presentationId, 101);
      assert.equal(info.name, "Cardiora 10 mg — Detail Aid");
      assert.equal(info.slidesCount, 5);
      assert.equal(info.mediaFilesCount, 1);
      assert.equal((await clm.Presentation.GetCurrentSlideName()).data.slide, "index.html");
      assert.equal((await clm.Presentation.GetNextSlide()).data.slide, "efficacy.html");
      await failsWith(clm.Presentation.GetPreviousSlide(), 404);
      const changed = nextEvent(clm, "slideChanged");
      const went = await clm.Go("efficacy.html", { from: "index", quiz: [1, 2] });
      assert.equal(went.errorCode, 200);
      assert.deepEqual(await changed, { slide: "efficacy.html", previous: "index.html" });
      assert.deepEqual((await clm.SendCommand("getNavigationData")).data, { from: "index", quiz: [1, 2] });
      assert.equal((await clm.Presentation.GetPreviousSlide()).data.slide, "index.html");
      const missing = await failsWith(clm.Go("no-such-slide.html"), 404);
      assert.match(missing.message, /no-such-slide\.html/);
      await failsWith(clm.Go("../sclm.db"), 400);
      assert.deepEqual((await clm.Presentation.GetBackForwardList()).data, ["index.html", "efficacy.html"]);
      // The callback style gets the same answer object.
      const answer = await new Promise((resolve) => clm.Presentation.GetCurrentSlideName(resolve));
      assert.deepEqual({ ...answer }, { status: "Success", errorCode: 200, errorMessage: "", data: { slide: "efficacy.html" } });
    });

    await t.test("Map and UI: the map follows the swipe links; buttons emit uiChanged", async () => {
      const map = (await clm.Map.GetMap()).data;
      assert.deepEqual(map["index.html"], ["efficacy.html"]);
      assert.deepEqual(map["efficacy.html"], ["index.html", "dosage.html"]);
      assert.deepEqual(map["references.html"], ["safety.html"]);
      for (const [call, command, flag, value] of [
        [() => clm.UI.HideCloseBtn(), "hideCloseBtn", "closeButtonHidden", true],
        [() => clm.UI.HideSystemBtns(), "hideSystemBtns", "systemButtonsHidden", true],
        [() => clm.UI.HideMapBtn(), "hideMapBtn", "mapButtonHidden", true],
        [() => clm.Map.ShowMapBtn(), "showMapBtn", "mapButtonHidden", false],
        [() => clm.Map.HideMapBtn(), "hideMapBtn", "mapButtonHidden", true],
        [() => clm.Mediafiles.HideMediaLibraryBtn(), "hideMediaLibraryBtn", "mediaLibraryButtonHidden", true],
        [() => clm.Mediafiles.ShowMediaLibraryBtn(), "showMediaLibraryBtn", "mediaLibraryButtonHidden", false]
      ]) {
        const changed = nextEvent(clm, "uiChanged");
        assert.equal((await call()).errorCode, 200, command);
        const flags = await changed;
        assert.equal(flags.command, command);
        assert.equal(flags[flag], value, command);
      }
    });

    await t.test("Mediafiles: list, open inside the package only, library", async () => {
      assert.deepEqual((await clm.Mediafiles.GetMediaFiles()).data,
        [{ title: "Cardiora 10 mg — Summary of Product Characteristics", fileName: "cardiora-smpc.pdf" }]);
      const shown = nextEvent(clm, "mediaFileOpened");
      assert.deepEqual((await clm.Mediafiles.OpenMediaFile("cardiora-smpc.pdf")).data, { name: "cardiora-smpc.pdf", status: "close" });
      const event = await shown;
      assert.equal(event.presId, 101);
      assert.equal(fs.realpathSync(event.path), fs.realpathSync(path.join(home, "content", "1", "101", "sources", "mediafiles", "cardiora-smpc.pdf")));
      assert.equal((await clm.Mediafiles.OpenMediaFile("cardiora-smpc.pdf", 101)).errorCode, 200);
      const escape = await clm.Mediafiles.OpenMediaFile("../../../../sclm.db").catch((error) => error);
      assert.ok([400, 403, 404].includes(escape.errorCode), `escaping the media folder is refused (${escape.errorCode})`);
      await failsWith(clm.Mediafiles.OpenMediaFile("missing.pdf"), 404);
      const library = nextEvent(clm, "mediaLibraryOpened");
      assert.equal((await clm.Mediafiles.OpenMediaLibrary()).data.status, "close");
      assert.equal((await library).presId, 101);
    });

    await t.test("CustomEvents: set, read back, list, delete", async () => {
      await clm.CustomEvents.Set("quiz_efficacy", "once-daily");
      await clm.CustomEvents.Set("quiz_efficacy", "tolerability");
      await clm.CustomEvents.Set("visits", 3);
      assert.deepEqual((await clm.CustomEvents.Get("quiz_efficacy")).data, { value: "tolerability" });
      assert.deepEqual((await clm.CustomEvents.GetObject()).data, { quiz_efficacy: "tolerability", visits: "3" });
      assert.deepEqual((await clm.CustomEvents.GetObject(opened.sessionId, 101)).data, { quiz_efficacy: "tolerability", visits: "3" });
      assert.deepEqual((await clm.CustomEvents.Delete("visits")).data, { key: "visits" });
      await failsWith(clm.CustomEvents.Get("visits"), 404);
      await failsWith(clm.CustomEvents.Set("bad key!", "x"), 400);
    });

    await t.test("Sessions: current, list, by id", async () => {
      const current = (await clm.Sessions.GetCurrent()).data;
      assert.equal(current.sessionId, opened.sessionId);
      assert.equal(String(current.presentationId), "101");
      assert.ok(current.slides.some((slide) => slide.name === "index.html"), "the slide left is logged");
      const list = (await clm.Sessions.Get()).data;
      assert.ok(list.some((session) => session.sessionId === opened.sessionId));
      assert.equal((await clm.Sessions.GetById(opened.sessionId)).data.sessionId, opened.sessionId);
      await failsWith(clm.Sessions.GetById("00000000-0000-0000-0000-000000000000"), 404);
      await clm.Sessions.SetComplete();
      assert.equal((await new Promise((resolve) => clm.Sessions.SetComplete(resolve))).errorCode, 200);
    });

    await t.test("Http: GET, POST, PUT, DELETE with base64 bodies", async () => {
      assert.ok(declared.has("httpget"), "sclm bridge declares no HTTP module (bridge.describe lacks httpget)");
      const seen = [];
      const server = http.createServer((request, response) => {
        const chunks = [];
        request.on("data", (chunk) => chunks.push(chunk));
        request.on("end", () => {
          const body = Buffer.concat(chunks);
          seen.push({ method: request.method, url: request.url, header: request.headers["x-deck"], body });
          response.writeHead(request.method === "POST" ? 201 : 200, { "Content-Type": "application/json", "X-Echo": "yes" });
          response.end(JSON.stringify({ method: request.method, received: body.toString("utf8"), text: "Grüße ✓" }));
        });
      });
      await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
      t.after(() => server.close());
      const base = `http://127.0.0.1:${server.address().port}`;
      const got = await clm.Http.Get(base + "/a?x=1", { "X-Deck": "cardiora" });
      assert.equal(got.errorCode, 200);
      assert.equal(JSON.parse(clm.Http.DecodeBody(got)).text, "Grüße ✓");
      const posted = await clm.Http.Post(base + "/b", "héllo", { "X-Deck": "cardiora" });
      assert.equal(posted.errorCode, 201);
      assert.equal(JSON.parse(clm.Http.DecodeBody(posted)).received, "héllo");
      assert.equal((await clm.Http.Put(base + "/c", { a: 1 })).errorCode, 200);
      assert.equal((await clm.Http.Delete(base + "/d")).errorCode, 200);
      assert.deepEqual(seen.map((request) => [request.method, request.url]), [["GET", "/a?x=1"], ["POST", "/b"], ["PUT", "/c"], ["DELETE", "/d"]]);
      assert.equal(seen[0].header, "cardiora");
      assert.equal(seen[1].body.toString("utf8"), "héllo");
      assert.equal(seen[2].body.toString("utf8"), "{\"a\":1}");
      await failsWith(clm.Http.Get("file:///etc/passwd"), 400);
      await failsWith(clm.Http.Get(base.replace("127.0.0.1", "localhost") + "/a"), 403);
    });

    await t.test("OSAM calls are answered", async () => {
      assert.ok(declared.has("osam.versionControl"), "sclm bridge declares no OSAM module (bridge.describe lacks osam.versionControl)");
      const calls = [
        () => clm.OSAM.VersionControl("en"), () => clm.OSAM.VersionControlAnswer("dismiss"), () => clm.OSAM.Rating("en"),
        () => clm.OSAM.DeviceInformation(), () => clm.OSAM.AppInformation(), () => clm.OSAM.ChangeLanguageEvent("es"),
        () => clm.OSAM.FirstTimeOrUpdateEvent("es"), () => clm.OSAM.SubscribeToCustomTopic("news"),
        () => clm.OSAM.UnsubscribeToCustomTopic("news"), () => clm.OSAM.GetToken(), () => clm.OSAM.IsOnline()
      ];
      for (const call of calls) {
        const answer = await call().catch((error) => error.response);
        assert.notEqual(answer.errorCode, 404, `${answer.errorMessage}`);
        assert.ok(answer.errorCode > 0, "answered by the bridge, not a client-side error");
      }
    });

    await t.test("commands the bridge lacks are answered 404, never left waiting", async () => {
      for (const call of [() => clm.DeepLinking.Inbound.GetData(), () => clm.SendCommand("noSuchModule.doIt", { a: 1 })]) {
        const error = await failsWith(call(), 404);
        assert.match(error.message, /unknown command/);
      }
      assert.equal((await clm.SendCommand("  getCurrentSlideName ")).data.slide, "efficacy.html", "commands are trimmed");
    });

    await t.test("Tables calls without a login to the StoryCLM API answer 503, saying tables are online only", async () => {
      for (const call of [() => clm.Tables.Get(), () => clm.Tables.Find(1, TablesQuery().Query("[a][eq][b]")), () => clm.Tables.Count(1)]) {
        const error = await failsWith(call(), 503);
        assert.match(error.message, /not available offline/);
      }
    });

    await t.test("many calls at once each get their own answer", async () => {
      const keys = Array.from({ length: 150 }, (_, index) => `k${index}`);
      await Promise.all(keys.map((key, index) => clm.CustomEvents.Set(key, `v${index}`)));
      const values = await Promise.all(keys.map((key) => clm.CustomEvents.Get(key)));
      assert.deepEqual(values.map((answer) => answer.data.value), keys.map((_, index) => `v${index}`));
    });

    await t.test("Presentation.Open switches presentation; the client's presentations are listed", async () => {
      const names = (await clm.Presentation.GetPresentations()).data.map((entry) => entry.presId).sort();
      assert.deepEqual(names, [101, 102, 103], "client 1's installed presentations (201 is another client's)");
      const closed = nextEvent(clm, "presentationClosed");
      const other = nextEvent(clm, "presentationOpened");
      await clm.Presentation.Open(102, "steps.html", { from: 101 });
      assert.equal((await closed).presId, 101);
      const next = await other;
      assert.equal(next.presId, 102);
      assert.equal(next.slide, "steps.html");
      assert.deepEqual((await clm.SendCommand("getNavigationData")).data, { from: 101 });
      assert.equal((await clm.Presentation.GetInfo()).data.presentationId, 102);
      assert.deepEqual((await clm.Presentation.GetBackForwardPresList()).data.map((entry) => entry.presId), [101, 102]);
      await failsWith(clm.Presentation.Open(999), 404);
    });

    await t.test("Close(1) completes the session; afterwards nothing is open", async () => {
      const session = (await clm.Sessions.GetCurrent()).data.sessionId;
      const closed = nextEvent(clm, "presentationClosed");
      await clm.Presentation.Close(1);
      const event = await closed;
      assert.equal(event.mode, 1);
      assert.equal(event.sessionId, session);
      await failsWith(clm.Presentation.GetInfo(), 404);
      const stored = (await clm.Sessions.GetById(session)).data;
      assert.equal(stored.state, 1, "state 1: complete");
      assert.deepEqual(await clm.close(), { code: 0, signal: null });
      await failsWith(clm.User.Get(), ErrorCodes.TRANSPORT);
    });
  });

  test("an unfinished session is restored by the next run, on its last slide", async (t) => {
    const home = installedHome(sclm, ["cardiora-detail-aid"]);
    t.after(() => removeHome(home));
    const first = connect({ sclm, home, presentation: 101 });
    const firstOpened = await nextEvent(first, "presentationOpened");
    await first.Go("dosage.html");
    assert.equal((await first.close()).code, 0);
    const second = connect({ sclm, home, presentation: 101 });
    t.after(() => second.close());
    const reopened = await nextEvent(second, "presentationOpened");
    assert.equal(reopened.isRestored, true);
    assert.equal(reopened.sessionId, firstOpened.sessionId);
    assert.equal(reopened.slide, "dosage.html");
    const third = await second.Go("safety.html");
    assert.equal(third.errorCode, 200);
  });

  test("connect() reports a bridge that cannot start with -4 and sclm's own message", async (t) => {
    const home = installedHome(sclm, ["cardiora-detail-aid"]);
    t.after(() => removeHome(home));
    const missing = connect({ sclm: "/nonexistent/sclm", home, presentation: 101 });
    const error = await failsWith(missing.User.Get(), ErrorCodes.TRANSPORT);
    assert.match(error.message, /could not start \/nonexistent\/sclm/);
    const uninstalled = connect({ sclm, home, presentation: 202 });
    const refused = await failsWith(uninstalled.User.Get(), ErrorCodes.TRANSPORT);
    assert.match(refused.message, /202/);
    assert.notEqual((await uninstalled.exited()).code, 0);
    assert.throws(() => connect({ sclm, home }), /presentation/);
  });
}
