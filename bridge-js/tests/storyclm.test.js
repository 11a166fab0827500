"use strict";
// Unit tests of storyclm.js over a recording transport: GUIDs, the message each API call sends,
// callback and Promise mapping of answers, client-side errors and time limits, Event dispatch.
const test = require("node:test");
const assert = require("node:assert/strict");
const { createClient, StoryCLMApiMessage, StoryCLMError, ErrorCodes, encodeBody, decodeBody, TablesQuery } = require("../storyclm.js");
const { recordingTransport, delay } = require("./support.js");

const clients = [];

function client(options = {}) {
  const transport = recordingTransport();
  const clm = createClient({ transport, ...options });
  clients.push(clm);
  return { transport, clm };
}

// Closing fails what is still waiting, which ends its timers.
test.after(() => Promise.all(clients.map((clm) => clm.close())));

const GUID = /^GUID_(\d+)([0-9a-f]{32})$/;

test("GUIDs are GUID_<counter><32 hex>, unique, with a counter that counts up from a random start", () => {
  const { transport, clm } = client();
  for (let i = 0; i < 5000; i++) { clm.Bridge.Invoke("bridge.ping", {}, () => {}); }
  const guids = transport.sent.map((message) => message.GUID);
  assert.equal(new Set(guids).size, 5000);
  const counters = guids.map((guid) => {
    const match = GUID.exec(guid);
    assert.ok(match, guid);
    assert.ok(guid.length <= 128);
    return Number(match[1]);
  });
  counters.forEach((counter, index) => assert.equal(counter, counters[0] + index));
  const starts = new Set(Array.from({ length: 8 }, () => {
    const other = client();
    other.clm.Bridge.Invoke("bridge.ping", {}, () => {});
    return Number(GUID.exec(other.transport.sent[0].GUID)[1]);
  }));
  assert.ok(starts.size > 1, "every client starts its counter at a random value");
});

test("a message without a callback has no GUID (fire and forget, as storyclm.js sends it)", () => {
  const { transport, clm } = client();
  assert.equal(clm.Bridge.Invoke("closePresentation", { mode: 1 }), undefined);
  assert.deepEqual(transport.sent, [{ Command: "closePresentation", Data: { mode: 1 } }]);
});

