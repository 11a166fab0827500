"use strict";
// Test fixture: an sclm home with sample decks installed as `sclm sync` installs them — the rows in
// sclm.db (schema from `sclm status`, rows written with Python's sqlite3, slides ordered by the
// dev-server's own rules) and each assembled package unpacked in content/<client>/<presentation>/sources.
const childProcess = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { REPO, assembledSamples } = require("./support.js");

/** The decks of client 1 (101, 102, 103) and client 2 (201). */
const DECKS = ["cardiora-detail-aid", "respira-inhaler-training", "glucobalance-congress", "northwind-vaccination"];

const INSTALL = String.raw`
import datetime, json, mimetypes, pathlib, shutil, sqlite3, sys
home, repo, samples, *decks = sys.argv[1:]
sys.path.insert(0, str(pathlib.Path(repo, "dev-server")))
from devserver.slides import read_links, slide_order
samples = pathlib.Path(samples)
clients = {client["id"]: client for client in json.loads((samples / "clients.json").read_text())}
now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
db = sqlite3.connect(pathlib.Path(home, "sclm.db"))
with db:
    for deck in decks:
        folder = samples / deck
        meta = json.loads((folder / "presentation.json").read_text())
        pid, cid = meta["id"], meta["clientId"]
        db.execute("INSERT OR IGNORE INTO clients (clientId, name, synchronized) VALUES (?, ?, ?)", (cid, clients[cid]["name"], now))
        db.execute(
            'INSERT INTO presentations (presentationId, clientId, name, shortDescription, longDescription, "order", revision,'
            " needConfirmation, mapEnabled, syncState, installedRevision, installedAt, created, updatedDate)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 5, ?, ?, ?, ?)",
            (pid, cid, meta["name"], meta.get("shortDescription"), meta.get("longDescription"), meta.get("order", -1),
             meta["revision"], int(meta.get("needConfirmation", False)), int(meta.get("mapEnabled", True)),
             meta["revision"], now, meta.get("created"), meta.get("updated")))
        pages = {page.name: page.read_bytes() for page in folder.glob("*.html")}
        links = {name: read_links(html) for name, html in pages.items()}
        for position, name in enumerate(slide_order(links), start=1):
            db.execute(
                "INSERT INTO slides (slideId, presentationId, position, revision, name, linkedSlides, swipeNext, swipePrevious)"
                " VALUES (?, ?, ?, 0, ?, ?, ?, ?)",
                (pid * 100 + position, pid, position, name, links[name].linked, links[name].swipe_next, links[name].swipe_previous))
        for position, media in enumerate(meta.get("mediaFiles", []), start=1):
            file = folder / "mediafiles" / media["fileName"]
            db.execute(
                "INSERT INTO media_files (mediaFileId, presentationId, position, revision, fileName, title, mimeType, fileSize,"
                " isAvailableForSharing, installedRevision) VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, 0)",
                (media["id"], pid, position, media["fileName"], media.get("title", media["fileName"]),
                 mimetypes.guess_type(file.name)[0], file.stat().st_size, int(media.get("isAvailableForSharing", True))))
        target = pathlib.Path(home, "content", str(cid), str(pid), "sources")
        shutil.copytree(folder, target, ignore=shutil.ignore_patterns("presentation.json", ".*"))
`;

/**
 * Creates a home in a new temporary folder with `decks` installed and returns its path.
 * `sclm` creates the schema; nothing else of sclm is used, so the rows are what sync would write.
 */
function installedHome(sclm, decks = DECKS) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "sclm-bridgejs-"));
  const status = childProcess.spawnSync(sclm, ["--home", home, "status"], { encoding: "utf8" });
  if (status.status !== 0) { throw new Error(`sclm status failed: ${status.stderr || status.error}`); }
  const install = childProcess.spawnSync("python3", ["-c", INSTALL, home, REPO, assembledSamples(), ...decks], { encoding: "utf8" });
  if (install.status !== 0) { throw new Error(`installing the sample decks failed: ${install.stderr || install.error}`); }
  return home;
}

/**
 * Lets content in `home` send HTTP commands to `hosts` (`bridge.httpAllowedHosts`): by default the bridge
 * reaches public hosts only, and the tests' servers are on loopback.
 */
function allowHosts(sclm, home, hosts) {
  const set = childProcess.spawnSync(sclm, ["--home", home, "config", "set", "bridge.httpAllowedHosts", hosts], { encoding: "utf8" });
  if (set.status !== 0) { throw new Error(`sclm config set bridge.httpAllowedHosts failed: ${set.stderr || set.error}`); }
}

/** The sclm executable to test: $SCLM_BIN, else this checkout's debug or release build; null when none is built. */
function builtSclm() {
  const candidates = [process.env.SCLM_BIN, path.join(REPO, ".build", "debug", "sclm"), path.join(REPO, ".build", "release", "sclm")];
  for (const candidate of candidates) {
    if (candidate && fs.existsSync(candidate)) { return candidate; }
  }
  return null;
}

/**
 * The built sclm when it has the bridge command, else a reason to print when skipping.
 * Returns {sclm} or {skip}.
 */
function bridgeBinary() {
  const sclm = builtSclm();
  if (!sclm) { return { skip: "sclm is not built: run `swift build` (or set SCLM_BIN) to run the bridge integration tests" }; }
  const help = childProcess.spawnSync(sclm, ["bridge", "--help"], { encoding: "utf8" });
  if (help.status !== 0) { return { skip: `${sclm} has no bridge command: rebuild it with \`swift build\`` }; }
  return { sclm };
}

/** Removes a temporary home. */
function removeHome(home) {
  fs.rmSync(home, { recursive: true, force: true });
}

module.exports = { DECKS, installedHome, allowHosts, builtSclm, bridgeBinary, removeHome };
