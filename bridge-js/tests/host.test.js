"use strict";
// The preview host (host.js) with the real `sclm bridge`: what it serves (and refuses), how it relays
// pages' messages and follows the bridge's events, and its command line.
const test = require("node:test");
const assert = require("node:assert/strict");
const childProcess = require("child_process");
const fs = require("fs");
const http = require("http");
const path = require("path");
const { connectWebSocket } = require("../websocket.js");
const { parseArguments, resolveInside } = require("../host.js");
const { installedHome, bridgeBinary, removeHome } = require("./home.js");
const { startServer, until } = require("./support.js");

const HOST = path.join(__dirname, "..", "host.js");
const binary = bridgeBinary();

/** GET (or another method) with a raw path, as a browser or an attacker would send it. */
function request(url, rawPath, { method = "GET", headers = {} } = {}) {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: target.hostname, port: target.port, path: rawPath, method, headers }, (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** A page's relay connection: collects what the host sends. */
async function page(url, pagePath) {
  const origin = url.replace(/\/$/, "");
  const socket = await connectWebSocket(origin.replace("http:", "ws:") + "/.sclm/bridge", { headers: { Origin: origin } });
  const received = [];
  socket.on("message", (text) => received.push(JSON.parse(text)));
  if (pagePath) { socket.send(JSON.stringify({ Relay: "hello", page: pagePath })); }
  return { socket, received, send: (message) => socket.send(JSON.stringify(message)) };
}

async function status(url) {
  return JSON.parse((await request(url, "/.sclm/status")).body.toString("utf8"));
}

test("command line: usage errors and --help", () => {
  assert.throws(() => parseArguments([]), /missing --presentation/);
  assert.throws(() => parseArguments(["--presentation", "abc"]), /presentation id/);
  assert.throws(() => parseArguments(["--presentation", "1", "--port", "70000"]), /port/);
  assert.throws(() => parseArguments(["--presentation", "1", "--bogus"]), /unknown option/);
  assert.deepEqual(parseArguments(["--presentation=7", "--slide", "a.html", "--", "--timeout-ms", "100"]).bridgeArgs, ["--timeout-ms", "100"]);
  const usage = childProcess.spawnSync(process.execPath, [HOST], { encoding: "utf8" });
  assert.equal(usage.status, 64);
  assert.match(usage.stderr, /missing --presentation/);
  const help = childProcess.spawnSync(process.execPath, [HOST, "--help"], { encoding: "utf8" });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: node bridge-js\/host\.js --presentation ID/);
});

test("resolveInside keeps to the folder: no .., no absolute parts, no symlinks out, regular files only", (t) => {
  const root = fs.mkdtempSync(path.join(require("os").tmpdir(), "sclm-inside-"));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, "sources", "css"), { recursive: true });
  fs.writeFileSync(path.join(root, "sources", "css", "a.css"), "a");
  fs.writeFileSync(path.join(root, "secret.txt"), "secret");
  fs.symlinkSync(path.join(root, "secret.txt"), path.join(root, "sources", "out.txt"));
  fs.symlinkSync(path.join(root, "sources", "css", "a.css"), path.join(root, "sources", "in.css"));
  const sources = path.join(root, "sources");
  assert.equal(resolveInside(sources, ["css", "a.css"]), fs.realpathSync(path.join(sources, "css", "a.css")));
  assert.equal(resolveInside(sources, ["in.css"]), fs.realpathSync(path.join(sources, "css", "a.css")));
  for (const segments of [["..", "secret.txt"], ["out.txt"], ["css"], ["css", "..", "..", "secret.txt"], ["/etc/passwd"], ["a\\b"], ["a\0"], [], [""]]) {
    assert.equal(resolveInside(sources, segments), null, JSON.stringify(segments));
  }
});

