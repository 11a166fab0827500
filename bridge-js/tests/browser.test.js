"use strict";
// A real browser: headless Chromium opens a sample slide through host.js, the slide's own StoryCLM
// calls (js/deck.js over js/storyclm.js) complete, the arrow key and StoryCLM.Go navigate, quiz answers
// are stored, the last slide completes the session, and a screenshot of the slide is not blank.
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const path = require("path");
const { installedHome, allowHosts, bridgeBinary, removeHome } = require("./home.js");
const { findChromium, launchChromium, decodePNG, imageStatistics, temporaryFolder } = require("./chromium.js");
const { REPO, startServer, pythonExecutable, until } = require("./support.js");

const HOST = path.join(__dirname, "..", "host.js");
const binary = bridgeBinary();
const chromium = findChromium();
const skip = binary.skip || (chromium ? null : "chromium is not installed: run `scripts/ensure-deps.sh chromium` (make test does)");
if (skip) { console.log(`# browser test skipped: ${skip}`); }

test("a sample deck in headless Chromium through host.js", { skip: skip || false, timeout: 180000 }, async (t) => {
  const folder = temporaryFolder("sclm-browser-");
  const home = installedHome(binary.sclm, ["cardiora-detail-aid"]);
  // Cleanup runs in one hook, in dependency order: Chromium must have exited before its profile folder is
  // removed (it keeps writing to it while shutting down). BRIDGE_JS_KEEP=1 keeps the folder with the
  // screenshot and Chromium's profile.
  let backend = null;
  let host = null;
  let browser = null;
  t.after(async () => {
    if (browser) { await browser.close(); }
    if (host) { await host.stop(); }
    if (backend) { await backend.stop(); }
    removeHome(home);
    if (!process.env.BRIDGE_JS_KEEP) { fs.rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }); }
  });
  backend = await startServer(pythonExecutable(), [path.join(REPO, "dev-server", "server.py"), "--quiet", "--exit-with-parent",
    "--osam", path.join(REPO, "sample-content", "osam.json")]);
  allowHosts(binary.sclm, home, new URL(backend.url).host);  // the deck's HTTP call goes to this backend
  host = await startServer(process.execPath, [HOST, "--home", home, "--presentation", "101", "--sclm", binary.sclm, "--quiet", "--exit-with-parent"]);
  browser = await launchChromium(chromium, folder);
  const errors = [];
  browser.on("Runtime.exceptionThrown", (details) => errors.push(details.exceptionDetails.exception ? details.exceptionDetails.exception.description : details.exceptionDetails.text));

  /** The page's value of `expression`, retried while a navigation replaces the page. */
  async function pageValue(expression) {
    try { return await browser.evaluate(expression); } catch (error) { return undefined; }
  }
  const attribute = (name) => pageValue(`document.body && document.body.getAttribute("data-clm-${name}")`);
  const at = (pathname) => until(async () => (await pageValue("location.pathname")) === pathname && (await pageValue("document.readyState")) === "complete", 15000, pathname);

  await browser.send("Page.navigate", { url: host.url });
  await at("/101/index.html");

  await t.test("the start slide's StoryCLM calls complete over the relay", async () => {
    assert.equal(await pageValue("StoryCLMBridge.Transport()"), "relay");
    await until(async () => await attribute("slide") && await attribute("presentation"), 20000, "the start slide's calls");
    assert.equal(await attribute("slide"), "index.html");
    assert.equal(await attribute("presentation"), "Cardiora 10 mg — Detail Aid");
    assert.equal(await attribute("http"), null, "no backend call without navigation data naming one");
    await pageValue(`document.querySelector('[data-clm-check]').click()`);
    await until(async () => await attribute("osam"), 20000, "the OSAM check behind the tap");
    assert.match(await attribute("osam"), /\S/);
    assert.match(await pageValue("document.querySelector('.clm-status').textContent"), /slide index\.html/);
  });

  await t.test("the arrow key navigates through StoryCLM.Go, and the bridge follows", async () => {
    for (const type of ["keyDown", "keyUp"]) {
      await browser.send("Input.dispatchKeyEvent", { type, key: "ArrowRight", code: "ArrowRight", windowsVirtualKeyCode: 39 });
    }
    await at("/101/efficacy.html");
    await until(async () => (await attribute("slide")) === "efficacy.html", 10000, "the slide name from the bridge");
  });

  await t.test("a quiz answer is stored as a custom event and read back", async () => {
    await pageValue(`document.querySelector('[data-answer="tolerability"]').click()`);
    await until(async () => (await attribute("quiz")) === "tolerability", 10000, "the stored answer");
    assert.equal(await pageValue(`document.querySelector('.quiz-result').textContent`), "Saved: tolerability");
  });

  await t.test("a screenshot of the slide is not blank", async () => {
    const shot = await browser.send("Page.captureScreenshot", { format: "png" });
    const file = path.join(folder, "efficacy.png");
    fs.writeFileSync(file, Buffer.from(shot.data, "base64"));
    const image = decodePNG(fs.readFileSync(file));
    assert.ok(image.width >= 800 && image.height >= 600, `${image.width}x${image.height}`);
    const { variance, colours } = imageStatistics(image);
    assert.ok(variance > 200, `luminance variance ${variance.toFixed(1)}`);
    assert.ok(colours > 50, `${colours} colours`);
  });

  await t.test("StoryCLM.Go with navigation data: the start slide calls the backend with it", async () => {
    await pageValue(`StoryCLM.Go("index.html", { apiBase: ${JSON.stringify(backend.url)} }).then(() => true)`);
    await at("/101/index.html");
    await until(async () => await attribute("http"), 20000, "the HTTP call");
    const declared = await pageValue(`StoryCLM.SendCommand("bridge.describe").then((m) => m.data.modules.some((module) => module.commands.includes("httpget")))`);
    if (declared) {
      assert.match(await attribute("http"), /^ok 200/);
      assert.equal(await attribute("latest-version"), "2.1.0");
    } else {
      assert.equal(await attribute("http"), "error 404", "answered 404 while the bridge has no HTTP module");
    }
  });

  await t.test("the last slide completes the session; its media link opens the PDF; closing shows the notice", async () => {
    await pageValue(`StoryCLM.Go("references.html").then(() => true)`);
    await at("/101/references.html");
    await until(async () => (await attribute("session")) === "complete", 10000, "the completed session");
    await pageValue(`document.querySelector('a.media-link').click()`);
    await until(async () => (await attribute("media")) === "cardiora-smpc.pdf close", 10000, "the media file");
    await pageValue(`StoryCLM.Presentation.Close(1)`);
    await at("/.sclm/closed");
    assert.equal(await pageValue("document.title"), "Presentation closed");
  });

  assert.deepEqual(errors, [], "no uncaught exceptions in the pages");
});
