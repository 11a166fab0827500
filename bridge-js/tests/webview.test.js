"use strict";
// storyclm.js as a <script> in a page: the globals, and each page transport against a simulated
// host — StoryContent's legacy queue (iframe ping, GetQueue, StoryCLMHandler with JS-escaped JSON),
// a WKWebView script message handler, and the sclm preview relay with its fallback to the queue.
const test = require("node:test");
const assert = require("node:assert/strict");
const { simulatedWebView, closeSimulatedWebViews, escapeEcmaScript, delay, until } = require("./support.js");

// Calls the pages left unanswered would hold the process for storyclm.js's 35 s time limit.
test.after(closeSimulatedWebViews);

/** Objects made inside the page's context compare by value once copied into this one. */
function plain(value) {
  return JSON.parse(JSON.stringify(value));
}

function echo(message) {
  return { Data: { command: message.Command, data: message.Data } };
}

test("as a script it defines window.StoryCLM and window.StoryCLMBridge with storyclm.js 2.2's surface", () => {
  const view = simulatedWebView();
  const { StoryCLM, StoryCLMBridge } = view;
  for (const name of ["Invoke", "GetQueue", "StoryCLMHandler", "GetNavigationData"]) {
    assert.equal(typeof StoryCLMBridge[name], "function", name);
  }
  const surface = {
    "": ["Go", "SendCommand", "GetNavigationData", "on", "off"],
    System: ["GetInfo"], User: ["Get"], Geolocation: ["Get"],
    Presentation: ["Open", "Close", "GetInfo", "GetPreviousSlide", "GetNextSlide", "GetBackForwardList", "GetBackForwardPresList", "GetPresentations", "GetCurrentSlideName"],
    Mediafiles: ["GetMediaFiles", "OpenMediaFile", "OpenMediaLibrary", "HideMediaLibraryBtn", "ShowMediaLibraryBtn"],
    Map: ["GetMap", "HideMapBtn", "ShowMapBtn"], UI: ["HideCloseBtn", "HideMapBtn", "HideSystemBtns"],
    Sessions: ["Get", "GetCurrent", "GetById", "SetComplete"], CustomEvents: ["Set", "Get", "Delete", "GetObject"],
    Http: ["Get", "Delete", "Post", "Put"],
    OSAM: ["VersionControl", "VersionControlAnswer", "Rating", "DeviceInformation", "AppInformation", "ChangeLanguageEvent",
      "FirstTimeOrUpdateEvent", "SubscribeToCustomTopic", "UnsubscribeToCustomTopic", "GetToken", "IsOnline"]
  };
  for (const [group, names] of Object.entries(surface)) {
    for (const name of names) {
      assert.equal(typeof (group ? StoryCLM[group][name] : StoryCLM[name]), "function", `StoryCLM.${group}${group ? "." : ""}${name}`);
    }
  }
  assert.equal(StoryCLMBridge.Transport(), "queue");
});

test("legacy queue: a hidden iframe pings storyclm:SCLM_QUEUE, GetQueue drains, StoryCLMHandler answers", async () => {
  const view = simulatedWebView({ answer: echo });
  const { StoryCLM } = view;
  const answers = [];
  StoryCLM.Go("efficacy.html", { from: "index" }, (message) => answers.push(message));
  StoryCLM.Presentation.GetInfo((message) => answers.push(message));
  StoryCLM.Presentation.Close(1);
  assert.equal(view.appended.length, 1, "one hidden iframe");
  assert.equal(view.appended[0].tagName, "IFRAME");
  assert.equal(view.appended[0].style.display, "none");
  assert.ok(view.pings.every((url) => url === "storyclm:SCLM_QUEUE"));
  await until(() => answers.length === 2, 2000, "answers");
  // The page asked for its navigation data on load, then the three calls; all in the first GetQueue.
  assert.deepEqual(view.received.map((message) => message.Command), ["getNavigationData", "go", "getPresentationInfo", "closePresentation"]);
  assert.deepEqual(view.received[1].Data, { slideName: "efficacy.html", data: { from: "index" } });
  assert.equal(view.received[3].GUID, undefined, "closePresentation is fire and forget");
  assert.deepEqual(answers.map((message) => message.data.command), ["go", "getPresentationInfo"]);
  assert.equal(view.StoryCLMBridge.GetQueue(), "[]", "GetQueue empties the queue");
});

test("legacy queue: answers arrive as JS-escaped JSON in single quotes (StoryContent Android's escapeEcmaScript)", async () => {
  const tricky = "it's \"quoted\" \\ back/slash\nnew line\ttab \u2028 Grüße 🚀 </script>";
  const view = simulatedWebView({ answer: () => ({ Data: { text: tricky } }) });
  const answer = await view.StoryCLM.CustomEvents.Get("note");
  assert.equal(answer.data.text, tricky);
  const call = view.evaluated.find((source) => source.startsWith("StoryCLMBridge.StoryCLMHandler("));
  assert.ok(call.includes("\\'"), "single quotes are escaped");
  assert.ok(!/[\u0080-\uffff]/.test(call), "non-ASCII is \\u-escaped");
  assert.equal(escapeEcmaScript("é'\n🚀"), "\\u00E9\\'\\n\\uD83D\\uDE80");
});

test("legacy queue: the app's Event lines reach StoryCLM.on listeners", async () => {
  const view = simulatedWebView();
  const events = [];
  view.StoryCLM.on("slideChanged", (data, name) => events.push([name, data]));
  view.deliver({ Event: "slideChanged", Data: { slide: "dosage.html", previous: "efficacy.html" } });
  await until(() => events.length === 1, 1000, "event");
  assert.deepEqual(plain(events[0]), ["slideChanged", { slide: "dosage.html", previous: "efficacy.html" }]);
});