test("each API call sends StoryCLM's command and data", () => {
  const { transport, clm } = client();
  const calls = [
    [() => clm.Go("efficacy.html", { from: "index" }, () => {}), "go", { slideName: "efficacy.html", data: { from: "index" } }],
    [() => clm.Go("efficacy.html", () => {}), "go", { slideName: "efficacy.html", data: {} }],
    [() => clm.SendCommand("myModule.do", { a: 1 }, () => {}), "myModule.do", { a: 1 }],
    [() => clm.System.GetInfo(() => {}), "getAppInfo", {}],
    [() => clm.User.Get(() => {}), "getUserInfo", {}],
    [() => clm.Geolocation.Get(() => {}), "getGeoLocationInfo", {}],
    [() => clm.Presentation.Open(102, () => {}), "open", { presId: 102, slideName: "", data: {} }],
    [() => clm.Presentation.Open("103", "results.html", { q: 1 }, () => {}), "open", { presId: 103, slideName: "results.html", data: { q: 1 } }],
    [() => clm.Presentation.GetInfo(() => {}), "getPresentationInfo", {}],
    [() => clm.Presentation.GetPreviousSlide(() => {}), "getPreviousSlide", {}],
    [() => clm.Presentation.GetNextSlide(() => {}), "getNextSlide", {}],
    [() => clm.Presentation.GetBackForwardList(() => {}), "getBackForwardList", {}],
    [() => clm.Presentation.GetBackForwardPresList(() => {}), "getBackForwardPresList", {}],
    [() => clm.Presentation.GetPresentations(() => {}), "getPresentations", {}],
    [() => clm.Presentation.GetCurrentSlideName(() => {}), "getCurrentSlideName", {}],
    [() => clm.Mediafiles.GetMediaFiles(() => {}), "getMediaFiles", {}],
    [() => clm.Mediafiles.OpenMediaFile("smpc.pdf", () => {}), "openMediaFile", { id: -1, name: "smpc.pdf" }],
    [() => clm.Mediafiles.OpenMediaFile("smpc.pdf", 101, () => {}), "openMediaFile", { id: 101, name: "smpc.pdf" }],
    [() => clm.Mediafiles.OpenMediaLibrary(() => {}), "openMediaLibrary", {}],
    [() => clm.Mediafiles.HideMediaLibraryBtn(() => {}), "hideMediaLibraryBtn", {}],
    [() => clm.Mediafiles.ShowMediaLibraryBtn(() => {}), "showMediaLibraryBtn", {}],
    [() => clm.Map.GetMap(() => {}), "getMap", {}],
    [() => clm.Map.HideMapBtn(() => {}), "hideMapBtn", {}],
    [() => clm.Map.ShowMapBtn(() => {}), "showMapBtn", {}],
    [() => clm.UI.HideCloseBtn(() => {}), "hideCloseBtn", {}],
    [() => clm.UI.HideMapBtn(() => {}), "hideMapBtn", {}],
    [() => clm.UI.HideSystemBtns(() => {}), "hideSystemBtns", {}],
    [() => clm.Sessions.Get(() => {}), "getSessions", {}],
    [() => clm.Sessions.GetCurrent(() => {}), "getCurrentSessions", {}],
    [() => clm.Sessions.GetById("5f0c", () => {}), "getSessionById", { id: "5f0c" }],
    [() => clm.CustomEvents.Set("quiz", 3, () => {}), "setCustomEvent", { key: "quiz", value: "3" }],
    [() => clm.CustomEvents.Get("quiz", () => {}), "getCustomEventByKey", { key: "quiz" }],
    [() => clm.CustomEvents.Delete("quiz", () => {}), "deleteCustomEventByKey", { key: "quiz" }],
    [() => clm.CustomEvents.GetObject(() => {}), "getCustomEventsObject", { sessionId: "", contentId: "" }],
    [() => clm.CustomEvents.GetObject("s1", 101, () => {}), "getCustomEventsObject", { sessionId: "s1", contentId: "101" }],
    [() => clm.DeepLinking.Inbound.GetData(() => {}), "getDeepLinkingInboundData", {}],
    [() => clm.DeepLinking.Outbound.SetScheme("mailto:", () => {}), "setDeepLinkingOutboundScheme", { scheme: "mailto:" }],
    [() => clm.Http.Get("http://127.0.0.1/x", () => {}), "httpget", { url: "http://127.0.0.1/x", headers: {} }],
    [() => clm.Http.Delete("http://127.0.0.1/x", { "X-A": "1" }, () => {}), "httpdelete", { url: "http://127.0.0.1/x", headers: { "X-A": "1" } }],
    [() => clm.Http.Post("http://127.0.0.1/x", "héllo", { "Content-Type": "text/plain" }, () => {}), "httppost",
      { url: "http://127.0.0.1/x", headers: { "Content-Type": "text/plain" }, body: Buffer.from("héllo").toString("base64") }],
    [() => clm.Http.Put("http://127.0.0.1/x", { a: [1] }, () => {}), "httpput",
      { url: "http://127.0.0.1/x", headers: {}, body: Buffer.from("{\"a\":[1]}").toString("base64") }],
    [() => clm.Tables.Get(() => {}), "tables", {}],
    [() => clm.Tables.Count(1, () => {}), "count", { tableId: 1 }],
    [() => clm.Tables.Count("1", "[age][gt][30]", () => {}), "countByQuery", { tableId: 1, query: "[age][gt][30]" }],
    [() => clm.Tables.Count(1, TablesQuery().Query("[a][eq][b]"), () => {}), "countByQuery", { tableId: 1, query: "[a][eq][b]" }],
    [() => clm.Tables.Find(1, "5822", () => {}), "findById", { tableId: 1, id: "5822" }],
    [() => clm.Tables.Find(1, ["a", "b"], () => {}), "findByIds", { tableId: 1, ids: ["a", "b"] }],
    [() => clm.Tables.Find(1, TablesQuery().Query("[age][gt][30]").Take(10).Sort(1, "age"), () => {}), "findByQuery",
      { tableId: 1, skip: 0, take: 10, query: "[age][gt][30]", sort: 1, sortfield: "age" }],
    [() => clm.Tables.Insert(2, { q: 1 }, () => {}), "insertEntry", { tableId: 2, entry: { q: 1 } }],
    [() => clm.Tables.Insert(2, [{ q: 1 }], () => {}), "insertEntries", { tableId: 2, entries: [{ q: 1 }] }],
    [() => clm.Tables.Update(2, { _id: "x", q: 2 }, () => {}), "updateEntry", { tableId: 2, entry: { _id: "x", q: 2 } }],
    [() => clm.Tables.Update(2, [{ _id: "x" }], () => {}), "updateEntries", { tableId: 2, entries: [{ _id: "x" }] }],
    [() => clm.Tables.Delete(2, "x", () => {}), "deleteById", { tableId: 2, id: "x" }],
    [() => clm.Tables.Delete(2, ["x", "y"], () => {}), "deleteByIds", { tableId: 2, ids: ["x", "y"] }],
    [() => clm.OSAM.VersionControl("es", () => {}), "osam.versionControl", { language: "es" }],
    [() => clm.OSAM.VersionControl(() => {}), "osam.versionControl", {}],
    [() => clm.OSAM.VersionControlAnswer("cancel", true, () => {}), "osam.versionControlAnswer", { choice: "cancel", dontShowAgain: true }],
    [() => clm.OSAM.Rating("en", () => {}), "osam.rating", { language: "en" }],
    [() => clm.OSAM.DeviceInformation(() => {}), "osam.deviceInformation", {}],
    [() => clm.OSAM.AppInformation(() => {}), "osam.appInformation", {}],
    [() => clm.OSAM.ChangeLanguageEvent("ca", () => {}), "osam.changeLanguageEvent", { language: "ca" }],
    [() => clm.OSAM.FirstTimeOrUpdateEvent("en", () => {}), "osam.firstTimeOrUpdateEvent", { language: "en" }],
    [() => clm.OSAM.SubscribeToCustomTopic("news", () => {}), "osam.subscribeToCustomTopic", { topic: "news" }],
    [() => clm.OSAM.UnsubscribeToCustomTopic("news", () => {}), "osam.unsubscribeToCustomTopic", { topic: "news" }],
    [() => clm.OSAM.GetToken(() => {}), "osam.getToken", {}],
    [() => clm.OSAM.IsOnline(() => {}), "osam.isOnline", {}]
  ];
  for (const [run, command, data] of calls) {
    transport.sent.length = 0;
    assert.equal(run(), undefined, command + " with a callback returns nothing");
    assert.equal(transport.sent.length, 1, command);
    assert.equal(transport.sent[0].Command, command);
    assert.deepEqual(transport.sent[0].Data, data, command);
    assert.match(transport.sent[0].GUID, GUID, command);
  }
});