if (binary.skip) {
  console.log(`# host integration tests skipped: ${binary.skip}`);
  test("preview host with sclm bridge", { skip: binary.skip }, () => {});
} else {
  const { sclm } = binary;

  test("preview host with sclm bridge", async (t) => {
    const home = installedHome(sclm, ["cardiora-detail-aid", "respira-inhaler-training"]);
    t.after(() => removeHome(home));
    const sources = path.join(home, "content", "1", "101", "sources");
    fs.symlinkSync(path.join(home, "sclm.db"), path.join(sources, "escape.db"));
    fs.symlinkSync("/etc", path.join(sources, "etc"));
    const host = await startServer(process.execPath, [HOST, "--home", home, "--presentation", "101", "--sclm", sclm, "--exit-with-parent"]);
    t.after(() => host.stop());
    const { url } = host;

    await t.test("prints its 127.0.0.1 URL first; / leads to the slide on screen", async () => {
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      const root = await request(url, "/");
      assert.equal(root.status, 302);
      assert.equal(root.headers.location, "/101/index.html");
      assert.deepEqual(await status(url), { presentationId: 101, slide: "index.html", closed: null, pages: [], bridgeRunning: true });
    });

    await t.test("serves the package's files with their types, byte for byte, without changing them", async () => {
      const slide = await request(url, "/101/index.html");
      assert.equal(slide.status, 200);
      assert.equal(slide.headers["content-type"], "text/html; charset=utf-8");
      assert.ok(slide.body.equals(fs.readFileSync(path.join(sources, "index.html"))), "nothing injected");
      const css = await request(url, "/101/css/deck.css");
      assert.equal(css.headers["content-type"], "text/css; charset=utf-8");
      const pdf = await request(url, "/101/mediafiles/cardiora-smpc.pdf");
      assert.equal(pdf.headers["content-type"], "application/pdf");
      assert.ok(pdf.body.equals(fs.readFileSync(path.join(sources, "mediafiles", "cardiora-smpc.pdf"))));
      const head = await request(url, "/101/img/logo.png", { method: "HEAD" });
      assert.equal(Number(head.headers["content-length"]), fs.statSync(path.join(sources, "img", "logo.png")).size);
      assert.equal(head.body.length, 0);
      const part = await request(url, "/101/img/logo.png", { headers: { Range: "bytes=1-3" } });
      assert.equal(part.status, 206);
      assert.deepEqual([...part.body], [...fs.readFileSync(path.join(sources, "img", "logo.png")).subarray(1, 4)]);
      assert.equal((await request(url, "/101/img/logo.png", { headers: { Range: "bytes=99999999-" } })).status, 416);
      assert.equal((await request(url, "/102/index.html")).status, 200, "another installed presentation");
    });

    await t.test("refuses everything outside the presentation's folder", async () => {
      for (const raw of ["/101/../../sclm.db", "/101/%2e%2e/%2e%2e/sclm.db", "/101/css/..%2f..%2f..%2fsclm.db", "/101/escape.db",
        "/101/etc/passwd", "/101/css", "/101/", "/101/%00", "/999/index.html", "/sclm.db", "/..%2fsclm.db", "/101/..\\..\\sclm.db"]) {
        const answer = await request(url, raw);
        assert.ok([400, 404].includes(answer.status), `${raw} → ${answer.status}`);
        assert.ok(!answer.body.includes("SQLite format"), raw);
      }
      assert.equal((await request(url, "/101/index.html", { headers: { Host: "attacker.example:80" } })).status, 403, "DNS rebinding");
      assert.equal((await request(url, "/101/index.html", { method: "POST" })).status, 405);
    });

    await t.test("relays a page's calls to the bridge and answers only that page", async () => {
      const first = await page(url, "/101/index.html");
      const second = await page(url, "/101/index.html");
      t.after(() => { first.socket.close(); second.socket.close(); });
      first.send({ Command: "getCurrentSlideName", Data: {}, GUID: "GUID_1first" });
      second.send([{ Command: "getPresentationInfo", Data: {}, GUID: "GUID_1second" }]);
      await until(() => first.received.length && second.received.length, 5000, "answers");
      assert.deepEqual(first.received, [{ GUID: "GUID_1first", Status: "Success", ErrorCode: 200, ErrorMessage: "", Data: { slide: "index.html" } }]);
      assert.equal(second.received.length, 1);
      assert.equal(second.received[0].Data.presentationId, 101);
      first.socket.send("{broken");
      await until(() => first.received.length === 2, 5000, "the malformed-JSON answer");
      assert.equal(first.received[1].ErrorCode, 400);
      assert.equal(first.received[1].GUID, null);
    });

    await t.test("a slide change reaches every page as an Event, and pages elsewhere are navigated", async () => {
      const onIndex = await page(url, "/101/index.html");
      const other = await page(url, "/101/index.html");
      t.after(() => { onIndex.socket.close(); other.socket.close(); });
      await until(async () => (await status(url)).pages.filter((path) => path === "/101/index.html").length >= 2, 5000, "pages");
      onIndex.send({ Command: "go", Data: { slideName: "efficacy.html" }, GUID: "GUID_2go" });
      await until(() => onIndex.received.some((message) => message.GUID === "GUID_2go"), 5000, "the go answer");
      const event = { Event: "slideChanged", Data: { slide: "efficacy.html", previous: "index.html" } };
      for (const each of [onIndex, other]) {
        await until(() => each.received.some((message) => message.Relay), 5000, "the navigate instruction");
        assert.deepEqual(each.received.filter((message) => message.Event), [event]);
        assert.deepEqual(each.received.filter((message) => message.Relay), [{ Relay: "navigate", url: "/101/efficacy.html" }]);
      }
      // A page that is already on the slide is not reloaded; its hello changes nothing.
      const onTarget = await page(url, "/101/efficacy.html");
      t.after(() => onTarget.socket.close());
      onIndex.send({ Command: "go", Data: { slideName: "efficacy.html" }, GUID: "GUID_3go" });
      await until(() => onTarget.received.some((message) => message.Event), 5000, "the event on the page on the slide");
      assert.deepEqual(onTarget.received, [{ Event: "slideChanged", Data: { slide: "efficacy.html", previous: "efficacy.html" } }]);
      assert.equal((await status(url)).slide, "efficacy.html");
    });

    await t.test("a page that shows another slide (e.g. back from the history cache) moves the bridge there", async () => {
      const back = await page(url, "/101/index.html");
      t.after(() => back.socket.close());
      await until(async () => (await status(url)).slide === "index.html", 5000, "the bridge back on index.html");
      await until(() => back.received.some((message) => message.Event), 5000, "the event");
      assert.deepEqual(back.received.filter((message) => message.Relay), [], "the page is not reloaded");
    });

    await t.test("loading a slide document tells the bridge (go), as a WebView's navigation does", async () => {
      await request(url, "/101/dosage.html", { headers: { "Sec-Fetch-Dest": "document" } });
      await until(async () => (await status(url)).slide === "dosage.html", 5000, "the bridge on dosage.html");
      await request(url, "/101/safety.html", { headers: { "Sec-Fetch-Dest": "image" } });
      await request(url, "/101/safety.html");
      assert.equal((await status(url)).slide, "dosage.html", "only document loads count");
    });

    await t.test("media files open in the page that asked; closing shows a notice; reopening opens", async () => {
      const viewer = await page(url, "/101/dosage.html");
      t.after(() => viewer.socket.close());
      viewer.send({ Command: "openMediaFile", Data: { id: -1, name: "cardiora-smpc.pdf" }, GUID: "GUID_3media" });
      await until(() => viewer.received.some((message) => message.Relay === "open"), 5000, "the open instruction");
      assert.deepEqual(viewer.received.find((message) => message.Relay === "open"), { Relay: "open", url: "/101/mediafiles/cardiora-smpc.pdf" });
      viewer.send({ Command: "closePresentation", Data: { mode: 1 } });
      await until(() => viewer.received.some((message) => message.Relay === "navigate"), 5000, "the closed notice");
      assert.deepEqual(viewer.received.find((message) => message.Relay === "navigate"), { Relay: "navigate", url: "/.sclm/closed?presId=101" });
      const notice = (await request(url, "/.sclm/closed?presId=101")).body.toString("utf8");
      assert.match(notice, /Presentation closed/);
      assert.match(notice, /Cardiora 10 mg — Detail Aid/);
      assert.match(notice, /saved as complete/);
      assert.equal((await request(url, "/")).headers.location, "/.sclm/closed");
      await request(url, "/102/steps.html", { headers: { "Sec-Fetch-Dest": "document" } });
      await until(async () => (await status(url)).presentationId === 102, 5000, "presentation 102 open");
      assert.equal((await status(url)).slide, "steps.html");
    });

    await t.test("the relay refuses other origins and other paths", async () => {
      await assert.rejects(connectWebSocket(url.replace("http:", "ws:") + ".sclm/bridge", { headers: { Origin: "http://attacker.example" } }), /403/);
      await assert.rejects(connectWebSocket(url.replace("http:", "ws:") + "other"), /403/);
    });

    await t.test("SIGTERM stops the host and the bridge cleanly", async () => {
      assert.equal(await host.stop(), 0);
      await assert.rejects(request(url, "/"), /ECONNREFUSED/);
    });
  });

  test("a presentation that is not installed: the host exits 1 with sclm's reason", async (t) => {
    const home = installedHome(sclm, ["cardiora-detail-aid"]);
    t.after(() => removeHome(home));
    const run = childProcess.spawnSync(process.execPath, [HOST, "--home", home, "--presentation", "202", "--sclm", sclm], { encoding: "utf8", timeout: 30000 });
    assert.equal(run.status, 1);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /202/);
    assert.match(run.stderr, /could not start/);
  });
}