test("legacy queue: navigation data fetched on load is what StoryCLMBridge.GetNavigationData returns", async () => {
  const view = simulatedWebView({ answer: (message) => message.Command === "getNavigationData" ? { Data: { quiz: "b" } } : undefined });
  await until(() => view.StoryCLMBridge.GetNavigationData().quiz === "b", 1000, "navigation data");
  assert.deepEqual(plain(view.StoryCLM.GetNavigationData()), { quiz: "b" });
});

test("legacy queue: an app that never answers leaves the callback with -1 after the configured time", async () => {
  const view = simulatedWebView({ extra: { StoryCLMConfig: { timeout: 30 } } });
  await assert.rejects(view.StoryCLM.User.Get(), (error) => error.errorCode === -1);
});

test("WKWebView: messages go to webkit.messageHandlers.storyclm as JSON text, answers come through StoryCLMHandler", async () => {
  const posted = [];
  const view = simulatedWebView({ extra: { webkit: { messageHandlers: { storyclm: { postMessage: (body) => posted.push(body) } } } } });
  assert.equal(view.StoryCLMBridge.Transport(), "webkit");
  const pending = view.StoryCLM.Map.GetMap();
  const message = JSON.parse(posted[posted.length - 1]);
  assert.equal(message.Command, "getMap");
  view.deliver({ GUID: message.GUID, Status: "Success", ErrorCode: 200, ErrorMessage: "", Data: { "index.html": ["efficacy.html"] } });
  assert.deepEqual(plain((await pending).data), { "index.html": ["efficacy.html"] });
  assert.equal(view.pings.length, 0, "no iframe ping");
});

/** A WebSocket double: the test plays the relay host through `server`. */
function fakeWebSocketClass(behaviour) {
  const sockets = [];
  class FakeWebSocket {
    constructor(url) {
      this.url = url;
      this.sent = [];
      sockets.push(this);
      setTimeout(() => behaviour(this), 0);
    }
    send(text) { this.sent.push(JSON.parse(text)); }
    close() { this.onclose && this.onclose({}); }
  }
  return { FakeWebSocket, sockets };
}

const HTTP_PAGE = { protocol: "http:", host: "127.0.0.1:8123", pathname: "/101/index.html", search: "" };

test("preview relay: over http(s) the page talks to <origin>/.sclm/bridge and follows the host's navigate and open", async () => {
  const { FakeWebSocket, sockets } = fakeWebSocketClass((socket) => socket.onopen());
  const view = simulatedWebView({ location: HTTP_PAGE, extra: { WebSocket: FakeWebSocket } });
  assert.equal(view.StoryCLMBridge.Transport(), "relay");
  const going = view.StoryCLM.Go("efficacy.html");
  await until(() => sockets[0] && sockets[0].sent.length === 3, 1000, "hello and queued messages");
  const socket = sockets[0];
  assert.equal(socket.url, "ws://127.0.0.1:8123/.sclm/bridge");
  assert.deepEqual(socket.sent[0], { Relay: "hello", page: "/101/index.html" });
  assert.deepEqual(socket.sent.slice(1).map((message) => message.Command), ["getNavigationData", "go"]);
  const go = socket.sent[2];
  socket.onmessage({ data: JSON.stringify({ GUID: go.GUID, Status: "Success", ErrorCode: 200, ErrorMessage: "", Data: {} }) });
  assert.equal((await going).errorCode, 200);
  socket.onmessage({ data: JSON.stringify({ Relay: "navigate", url: "/101/efficacy.html" }) });
  socket.onmessage({ data: JSON.stringify({ Relay: "navigate", url: "/101/index.html" }) });
  socket.onmessage({ data: JSON.stringify({ Relay: "open", url: "/101/mediafiles/smpc.pdf" }) });
  assert.deepEqual(view.context.navigations, ["/101/efficacy.html"], "no reload of the page already shown");
  assert.deepEqual(view.context.opened, [["/101/mediafiles/smpc.pdf", "_blank"]]);
  const pending = view.StoryCLM.User.Get();
  socket.close();
  await assert.rejects(pending, (error) => error.errorCode === -4 && /preview host/.test(error.message));
});

test("preview relay: when no relay answers, the page falls back to the legacy queue with what it had queued", async () => {
  const { FakeWebSocket } = fakeWebSocketClass((socket) => socket.onclose({}));
  const view = simulatedWebView({ location: HTTP_PAGE, extra: { WebSocket: FakeWebSocket }, answer: echo });
  const answer = await view.StoryCLM.Presentation.GetCurrentSlideName();
  assert.equal(answer.data.command, "getCurrentSlideName");
  assert.equal(view.StoryCLMBridge.Transport(), "queue");
  assert.deepEqual(view.received.map((message) => message.Command), ["getNavigationData", "getCurrentSlideName"]);
});

test("StoryCLMConfig picks the transport explicitly", async () => {
  const { FakeWebSocket, sockets } = fakeWebSocketClass(() => {});
  const view = simulatedWebView({ location: HTTP_PAGE, extra: { WebSocket: FakeWebSocket, StoryCLMConfig: { transport: "queue" } } });
  assert.equal(view.StoryCLMBridge.Transport(), "queue");
  await delay(5);
  assert.equal(sockets.length, 0);
  const relay = simulatedWebView({ extra: { WebSocket: FakeWebSocket, StoryCLMConfig: { transport: "relay", relayUrl: "ws://127.0.0.1:9/x" } } });
  assert.equal(relay.StoryCLMBridge.Transport(), "relay");
  assert.equal(sockets[0].url, "ws://127.0.0.1:9/x");
});