test("Close and SetComplete go without a GUID unless a callback asks for the answer", async () => {
  const { transport, clm } = client();
  await clm.Presentation.Close(1);
  await clm.Sessions.SetComplete();
  assert.deepEqual(transport.sent, [
    { Command: "closePresentation", Data: { mode: 1 } },
    { Command: "setSessionComplete", Data: {} }
  ]);
  let answer = null;
  clm.Presentation.Close(2, (message) => { answer = message; });
  assert.deepEqual(transport.sent[2].Data, { mode: 2 });
  transport.answer("closePresentation", {});
  assert.equal(answer.errorCode, 200);
});

test("the callback gets a StoryCLMApiMessage mapped from the PascalCase answer, whatever the key case", async () => {
  const { transport, clm } = client();
  const answers = [];
  clm.Presentation.GetInfo((message) => answers.push(message));
  transport.answer("getPresentationInfo", { Data: { presentationId: 101, name: "Cardiora" } });
  clm.Presentation.GetNextSlide((message) => answers.push(message));
  const guid = transport.last("getNextSlide").GUID;
  transport.hooks.receive({ guid, status: "Failure", errorCode: "404", errorMessage: "No next slide", data: null });
  assert.ok(answers[0] instanceof StoryCLMApiMessage);
  assert.deepEqual({ ...answers[0] }, { status: "Success", errorCode: 200, errorMessage: "", data: { presentationId: 101, name: "Cardiora" } });
  assert.deepEqual({ ...answers[1] }, { status: "Failure", errorCode: 404, errorMessage: "No next slide", data: null });
});

