"use strict";
// Helpers shared by the bridge-js tests: a recording transport and a simulated WebView.
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const LIBRARY = path.join(__dirname, "..", "storyclm.js");
const REPO = path.join(__dirname, "..", "..");

/** A transport that records what the client sends and lets the test answer. */
function recordingTransport() {
  const transport = {
    name: "recording",
    sent: [],
    hooks: null,
    closed: 0,
    start(hooks) { transport.hooks = hooks; },
    send(message) { transport.sent.push(message); },
    close() { transport.closed += 1; },
    /** The last message sent with this command. */
    last(command) { return transport.sent.filter((message) => message.Command === command).pop(); },
    /** Answers the last message of `command` with a host response line (JSON text). */
    answer(command, fields) {
      const message = transport.last(command);
      transport.hooks.receive(JSON.stringify({ GUID: message.GUID, Status: "Success", ErrorCode: 200, ErrorMessage: "", Data: {}, ...fields }));
    }
  };
  return transport;
}

/** Apache Commons StringEscapeUtils.escapeEcmaScript, which StoryContent Android uses for the handler call. */
function escapeEcmaScript(text) {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0);
    const escapes = { "'": "\\'", "\"": "\\\"", "\\": "\\\\", "/": "\\/", "\b": "\\b", "\n": "\\n", "\t": "\\t", "\f": "\\f", "\r": "\\r" };
    if (escapes[char]) {
      out += escapes[char];
    } else if (code < 0x20 || code > 0x7e) {
      const units = code > 0xffff ? [0xd800 + ((code - 0x10000) >> 10), 0xdc00 + ((code - 0x10000) & 0x3ff)] : [code];
      out += units.map((unit) => "\\u" + unit.toString(16).toUpperCase().padStart(4, "0")).join("");
    } else {
      out += char;
    }
  }
  return out;
}

/** The timers of every simulated page still open; closeSimulatedWebViews() clears them. */
const pageTimers = new Set();

/**
 * A setTimeout for a simulated page: its timers are tracked so that a call left pending (storyclm.js waits
 * 35 s by default before it gives up) does not keep the test file's process alive after its last test.
 */
function trackedSetTimeout(callback, ms, ...args) {
  const timer = setTimeout(() => { pageTimers.delete(timer); callback(...args); }, ms);
  pageTimers.add(timer);
  return timer;
}

function trackedClearTimeout(timer) {
  pageTimers.delete(timer);
  clearTimeout(timer);
}

/** Clears the simulated pages' pending timers: a test file's `test.after` hook, once its pages are done. */
function closeSimulatedWebViews() {
  for (const timer of pageTimers) { clearTimeout(timer); }
  pageTimers.clear();
}

/**
 * A page in a simulated StoryContent WebView: storyclm.js runs in its own JS context with a fake
 * window and document. Setting an iframe's src to storyclm:SCLM_QUEUE is intercepted as the app's
 * navigation delegate does: the app evaluates StoryCLMBridge.GetQueue(), hands each message to
 * `answer(message)`, and calls StoryCLMBridge.StoryCLMHandler('<escaped json>') for each reply.
 */
