/*
 * Deck behaviour shared by every slide: keyboard and swipe navigation along the slide's
 * clm-swipe-next / clm-swipe-previous meta tags (what storyCLMNavigation.js does in StoryCLM decks).
 *
 * StoryCLM bridge: the bridge-js work adds js/storyclm.js (loaded before this file by each slide)
 * and the StoryCLM API calls — navigation through StoryCLM.Go, custom events, sessions, HTTP,
 * media files and OSAM. They belong in the marked section at the end of this file.
 */
(function () {
  "use strict";

  function swipeTarget(name) {
    var meta = document.querySelector('meta[name="' + name + '"]');
    return meta ? meta.getAttribute("content") : "";
  }

  function go(name) {
    var target = swipeTarget(name);
    if (target) {
      window.location.href = target;
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight") { go("clm-swipe-next"); }
    if (event.key === "ArrowLeft") { go("clm-swipe-previous"); }
  });

  var startX = null;
  document.addEventListener("touchstart", function (event) {
    startX = event.touches[0].clientX;
  }, { passive: true });
  document.addEventListener("touchend", function (event) {
    if (startX === null) { return; }
    var distance = event.changedTouches[0].clientX - startX;
    startX = null;
    if (Math.abs(distance) > 60) {
      go(distance < 0 ? "clm-swipe-next" : "clm-swipe-previous");
    }
  });

  /* ---- StoryCLM API calls (bridge-js) go here ---- */
})();