test("an answer is delivered once; unknown, repeated and GUID-less answers are ignored", () => {
  const { transport, clm } = client();
  let calls = 0;
  clm.User.Get(() => { calls += 1; });
  transport.answer("getUserInfo", {});
  transport.answer("getUserInfo", {});
  transport.hooks.receive(JSON.stringify({ GUID: "GUID_1deadbeef", Status: "Success", ErrorCode: 200 }));
  transport.hooks.receive(JSON.stringify({ GUID: null, Status: "Failure", ErrorCode: 400, ErrorMessage: "malformed JSON" }));
  assert.equal(calls, 1);
});

test("an empty answer becomes -2 Data is empty", () => {
  assert.deepEqual({ ...new StoryCLMApiMessage(null) }, { status: "Failure", errorCode: ErrorCodes.EMPTY, errorMessage: "Data is empty", data: null });
  assert.deepEqual({ ...new StoryCLMApiMessage("") }, { status: "Failure", errorCode: -2, errorMessage: "Data is empty", data: null });
});

test("without a callback a call returns a Promise: resolved for 2xx, rejected with a StoryCLMError otherwise", async () => {
  const { transport, clm } = client();
  const info = clm.Presentation.GetInfo();
  transport.answer("getPresentationInfo", { Data: { name: "Cardiora" } });
  const message = await info;
  assert.ok(message instanceof StoryCLMApiMessage);
  assert.equal(message.data.name, "Cardiora");

  const created = clm.Http.Post("http://127.0.0.1/x", "x");
  transport.answer("httppost", { Status: "created", ErrorCode: 201, Data: { headers: {}, body: "" } });
  assert.equal((await created).errorCode, 201);

  const missing = clm.CustomEvents.Get("nothing");
  transport.answer("getCustomEventByKey", { Status: "Failure", ErrorCode: 404, ErrorMessage: "no custom event 'nothing'", Data: null });
  await assert.rejects(missing, (error) => {
    assert.ok(error instanceof StoryCLMError);
    assert.ok(error instanceof Error);
    assert.equal(error.errorCode, 404);
    assert.equal(error.message, "no custom event 'nothing'");
    assert.equal(error.response.status, "Failure");
    return true;
  });
});

test("a Promise nobody awaits does not raise an unhandled rejection", async () => {
  const { clm } = client({ timeout: 5 });
  const unhandled = [];
  const listener = (reason) => unhandled.push(reason);
  process.on("unhandledRejection", listener);
  try {
    clm.Go("next.html");
    clm.Go("");
    await delay(50);
  } finally {
    process.off("unhandledRejection", listener);
  }
  assert.deepEqual(unhandled, []);
});

