"use strict";
// The sample decks ship this library: sample-content/tools/assemble.py adds it (and the decks' shared
// js/deck.js, which calls StoryCLM.*) to every deck that lists it, so each assembled package carries the
// current storyclm.js, and every slide that runs deck.js loads storyclm.js before it. The assembly itself
// (one source per file, complete decks, idempotence) is tested in dev-server/tests/test_samples.py.
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const path = require("path");
const { LIBRARY, REPO, assembledSamples } = require("./support.js");

const SAMPLES = assembledSamples();

function decks() {
  return fs.readdirSync(SAMPLES).filter((name) => fs.existsSync(path.join(SAMPLES, name, "presentation.json"))).sort();
}

test("every assembled deck with StoryCLM calls carries this storyclm.js and the shared deck.js", () => {
  const library = fs.readFileSync(LIBRARY);
  const deckSource = fs.readFileSync(path.join(REPO, "sample-content", "shared", "js", "deck.js"));
  let checked = 0;
  for (const deck of decks()) {
    const deckScript = path.join(SAMPLES, deck, "js", "deck.js");
    if (!fs.existsSync(deckScript)) { continue; }
    assert.ok(deckSource.equals(fs.readFileSync(deckScript)), `${deck}/js/deck.js is not sample-content/shared/js/deck.js`);
    assert.match(deckSource.toString("utf8"), /StoryCLM\./, deck);
    const copy = path.join(SAMPLES, deck, "js", "storyclm.js");
    assert.ok(fs.existsSync(copy), `${deck} has no js/storyclm.js: list it under "shared" in its presentation.json`);
    assert.ok(library.equals(fs.readFileSync(copy)), `${deck}/js/storyclm.js is not bridge-js/storyclm.js`);
    checked += 1;
  }
  assert.ok(checked >= 3, "at least three decks call StoryCLM");
});

test("every slide loads js/storyclm.js before js/deck.js", () => {
  for (const deck of decks()) {
    for (const name of fs.readdirSync(path.join(SAMPLES, deck)).filter((file) => file.endsWith(".html"))) {
      const html = fs.readFileSync(path.join(SAMPLES, deck, name), "utf8");
      const deckScript = html.indexOf('<script src="js/deck.js"></script>');
      if (deckScript < 0) { continue; }
      const library = html.indexOf('<script src="js/storyclm.js"></script>');
      assert.ok(library >= 0 && library < deckScript, `${deck}/${name} must load js/storyclm.js before js/deck.js`);
    }
  }
});
