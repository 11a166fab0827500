#!/usr/bin/env node
"use strict";
// Browser preview of an installed presentation: runs `sclm bridge`, serves the presentation's files on
// 127.0.0.1 and relays the page's StoryCLM calls to the bridge over a WebSocket. Node built-ins only.
const childProcess = require("child_process");
const fs = require("fs");
const http = require("http");
const os = require("os");
const path = require("path");
const { transports } = require("./storyclm.js");
const { acceptWebSocket } = require("./websocket.js");

const USAGE = `Usage: node bridge-js/host.js --presentation ID [options] [-- sclm-bridge-arguments…]

Preview an installed presentation in a browser. Starts \`sclm bridge --presentation ID\`, serves the
presentation's files on 127.0.0.1 and prints the URL to open (the first line on stdout). The slides'
own storyclm.js finds the host's relay at /.sclm/bridge and sends its StoryCLM calls through it; the
host follows the bridge's events as a StoryCLM app does: slideChanged loads the slide, presentationClosed
shows a notice, mediaFileOpened opens the file. Following a link to another slide, or opening a
slide's URL, tells the bridge (go/open), so sessions record the slides seen.

Options:
  --presentation ID   the installed presentation to open (required)
  --home DIR          sclm home (default: $SCLM_HOME, else $XDG_DATA_HOME/sclm or ~/.local/share/sclm)
  --sclm PATH         the sclm executable (default: $SCLM_BIN, else this checkout's .build/{release,debug}/sclm,
                      else sclm on PATH)
  --slide NAME        the slide to start on (default: index.html, or where an unfinished session stopped)
  --port N            port on 127.0.0.1 (default 0: a free port)
  --quiet             do not log events and requests on stderr
  --exit-with-parent  stop when the process that started the host exits (for test harnesses)
  -h, --help          this help

Ctrl-C stops the host; the bridge then ends with the session left unfinished, so the next preview
resumes it (close the presentation from the content, StoryCLM.Presentation.Close(1), to complete it).`;

const RELAY_PATH = "/.sclm/bridge";
const MIME_TYPES = {
  ".html": "text/html; charset=utf-8", ".htm": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8", ".json": "application/json",
  ".txt": "text/plain; charset=utf-8", ".xml": "application/xml", ".csv": "text/csv; charset=utf-8",
  ".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
  ".webp": "image/webp", ".ico": "image/x-icon", ".pdf": "application/pdf", ".mp4": "video/mp4", ".m4v": "video/mp4",
  ".webm": "video/webm", ".mov": "video/quicktime", ".mp3": "audio/mpeg", ".m4a": "audio/mp4", ".wav": "audio/wav",
  ".ogg": "audio/ogg", ".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf", ".otf": "font/otf"
};

class UsageError extends Error {}

/** Parses the command line into options; throws UsageError with a message for the user. */
function parseArguments(argv) {
  const options = { port: 0, quiet: false, exitWithParent: false, bridgeArgs: [] };
  const valued = { "--presentation": "presentation", "--home": "home", "--sclm": "sclm", "--slide": "slide", "--port": "port" };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    const [name, inline] = argument.startsWith("--") && argument.includes("=") ? argument.split(/=(.*)/s) : [argument, undefined];
    if (name === "--") {
      options.bridgeArgs = argv.slice(i + 1);
      break;
    } else if (name === "-h" || name === "--help") {
      options.help = true;
    } else if (name === "--quiet") {
      options.quiet = true;
    } else if (name === "--exit-with-parent") {
      options.exitWithParent = true;
    } else if (valued[name]) {
      const value = inline !== undefined ? inline : argv[++i];
      if (value === undefined || value === "") { throw new UsageError(`${name} needs a value`); }
      options[valued[name]] = value;
    } else {
      throw new UsageError(`unknown option ${argument}`);
    }
  }
  if (options.help) { return options; }
  if (!options.presentation) { throw new UsageError("missing --presentation ID: the installed presentation to preview (see `sclm list`)"); }
  if (!/^[1-9]\d*$/.test(options.presentation)) { throw new UsageError(`--presentation needs a presentation id, got '${options.presentation}'`); }
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) { throw new UsageError(`--port needs a port number (0–65535), got '${options.port}'`); }
  options.port = port;
  return options;
}