test("wrong parameters fail on this side with -3 Error Parameters and send nothing", async () => {
  const { transport, clm } = client();
  const failures = [];
  clm.Go("", (message) => failures.push(message));
  clm.Go("x.html", "not an object", (message) => failures.push(message));
  clm.Presentation.Open("abc", (message) => failures.push(message));
  clm.Presentation.Close(7, (message) => failures.push(message));
  clm.Mediafiles.OpenMediaFile(undefined, (message) => failures.push(message));
  clm.CustomEvents.Set("", "v", (message) => failures.push(message));
  clm.Sessions.GetById(null, (message) => failures.push(message));
  clm.Http.Get(42, (message) => failures.push(message));
  clm.Http.Get("http://x", "headers", (message) => failures.push(message));
  clm.OSAM.VersionControlAnswer("maybe", (message) => failures.push(message));
  clm.OSAM.SubscribeToCustomTopic("", (message) => failures.push(message));
  clm.SendCommand("", (message) => failures.push(message));
  clm.Tables.Find("one", "x", (message) => failures.push(message));
  clm.Tables.Find(1, 42, (message) => failures.push(message));
  clm.Tables.Insert(1, (message) => failures.push(message));
  assert.equal(failures.length, 0, "parameter errors are reported asynchronously, as answers are");
  await delay(10);
  assert.equal(failures.length, 15);
  for (const failure of failures) {
    assert.equal(failure.status, "Failure");
    assert.equal(failure.errorCode, ErrorCodes.PARAMETERS);
    assert.match(failure.errorMessage, /^Error Parameters: /);
  }
  assert.deepEqual(transport.sent, []);
  await assert.rejects(clm.Go(""), (error) => error.errorCode === -3 && /slideName/.test(error.message));
});

test("a call without an answer in time gets -1, and a late answer is dropped", async () => {
  const { transport, clm } = client({ timeout: 20 });
  const answers = [];
  clm.Presentation.GetInfo((message) => answers.push(message));
  const promise = clm.User.Get();
  await assert.rejects(promise, (error) => error.errorCode === ErrorCodes.TIMEOUT && /getUserInfo within 20 ms/.test(error.message));
  assert.equal(answers.length, 1);
  assert.equal(answers[0].errorCode, -1);
  transport.answer("getPresentationInfo", {});
  assert.equal(answers.length, 1);
});

test("time limits are configurable per command; openMediaFile waits for the viewer by default", async () => {
  const { transport, clm } = client({ timeout: 15, timeouts: { getMap: 0 } });
  const answers = [];
  clm.Mediafiles.OpenMediaFile("a.pdf", (message) => answers.push(["media", message.errorCode]));
  clm.Map.GetMap((message) => answers.push(["map", message.errorCode]));
  clm.User.Get((message) => answers.push(["user", message.errorCode]));
  await delay(60);
  assert.deepEqual(answers, [["user", -1]]);
  transport.answer("openMediaFile", { Data: { name: "a.pdf", status: "close" } });
  transport.answer("getMap", {});
  assert.deepEqual(answers, [["user", -1], ["media", 200], ["map", 200]]);
  clm.configure({ timeouts: { getMap: 10 } });
  clm.Map.GetMap((message) => answers.push(["map", message.errorCode]));
  await delay(40);
  assert.deepEqual(answers.pop(), ["map", -1]);
});

test("a transport that fails to send answers -4 at once", async () => {
  const transport = recordingTransport();
  transport.send = () => { throw new Error("pipe closed"); };
  const clm = createClient({ transport });
  await assert.rejects(clm.User.Get(), (error) => error.errorCode === ErrorCodes.TRANSPORT && /pipe closed/.test(error.message));
});

test("a transport that closes fails every outstanding call with -4", async () => {
  const { transport, clm } = client();
  const first = clm.User.Get();
  const second = clm.Presentation.GetInfo();
  transport.hooks.closed("sclm bridge exited (code 1)");
  await assert.rejects(first, (error) => error.errorCode === -4 && error.message === "sclm bridge exited (code 1)");
  await assert.rejects(second, (error) => error.errorCode === -4);
  const closing = clm.Map.GetMap();
  await clm.close();
  assert.equal(transport.closed, 1);
  await assert.rejects(closing, (error) => error.errorCode === -4);
});