function simulatedWebView({ answer = () => undefined, location = { protocol: "file:", host: "", pathname: "/index.html", search: "" }, extra = {} } = {}) {
  const received = [];
  const pings = [];
  const appended = [];
  const evaluated = [];
  const context = {
    console, setTimeout: trackedSetTimeout, clearTimeout: trackedClearTimeout, TextEncoder, TextDecoder, btoa, atob, crypto: globalThis.crypto,
    location: { ...location, assign(url) { context.navigations.push(url); } },
    navigations: [], opened: [],
    open(url, target) { context.opened.push([url, target]); },
    ...extra
  };
  function element(tag) {
    const node = { tagName: tag.toUpperCase(), style: {}, attributes: {}, parentNode: null, srcHistory: [] };
    node.setAttribute = (name, value) => { node.attributes[name] = value; };
    Object.defineProperty(node, "src", {
      get() { return node.srcHistory[node.srcHistory.length - 1]; },
      set(url) { node.srcHistory.push(url); if (node.tagName === "IFRAME") { navigate(url); } }
    });
    return node;
  }
  const documentElement = {
    appendChild(node) { node.parentNode = documentElement; appended.push(node); return node; }
  };
  context.document = { documentElement, createElement: element };
  context.window = context;
  vm.createContext(context);
  vm.runInContext(fs.readFileSync(LIBRARY, "utf8"), context, { filename: "storyclm.js" });

  function evaluate(source) {
    evaluated.push(source);
    return vm.runInContext(source, context);
  }

  function deliver(reply) {
    evaluate("StoryCLMBridge.StoryCLMHandler('" + escapeEcmaScript(JSON.stringify(reply)) + "')");
  }

  function navigate(url) {
    pings.push(url);
    if (url !== "storyclm:SCLM_QUEUE") { return; }
    trackedSetTimeout(() => {
      const queue = JSON.parse(evaluate("StoryCLMBridge.GetQueue()"));
      for (const message of queue) {
        received.push(message);
        const reply = answer(message);
        if (reply && message.GUID) {
          deliver({ GUID: message.GUID, Status: "Success", ErrorCode: 200, ErrorMessage: "", Data: {}, ...reply });
        }
      }
    }, 0);
  }

  return { context, received, pings, appended, evaluated, evaluate, deliver, StoryCLM: context.StoryCLM, StoryCLMBridge: context.StoryCLMBridge };
}

/** Resolves after `ms` milliseconds. */
function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `predicate` until it is truthy (or fails after `timeout` ms). */
async function until(predicate, timeout = 5000, what = "condition") {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await predicate();
    if (value) { return value; }
    if (Date.now() > deadline) { throw new Error("timed out waiting for " + what); }
    await delay(10);
  }
}

/**
 * Starts a server process whose first stdout line is its URL (host.js, the dev-server) and resolves
 * with {url, child, output, stop()} once that line is out. stop() sends SIGTERM and resolves with the exit code.
 */
function startServer(program, args, { env = process.env, timeout = 30000 } = {}) {
  const childProcess = require("child_process");
  const child = childProcess.spawn(program, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const output = { stdout: "", stderr: "" };
  child.stderr.on("data", (chunk) => { output.stderr += chunk; });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve(code === null ? signal : code)));
  let started = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`${program} printed no URL: ${output.stderr}`)); }, timeout);
    child.stdout.on("data", (chunk) => {
      output.stdout += chunk;
      const newline = output.stdout.indexOf("\n");
      if (newline >= 0 && !started) {
        started = true;
        clearTimeout(timer);
        resolve({
          url: output.stdout.slice(0, newline).trim(), child, output, exited,
          stop: () => { child.kill("SIGTERM"); return exited; }
        });
      }
    });
    exited.then((code) => { clearTimeout(timer); reject(new Error(`${program} exited (${code}) before printing its URL: ${output.stderr}`)); });
  });
}

/** The Python interpreter itself (a pyenv shim does not pass SIGTERM on to the server it starts). */
function pythonExecutable() {
  const childProcess = require("child_process");
  return childProcess.execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
}

/**
 * The sample decks assembled into complete packages (sample-content/tools/assemble.py, a no-op when they are
 * up to date): the folder's path, `.build/sample-content`. Read decks there, never in sample-content/.
 */
function assembledSamples() {
  const childProcess = require("child_process");
  const result = childProcess.spawnSync("python3", [path.join(REPO, "sample-content", "tools", "assemble.py")], { encoding: "utf8" });
  if (result.status !== 0) { throw new Error(`assembling the sample decks failed: ${result.stderr || result.error}`); }
  return result.stdout.trim();
}

module.exports = { LIBRARY, REPO, recordingTransport, escapeEcmaScript, simulatedWebView, closeSimulatedWebViews, delay, until, startServer, pythonExecutable, assembledSamples };