/** sclm's home as sclm resolves it. */
function resolveHome(explicit, env = process.env) {
  if (explicit) { return path.resolve(explicit); }
  if (env.SCLM_HOME) { return path.resolve(env.SCLM_HOME); }
  const data = env.XDG_DATA_HOME || path.join(os.homedir(), ".local", "share");
  return path.join(data, "sclm");
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch (error) {
    return false;
  }
}

/** The sclm executable: --sclm, $SCLM_BIN, this checkout's build, else "sclm" on PATH. */
function resolveSclm(explicit, env = process.env) {
  if (explicit) { return explicit; }
  if (env.SCLM_BIN) { return env.SCLM_BIN; }
  const repo = path.join(__dirname, "..");
  for (const configuration of ["release", "debug"]) {
    const built = path.join(repo, ".build", configuration, "sclm");
    if (isExecutable(built)) { return built; }
  }
  return "sclm";
}

/** The unpacked package of a presentation: `sclm content path ID` when sclm has it, else a scan of the home. */
function findSources(sclm, home, presentationId) {
  const answer = childProcess.spawnSync(sclm, ["--home", home, "content", "path", String(presentationId)], { encoding: "utf8", timeout: 10000 });
  if (answer.status === 0) {
    const line = answer.stdout.trim().split("\n").pop();
    if (line && isDirectory(line)) { return line; }
  }
  const content = path.join(home, "content");
  let clients = [];
  try { clients = fs.readdirSync(content); } catch (error) { return null; }
  for (const client of clients.sort()) {
    const sources = path.join(content, client, String(presentationId), "sources");
    if (isDirectory(sources)) { return sources; }
  }
  return null;
}

function isDirectory(folder) {
  try { return fs.statSync(folder).isDirectory(); } catch (error) { return false; }
}

/**
 * The real path of `relative` (URL path segments, already split) inside `root`, or null when it leaves
 * the folder (`..`, absolute, backslashes, NUL, symlinks pointing outside) or is not a regular file.
 */
function resolveInside(root, segments) {
  if (!segments.length) { return null; }
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === ".." || /[\\/\0]/.test(segment)) { return null; }
  }
  let realRoot;
  let real;
  try {
    realRoot = fs.realpathSync(root);
    real = fs.realpathSync(path.join(realRoot, ...segments));
  } catch (error) {
    return null;
  }
  if (!real.startsWith(realRoot + path.sep)) { return null; }
  try {
    return fs.statSync(real).isFile() ? real : null;
  } catch (error) {
    return null;
  }
}

function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[char]);
}