test("Event lines reach on() listeners by name and '*'; off() removes; a throwing listener does not stop others", () => {
  const { transport, clm } = client();
  const seen = [];
  const named = (data, name) => seen.push(["named", name, data.slide]);
  clm.on("slideChanged", () => { throw new Error("listener bug"); });
  clm.on("slideChanged", named);
  clm.on("*", (data, name) => seen.push(["all", name]));
  const originalError = console.error;
  const reported = [];
  console.error = (error) => reported.push(error);
  try {
    transport.hooks.receive(JSON.stringify({ Event: "slideChanged", Data: { slide: "2.html", previous: "index.html" } }));
    transport.hooks.receive({ event: "uiChanged", data: { command: "hideCloseBtn" } });
    clm.off("slideChanged", named);
    transport.hooks.receive(JSON.stringify({ Event: "slideChanged", Data: { slide: "3.html" } }));
  } finally {
    console.error = originalError;
  }
  assert.deepEqual(seen, [["named", "slideChanged", "2.html"], ["all", "slideChanged"], ["all", "uiChanged"], ["all", "slideChanged"]]);
  assert.equal(reported.length, 2);
  assert.throws(() => clm.on("x", "not a function"), TypeError);
});

test("a batch (array) of answers and events is taken item by item; non-JSON lines are reported and skipped", () => {
  const { transport, clm } = client();
  const got = [];
  clm.User.Get((message) => got.push(message.data.id));
  clm.on("uiChanged", () => got.push("event"));
  const originalError = console.error;
  console.error = () => {};
  try {
    transport.hooks.receive("{not json");
  } finally {
    console.error = originalError;
  }
  transport.hooks.receive(JSON.stringify([{ Event: "uiChanged", Data: {} }, { GUID: transport.last("getUserInfo").GUID, Status: "Success", ErrorCode: 200, Data: { id: "u1" } }]));
  assert.deepEqual(got, ["event", "u1"]);
});

test("StoryCLMBridge.StoryCLMHandler delivers asynchronously, as storyclm.js does", async () => {
  const { transport, clm } = client();
  let answered = false;
  clm.User.Get(() => { answered = true; });
  clm.Bridge.StoryCLMHandler(JSON.stringify({ GUID: transport.last("getUserInfo").GUID, Status: "Success", ErrorCode: 200, Data: {} }));
  assert.equal(answered, false);
  await delay(10);
  assert.equal(answered, true);
});

test("GetNavigationData returns the data fetched at load, and window.StoryCLMNavigationData first", async () => {
  const transport = recordingTransport();
  const clm = createClient({ transport, loadNavigationData: true });
  clients.push(clm);
  assert.deepEqual(clm.GetNavigationData(), {});
  transport.answer("getNavigationData", { Data: { from: "index.html" } });
  assert.deepEqual(clm.GetNavigationData(), { from: "index.html" });
  assert.deepEqual(clm.Bridge.GetNavigationData(), { from: "index.html" });
  globalThis.StoryCLMNavigationData = { injected: true };
  try {
    assert.deepEqual(clm.GetNavigationData(), { injected: true });
  } finally {
    delete globalThis.StoryCLMNavigationData;
  }
});

test("Http bodies: strings as UTF-8, bytes as they are, JSON values as JSON; DecodeBody reverses", () => {
  assert.equal(encodeBody("Grüße ✓"), Buffer.from("Grüße ✓").toString("base64"));
  assert.equal(encodeBody(new Uint8Array([0, 255, 128])), "AP+A");
  assert.equal(encodeBody(Buffer.from([1, 2, 3])), "AQID");
  assert.equal(encodeBody(new Uint8Array([9, 1, 2, 3]).subarray(1)), "AQID");
  assert.equal(encodeBody(new Uint8Array([1, 2, 3]).buffer), "AQID");
  assert.equal(encodeBody({ a: "ü" }), Buffer.from("{\"a\":\"ü\"}").toString("base64"));
  assert.equal(encodeBody(undefined), "");
  const big = Buffer.alloc(200000, 7);
  assert.equal(encodeBody(big), big.toString("base64"));
  assert.equal(decodeBody(Buffer.from("Grüße ✓").toString("base64")), "Grüße ✓");
  const answer = new StoryCLMApiMessage({ Status: "no error", ErrorCode: 200, Data: { headers: {}, body: "aGk=" } });
  assert.equal(decodeBody(answer), "hi");
  assert.equal(decodeBody(answer.data), "hi");
});

test("a client without a transport explains what to do", async () => {
  const clm = createClient();
  await assert.rejects(clm.User.Get(), (error) => error.errorCode === -4 && /connect\(\)/.test(error.message));
});
