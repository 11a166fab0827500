"use strict";
// The sample decks ship this library: every copy must be the current storyclm.js, and every slide
// that runs deck.js (which calls StoryCLM.*) must load storyclm.js before it.
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const path = require("path");
const { LIBRARY, REPO } = require("./support.js");

const SAMPLES = path.join(REPO, "sample-content");

function decks() {
  return fs.readdirSync(SAMPLES).filter((name) => fs.existsSync(path.join(SAMPLES, name, "presentation.json"))).sort();
}

test("every deck with StoryCLM calls ships the current storyclm.js", () => {
  const library = fs.readFileSync(LIBRARY);
  let checked = 0;
  for (const deck of decks()) {
    const deckScript = path.join(SAMPLES, deck, "js", "deck.js");
    if (!fs.existsSync(deckScript)) { continue; }
    assert.match(fs.readFileSync(deckScript, "utf8"), /StoryCLM\./, deck);
    const copy = path.join(SAMPLES, deck, "js", "storyclm.js");
    assert.ok(fs.existsSync(copy), `${deck} has no js/storyclm.js`);
    assert.ok(library.equals(fs.readFileSync(copy)),
      `${deck}/js/storyclm.js differs from bridge-js/storyclm.js: run  for d in sample-content/*/js; do cp bridge-js/storyclm.js "$d/"; done`);
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

// Packages are self-contained, so each deck carries its own deck.js too; the copies must not drift apart.
test("every deck ships the same deck.js", () => {
  const copies = decks().map((deck) => path.join(SAMPLES, deck, "js", "deck.js")).filter((file) => fs.existsSync(file));
  assert.ok(copies.length >= 3, "at least three decks run deck.js");
  const first = fs.readFileSync(copies[0]);
  for (const copy of copies.slice(1)) {
    assert.ok(first.equals(fs.readFileSync(copy)),
      `${path.relative(REPO, copy)} differs from ${path.relative(REPO, copies[0])}: edit one, then copy it to every deck's js/`);
  }
});