function noticePage(title, body) {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHTML(title)}</title>
<style>body{font:18px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;height:100vh;background:#f4f5f7;color:#1a1a2e}
main{background:#fff;padding:32px 40px;border-radius:12px;box-shadow:0 2px 12px #0002;max-width:560px}h1{font-size:24px;margin:0 0 12px}
a{color:#0b5cad}</style></head><body><main><h1>${escapeHTML(title)}</h1>${body}</main></body></html>`;
}

/** The preview host: one sclm bridge, one HTTP server, any number of pages. */
class PreviewHost {
  constructor(options) {
    this.options = options;
    this.home = resolveHome(options.home);
    this.sclm = resolveSclm(options.sclm);
    this.log = options.quiet ? () => {} : (line) => process.stderr.write(`host: ${line}\n`);
    this.pages = new Set();
    this.owners = new Map();
    this.sources = new Map();
    this.presentationId = null;
    this.slide = null;
    this.pendingSlide = null;
    this.closedNotice = null;
    this.mediaRequester = null;
    this.hostRequests = 0;
    this.bridgeEnded = false;
  }

  /** Starts the bridge and the server; resolves with the URL once the presentation is open. */
  async start() {
    const opened = new Promise((resolve, reject) => { this.openedOrFailed = { resolve, reject }; });
    this.bridge = transports.stdio({
      sclm: this.sclm, home: this.home, presentation: this.options.presentation, slide: this.options.slide,
      args: this.options.bridgeArgs, stderr: (line) => process.stderr.write(line + "\n")
    });
    this.bridge.start({
      receive: (line) => this.fromBridge(line),
      closed: (reason) => this.bridgeClosed(reason),
      replace: () => {},
      queue: []
    });
    await opened;
    this.server = http.createServer((request, response) => this.serve(request, response));
    this.server.on("upgrade", (request, socket, head) => this.upgrade(request, socket, head));
    await new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.options.port, "127.0.0.1", resolve);
    });
    this.port = this.server.address().port;
    this.url = `http://127.0.0.1:${this.port}/`;
    return this.url;
  }

  /** Ends the bridge (the session stays unfinished) and the server. Resolves with the bridge's exit. */
  async stop() {
    for (const page of this.pages) { page.connection.close(1001, "preview host stopping"); }
    if (this.server) {
      this.server.close();
      this.server.closeAllConnections();
    }
    return this.bridge.close(10000);
  }

  // ---- Bridge → pages ------------------------------------------------------------------------------

  fromBridge(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch (error) {
      this.log(`ignoring a bridge line that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    if (typeof message.Event === "string") {
      for (const page of this.pages) { page.connection.send(line); }
      this.followEvent(message.Event, message.Data || {});
      return;
    }
    const guid = message.GUID;
    if (typeof guid === "string" && guid.startsWith("sclm-host-")) {
      if (message.ErrorCode < 200 || message.ErrorCode >= 300) {
        this.pendingSlide = null;
        this.log(`bridge refused the host's request: ${message.ErrorCode} ${message.ErrorMessage}`);
      }
      return;
    }
    const owner = typeof guid === "string" ? this.owners.get(guid) : undefined;
    if (owner) {
      this.owners.delete(guid);
      owner.connection.send(line);
    } else if (guid === null) {
      this.log(`bridge rejected a message: ${message.ErrorCode} ${message.ErrorMessage}`);
    }
  }

  followEvent(name, data) {
    this.log(`event ${name} ${JSON.stringify(data)}`);
    switch (name) {
    case "presentationOpened":
      this.presentationId = String(data.presId);
      this.pendingSlide = null;
      this.closedNotice = null;
      if (this.openedOrFailed) { this.openedOrFailed.resolve(); }
      break;
    case "slideChanged":
      this.slide = data.slide;
      if (this.pendingSlide === data.slide) { this.pendingSlide = null; }
      this.navigatePages(this.slideURL(this.presentationId, data.slide));
      break;
    case "presentationClosed":
      this.closedNotice = data;
      this.presentationId = null;
      this.slide = null;
      this.navigatePages(`/.sclm/closed?presId=${encodeURIComponent(data.presId)}`);
      break;
    case "mediaFileOpened":
      this.openInRequester(`/${encodeURIComponent(data.presId)}/mediafiles/${String(data.name).split("/").map(encodeURIComponent).join("/")}`);
      break;
    case "mediaLibraryOpened":
      this.openInRequester(`/.sclm/media?presId=${encodeURIComponent(data.presId)}`);
      break;
    default:
      break;
    }
  }

  slideURL(presentationId, slide) {
    return `/${presentationId}/${encodeURIComponent(slide)}`;
  }

  /** Sends every page not already showing `url` there (what a WebView app does on slideChanged). */
  navigatePages(url) {
    for (const page of this.pages) {
      if (page.path !== url) { page.connection.send(JSON.stringify({ Relay: "navigate", url })); }
    }
  }

  openInRequester(url) {
    const page = this.mediaRequester && this.pages.has(this.mediaRequester) ? this.mediaRequester : [...this.pages].pop();
    if (page) { page.connection.send(JSON.stringify({ Relay: "open", url })); }
  }

  bridgeClosed(reason) {
    this.bridgeEnded = true;
    if (this.openedOrFailed) { this.openedOrFailed.reject(new Error(reason)); }
    for (const page of this.pages) { page.connection.close(1011, "sclm bridge ended"); }
    if (this.onBridgeEnded) { this.onBridgeEnded(reason); }
  }

  // ---- Pages → bridge ------------------------------------------------------------------------------

  upgrade(request, socket, head) {
    const url = new URL(request.url, "http://127.0.0.1");
    const origin = request.headers.origin;
    if (url.pathname !== RELAY_PATH || !this.isLocalHost(request.headers.host) || (origin && origin !== `http://${request.headers.host}`)) {
      socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const connection = acceptWebSocket(request, socket, head);
    if (!connection) { return; }
    const page = { connection, path: null };
    this.pages.add(page);
    connection.on("message", (text) => this.fromPage(page, text));
    connection.on("close", () => {
      this.pages.delete(page);
      for (const [guid, owner] of this.owners) { if (owner === page) { this.owners.delete(guid); } }
    });
    connection.on("error", () => {});
  }

  fromPage(page, text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch (error) {
      page.connection.send(JSON.stringify({ GUID: null, Status: "Failure", ErrorCode: 400, ErrorMessage: "malformed JSON from the page", Data: null }));
      return;
    }
    if (message && typeof message === "object" && !Array.isArray(message) && message.Relay === "hello") {
      page.path = typeof message.page === "string" ? message.page : null;
      if (page.path) { this.pageShown(page.path); }
      return;
    }
    for (const item of Array.isArray(message) ? message : [message]) {
      if (!item || typeof item !== "object") { continue; }
      const guid = item.GUID ?? item.guid ?? item.Guid;
      if (typeof guid === "string" && !guid.startsWith("sclm-host-")) { this.owners.set(guid, page); }
      const command = String(item.Command ?? item.command ?? "").trim();
      if (command === "openMediaFile" || command === "openMediaLibrary") { this.mediaRequester = page; }
    }
    this.toBridge(message);
  }

  toBridge(message) {
    try {
      this.bridge.send(message);
    } catch (error) {
      this.log(`could not reach sclm bridge: ${error.message}`);
    }
  }

  /**
   * A page for `urlPath` was loaded (a document request or a relay hello): as a WebView app sees a
   * navigation, the bridge is told of a slide change (go) or another presentation (open).
   */
  pageShown(urlPath) {
    const match = /^\/([1-9]\d*)\/([^/]+\.html?)$/.exec(urlPath);
    if (!match || this.bridgeEnded) { return; }
    const [, presentationId, encoded] = match;
    let slide;
    try { slide = decodeURIComponent(encoded); } catch (error) { return; }
    const guid = `sclm-host-${++this.hostRequests}`;
    if (presentationId !== this.presentationId) {
      if (this.pendingSlide === `${presentationId}/${slide}`) { return; }
      this.pendingSlide = `${presentationId}/${slide}`;
      this.toBridge({ Command: "open", Data: { presId: Number(presentationId), slideName: slide, data: {} }, GUID: guid });
    } else if (slide !== (this.pendingSlide || this.slide)) {
      this.pendingSlide = slide;
      this.toBridge({ Command: "go", Data: { slideName: slide, data: {} }, GUID: guid });
    }
  }

  // ---- HTTP ----------------------------------------------------------------------------------------

  isLocalHost(host) {
    return host === `127.0.0.1:${this.port}` || host === `localhost:${this.port}`;
  }

  serve(request, response) {
    response.setHeader("Cache-Control", "no-store");
    response.setHeader("X-Content-Type-Options", "nosniff");
    if (!this.isLocalHost(request.headers.host)) {
      return this.plain(response, 403, "forbidden: open the preview through its printed 127.0.0.1 URL\n");
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.setHeader("Allow", "GET, HEAD");
      return this.plain(response, 405, "method not allowed\n");
    }
    const url = new URL(request.url, `http://${request.headers.host}`);
    if (!this.options.quiet) { this.log(`${request.method} ${url.pathname}`); }
    if (url.pathname === "/") {
      const target = this.presentationId ? this.slideURL(this.presentationId, this.slide) : `/.sclm/closed`;
      response.writeHead(302, { Location: target });
      return response.end();
    }
    if (url.pathname === "/.sclm/status") { return this.json(response, this.status()); }
    if (url.pathname === "/.sclm/closed") { return this.html(response, 200, this.closedPage()); }
    if (url.pathname === "/.sclm/media") { return this.mediaPage(response, url.searchParams.get("presId")); }
    return this.serveFile(request, response, url.pathname);
  }

  status() {
    return {
      presentationId: this.presentationId === null ? null : Number(this.presentationId),
      slide: this.slide,
      closed: this.closedNotice,
      pages: [...this.pages].map((page) => page.path),
      bridgeRunning: !this.bridgeEnded
    };
  }

  sourcesOf(presentationId) {
    if (!this.sources.has(presentationId)) {
      const found = findSources(this.sclm, this.home, presentationId);
      if (!found) { return null; }
      this.sources.set(presentationId, found);
    }
    return this.sources.get(presentationId);
  }

  serveFile(request, response, pathname) {
    const parts = pathname.split("/").slice(1);
    const presentationId = parts.shift();
    let segments;
    try {
      segments = parts.map((part) => decodeURIComponent(part));
    } catch (error) {
      return this.plain(response, 400, "bad URL encoding\n");
    }
    const root = /^[1-9]\d*$/.test(presentationId) ? this.sourcesOf(presentationId) : null;
    const file = root ? resolveInside(root, segments) : null;
    if (!file) { return this.plain(response, 404, "not found\n"); }
    if (request.headers["sec-fetch-dest"] === "document" && segments.length === 1) {
      this.pageShown(`/${presentationId}/${encodeURIComponent(segments[0])}`);
    }
    this.sendFile(request, response, file);
  }

  sendFile(request, response, file) {
    const size = fs.statSync(file).size;
    const type = MIME_TYPES[path.extname(file).toLowerCase()] || "application/octet-stream";
    let start = 0;
    let end = size - 1;
    let status = 200;
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range || "");
    if (range && (range[1] || range[2])) {
      if (range[1]) {
        start = Number(range[1]);
        end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      } else {
        start = Math.max(0, size - Number(range[2]));
      }
      if (start >= size || start > end) {
        response.writeHead(416, { "Content-Range": `bytes */${size}` });
        return response.end();
      }
      status = 206;
      response.setHeader("Content-Range", `bytes ${start}-${end}/${size}`);
    }
    response.writeHead(status, { "Content-Type": type, "Content-Length": size === 0 ? 0 : end - start + 1, "Accept-Ranges": "bytes" });
    if (request.method === "HEAD" || size === 0) { return response.end(); }
    const stream = fs.createReadStream(file, { start, end });
    stream.on("error", () => response.destroy());
    stream.pipe(response);
  }

  closedPage() {
    const notice = this.closedNotice;
    if (!notice) {
      return noticePage("No presentation is open", `<p><a href="/">Back to the presentation</a></p>`);
    }
    const states = { 1: "The session was saved as complete.", 2: "The session was marked as a test.", 3: "The session was left for another presentation." };
    const reopen = `/${encodeURIComponent(notice.presId)}/index.html`;
    return noticePage("Presentation closed",
      `<p><strong>${escapeHTML(notice.name || "Presentation " + notice.presId)}</strong> was closed by the content` +
      `${notice.mode === null || notice.mode === undefined ? "" : ` (mode ${escapeHTML(notice.mode)})`}.</p>` +
      `<p>${escapeHTML(states[notice.state] || "")}</p><p><a href="${escapeHTML(reopen)}">Open it again</a></p>`);
  }

  mediaPage(response, presentationId) {
    const root = presentationId && /^[1-9]\d*$/.test(presentationId) ? this.sourcesOf(presentationId) : null;
    if (!root) { return this.plain(response, 404, "not found\n"); }
    let names = [];
    try { names = fs.readdirSync(path.join(root, "mediafiles")).filter((name) => !name.startsWith(".")).sort(); } catch (error) { names = []; }
    const items = names.map((name) => `<li><a href="/${presentationId}/mediafiles/${encodeURIComponent(name)}">${escapeHTML(name)}</a></li>`).join("");
    return this.html(response, 200, noticePage(`Media library of presentation ${presentationId}`, items ? `<ul>${items}</ul>` : "<p>No media files.</p>"));
  }

  plain(response, status, text) {
    response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" });
    response.end(text);
  }

  html(response, status, text) {
    response.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
    response.end(text);
  }

  json(response, value) {
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(JSON.stringify(value));
  }
}

