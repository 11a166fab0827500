"use strict";
// Headless Chromium driven through the DevTools protocol (over bridge-js/websocket.js), and a PNG
// decoder to look at its screenshots. Node built-ins only.
const childProcess = require("child_process");
const fs = require("fs");
const http = require("http");
const os = require("os");
const path = require("path");
const zlib = require("zlib");
const { connectWebSocket } = require("../websocket.js");
const { until } = require("./support.js");

/** The Chromium binary (Debian's package, else one on PATH), or null. */
function findChromium() {
  const candidates = ["/usr/lib/chromium/chromium"];
  for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
    for (const folder of (process.env.PATH || "").split(path.delimiter)) { candidates.push(path.join(folder, name)); }
  }
  return candidates.find((candidate) => {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return true;
    } catch (error) {
      return false;
    }
  }) || null;
}

function getJSON(url) {
  return new Promise((resolve, reject) => {
    http.get(url, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => { text += chunk; });
      response.on("end", () => {
        try { resolve(JSON.parse(text)); } catch (error) { reject(error); }
      });
    }).on("error", reject);
  });
}

/**
 * Starts headless Chromium with a fresh profile in `folder` and attaches to its first page.
 * Returns {send(method, params), evaluate(expression), on(event, fn), close()}.
 */
async function launchChromium(binary, folder) {
  const profile = fs.mkdtempSync(path.join(folder, "chromium-profile-"));
  const args = ["--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
    "--hide-scrollbars", "--mute-audio", "--window-size=1024,768", "--remote-debugging-port=0", `--user-data-dir=${profile}`, "about:blank"];
  if (process.getuid && process.getuid() === 0) { args.unshift("--no-sandbox"); }
  const child = childProcess.spawn(binary, args, { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  child.stderr.on("data", (chunk) => { log = (log + chunk).slice(-4000); });
  const portFile = path.join(profile, "DevToolsActivePort");
  try {
    await until(() => fs.existsSync(portFile) && fs.readFileSync(portFile, "utf8").includes("\n"), 30000, "Chromium's DevTools port");
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`Chromium did not start: ${log}`);
  }
  const port = Number(fs.readFileSync(portFile, "utf8").split("\n")[0]);
  const targets = await until(async () => (await getJSON(`http://127.0.0.1:${port}/json/list`)).filter((target) => target.type === "page"), 10000, "a page target");
  const socket = await connectWebSocket(targets[0].webSocketDebuggerUrl);
  let nextId = 0;
  const waiting = new Map();
  const listeners = [];
  socket.on("message", (text) => {
    const message = JSON.parse(text);
    if (message.id !== undefined && waiting.has(message.id)) {
      const { resolve, reject } = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error) { reject(new Error(`${message.error.message} (${message.error.code})`)); } else { resolve(message.result); }
    } else if (message.method) {
      for (const [method, listener] of listeners) { if (method === message.method) { listener(message.params); } }
    }
  });

  function send(method, params = {}) {
    return new Promise((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** The value of `expression` in the page (awaiting a Promise); throws the page's exception. */
  async function evaluate(expression) {
    const result = await send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
    if (result.exceptionDetails) {
      throw new Error(`page error: ${result.exceptionDetails.exception ? result.exceptionDetails.exception.description : result.exceptionDetails.text}`);
    }
    return result.result.value;
  }

  async function close() {
    socket.close();
    child.kill("SIGTERM");
    await new Promise((resolve) => {
      const timer = setTimeout(() => { child.kill("SIGKILL"); resolve(); }, 5000);
      child.once("exit", () => { clearTimeout(timer); resolve(); });
    });
  }

  await send("Page.enable");
  await send("Runtime.enable");
  // The iPad's 1024×768, the size CLM slides are made for.
  await send("Emulation.setDeviceMetricsOverride", { width: 1024, height: 768, deviceScaleFactor: 1, mobile: false });
  return { send, evaluate, on: (method, listener) => listeners.push([method, listener]), close, log: () => log };
}

/** Decodes an 8-bit RGB or RGBA PNG into {width, height, channels, pixels}. */
function decodePNG(buffer) {
  if (!buffer.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) { throw new Error("not a PNG"); }
  let offset = 8;
  let header = null;
  const data = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString("latin1", offset + 4, offset + 8);
    const body = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth: body[8], colour: body[9], interlace: body[12] };
    } else if (type === "IDAT") {
      data.push(body);
    }
    offset += 12 + length;
  }
  if (!header || header.depth !== 8 || ![2, 6].includes(header.colour) || header.interlace !== 0) {
    throw new Error(`unsupported PNG: ${JSON.stringify(header)}`);
  }
  const channels = header.colour === 6 ? 4 : 3;
  const stride = header.width * channels;
  const raw = zlib.inflateSync(Buffer.concat(data));
  const pixels = Buffer.alloc(stride * header.height);
  for (let row = 0; row < header.height; row++) {
    const filter = raw[row * (stride + 1)];
    const line = raw.subarray(row * (stride + 1) + 1, (row + 1) * (stride + 1));
    const out = pixels.subarray(row * stride, (row + 1) * stride);
    const above = row > 0 ? pixels.subarray((row - 1) * stride, row * stride) : Buffer.alloc(stride);
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? out[i - channels] : 0;
      const up = above[i];
      const upLeft = i >= channels ? above[i - channels] : 0;
      let predictor = 0;
      if (filter === 1) { predictor = left; } else if (filter === 2) { predictor = up; } else if (filter === 3) {
        predictor = (left + up) >> 1;
      } else if (filter === 4) {
        const estimate = left + up - upLeft;
        const [a, b, c] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
        predictor = a <= b && a <= c ? left : b <= c ? up : upLeft;
      }
      out[i] = (line[i] + predictor) & 0xff;
    }
  }
  return { width: header.width, height: header.height, channels, pixels };
}

/** The variance of the luminance and the number of distinct colours of a decoded image. */
function imageStatistics({ width, height, channels, pixels }) {
  let sum = 0;
  let squares = 0;
  const colours = new Set();
  const count = width * height;
  for (let i = 0; i < count; i++) {
    const at = i * channels;
    const luminance = 0.2126 * pixels[at] + 0.7152 * pixels[at + 1] + 0.0722 * pixels[at + 2];
    sum += luminance;
    squares += luminance * luminance;
    if (colours.size < 10000) { colours.add((pixels[at] << 16) | (pixels[at + 1] << 8) | pixels[at + 2]); }
  }
  const mean = sum / count;
  return { variance: squares / count - mean * mean, colours: colours.size };
}

/** A temporary folder for one test. */
function temporaryFolder(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

module.exports = { findChromium, launchChromium, decodePNG, imageStatistics, temporaryFolder };