/** Stops the host when its parent process goes away (the parent id changes when it exits). */
function watchParent(stop) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      stop();
    }
  }, 500);
  timer.unref();
}

async function main(argv) {
  let options;
  try {
    options = parseArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) { throw error; }
    process.stderr.write(`error: ${error.message}\n\n${USAGE}\n`);
    return 64;
  }
  if (options.help) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  const host = new PreviewHost(options);
  let url;
  try {
    url = await host.start();
  } catch (error) {
    process.stderr.write(`error: the preview could not start: ${error.message}\n`);
    return host.bridgeEnded ? 1 : 70;
  }
  process.stdout.write(url + "\n");
  host.log(`previewing presentation ${host.presentationId} from ${host.sourcesOf(host.presentationId) || "(folder not found)"}; open ${url}`);
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (code) => {
      if (stopping) { return; }
      stopping = true;
      host.stop().then(() => resolve(code), () => resolve(code));
    };
    host.onBridgeEnded = (reason) => {
      if (!stopping) {
        process.stderr.write(`error: ${reason}\n`);
        stop(1);
      }
    };
    process.on("SIGINT", () => stop(0));
    process.on("SIGTERM", () => stop(0));
    if (options.exitWithParent) { watchParent(() => stop(0)); }
  });
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (error) => {
    process.stderr.write(`internal error: ${error.stack || error}\n`);
    process.exit(70);
  });
}

module.exports = { PreviewHost, parseArguments, resolveHome, resolveSclm, resolveInside, findSources, main };
