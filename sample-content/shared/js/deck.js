/*
 * Deck behaviour shared by every slide of the sample presentations: the one source of js/deck.js,
 * added to each deck that lists it by sample-content/tools/assemble.py.
 *
 * Navigation goes through the StoryCLM bridge (js/storyclm.js, loaded before this file): arrow keys,
 * swipes along the slide's clm-swipe-next / clm-swipe-previous meta tags and the slide links call
 * StoryCLM.Go, so the app records the slide change; without an answer the page navigates itself.
 * The StoryCLM calls a real deck makes are here too:
 *   - every slide: presentation info and current slide name (shown in the footer);
 *   - the start slide: behind its "Check for updates" button, the OSAM checks (version control with its
 *     alert, then rating); and, when the app's navigation data names a backend ({"apiBase": URL}), an HTTP
 *     call to it through the app (StoryCLM.Http). Nothing at start-up needs the network or OSAM settings,
 *     so the deck plays clean in a home that has neither (a render's throwaway home, say);
 *   - [data-quiz] blocks: a tapped answer is stored as a custom event and read back;
 *   - links into mediafiles/: opened by the app's media viewer (StoryCLM.Mediafiles.OpenMediaFile);
 *   - the last slide (no clm-swipe-next): the session is marked complete.
 * What each call answered is written to data-clm-* attributes of <body> (used by the tests).
 */
(function () {
  "use strict";

  /** The demo app the OSAM checks and the HTTP call are about (see sample-content/osam.json). */
  var DEMO_APP = { package: "com.storyclm.sclm.demo", platform: "IOS", versionCode: 2024010100 };
  /** How long a slide change may take before the page navigates by itself. */
  var NAVIGATION_FALLBACK_MS = 1500;

  var clm = window.StoryCLM;
  var body = document.body;
  var slideName = decodeURIComponent(location.pathname.split("/").pop() || "index.html");
  var statusLine = null;

  function swipeTarget(name) {
    var meta = document.querySelector('meta[name="' + name + '"]');
    return meta ? meta.getAttribute("content") : "";
  }

  /** Records what a call answered on <body data-clm-NAME> and refreshes the footer line. */
  function mark(name, value) {
    body.setAttribute("data-clm-" + name, String(value));
    renderStatus();
  }

  function renderStatus() {
    if (!statusLine) {
      statusLine = document.createElement("span");
      statusLine.className = "clm-status";
      (document.querySelector("footer") || body).appendChild(statusLine);
    }
    var parts = [];
    if (body.getAttribute("data-clm-slide")) { parts.push("slide " + body.getAttribute("data-clm-slide")); }
    if (body.getAttribute("data-clm-session")) { parts.push("session " + body.getAttribute("data-clm-session")); }
    if (body.getAttribute("data-clm-latest-version")) { parts.push("latest app " + body.getAttribute("data-clm-latest-version")); }
    parts.push("bridge " + (clm ? clm.Bridge.Transport() : "missing"));
    statusLine.textContent = " · " + parts.join(" · ");
  }

  // ---- Navigation ----------------------------------------------------------------------------------

  function go(target) {
    if (!target) { return; }
    if (!clm) {
      window.location.href = target;
      return;
    }
    var fallback = setTimeout(function () { window.location.href = target; }, NAVIGATION_FALLBACK_MS);
    clm.Go(target, function (answer) {
      mark("go", target + " " + answer.errorCode);
      if (!answer.isSuccess()) {
        clearTimeout(fallback);
        window.location.href = target;
      }
    });
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight") { go(swipeTarget("clm-swipe-next")); }
    if (event.key === "ArrowLeft") { go(swipeTarget("clm-swipe-previous")); }
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
      go(swipeTarget(distance < 0 ? "clm-swipe-next" : "clm-swipe-previous"));
    }
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[href]") : null;
    if (!link || !clm) { return; }
    var href = link.getAttribute("href");
    if (/^[^/:?#]+\.html$/.test(href)) {
      event.preventDefault();
      go(href);
    } else if (/^mediafiles\/[^/]+$/.test(href)) {
      event.preventDefault();
      openMediaFile(href.slice("mediafiles/".length), href);
    }
  });

  if (!clm) { return; }

  // ---- Every slide ---------------------------------------------------------------------------------

  clm.Presentation.GetInfo(function (answer) {
    if (answer.isSuccess()) { mark("presentation", answer.data.name); } else { mark("presentation", "error " + answer.errorCode); }
  });
  clm.Presentation.GetCurrentSlideName(function (answer) {
    mark("slide", answer.isSuccess() ? answer.data.slide : "error " + answer.errorCode);
  });

  // ---- Media files ---------------------------------------------------------------------------------

  function openMediaFile(name, href) {
    mark("media", name + " opening");
    clm.Mediafiles.OpenMediaFile(name, function (answer) {
      if (answer.isSuccess()) {
        mark("media", name + " " + answer.data.status);
      } else {
        mark("media", name + " error " + answer.errorCode);
        window.location.href = href;
      }
    });
  }

  // ---- Quiz answers as custom events ---------------------------------------------------------------

  var quizzes = document.querySelectorAll("[data-quiz]");
  Array.prototype.forEach.call(quizzes, function (quiz) {
    var key = "quiz_" + quiz.getAttribute("data-quiz");
    var result = quiz.querySelector(".quiz-result");
    function show(value) {
      Array.prototype.forEach.call(quiz.querySelectorAll("button[data-answer]"), function (button) {
        button.classList.toggle("chosen", button.getAttribute("data-answer") === value);
      });
      if (result) { result.textContent = value ? "Saved: " + value : ""; }
      mark("quiz", value);
    }
    // Nothing is read at load (a session without an answer would answer 404): the answer is stored and
    // read back on a tap.
    quiz.addEventListener("click", function (event) {
      var button = event.target.closest ? event.target.closest("button[data-answer]") : null;
      if (!button) { return; }
      clm.CustomEvents.Set(key, button.getAttribute("data-answer"), function (saved) {
        if (!saved.isSuccess()) {
          mark("quiz", "error " + saved.errorCode);
          return;
        }
        clm.CustomEvents.Get(key, function (answer) {
          show(answer.isSuccess() ? answer.data.value : "");
        });
      });
    });
  });

  // ---- Last slide: the session is complete ---------------------------------------------------------

  if (!swipeTarget("clm-swipe-next")) {
    clm.Sessions.SetComplete(function (answer) {
      mark("session", answer.isSuccess() ? "complete" : "error " + answer.errorCode);
    });
  }

  // ---- Start slide: OSAM checks on a tap, and an HTTP call when the app names a backend -------------

  if (slideName !== "index.html") { return; }

  function language(callback) {
    clm.System.GetInfo(function (answer) {
      var code = answer.isSuccess() && answer.data ? String(answer.data.localization || "").toLowerCase() : "";
      callback(code === "ca" || code === "es" ? code : "en");
    });
  }

  function banner(className, parts) {
    var box = document.createElement("div");
    box.className = "clm-banner " + className;
    parts.forEach(function (part) { box.appendChild(part); });
    body.appendChild(box);
    return box;
  }

  function element(tag, text, className) {
    var node = document.createElement(tag);
    if (text) { node.textContent = text; }
    if (className) { node.className = className; }
    return node;
  }

  function showVersionAlert(alert, done) {
    var checkbox = null;
    var parts = [element("strong", alert.title), element("p", alert.message)];
    if (alert.checkbox) {
      var label = element("label", " " + (alert.checkboxLabel || "Don't show again"));
      checkbox = document.createElement("input");
      checkbox.type = "checkbox";
      label.insertBefore(checkbox, label.firstChild);
      parts.push(label);
    }
    var buttons = element("div", "", "clm-buttons");
    parts.push(buttons);
    var box = banner("clm-alert", parts);
    function answer(choice) {
      box.parentNode.removeChild(box);
      clm.OSAM.VersionControlAnswer(choice, !!(checkbox && checkbox.checked), function (reply) {
        mark("osam-answer", reply.isSuccess() && reply.data ? reply.data.response : "error " + reply.errorCode);
        done();
      });
    }
    [["ok", alert.ok || "OK"], ["cancel", alert.cancel]].forEach(function (choice) {
      if (!choice[1]) { return; }
      var button = element("button", choice[1]);
      button.addEventListener("click", function () { answer(choice[0]); });
      buttons.appendChild(button);
    });
  }

  function rating(lang) {
    clm.OSAM.Rating(lang, function (answer) {
      var response = answer.isSuccess() && answer.data ? answer.data.response : "unavailable " + answer.errorCode;
      mark("rating", response);
      if (response === "ACCEPTED") {
        var toast = banner("clm-toast", [element("span", (answer.data.message) || "Enjoying the app? Please rate it.")]);
        setTimeout(function () { if (toast.parentNode) { toast.parentNode.removeChild(toast); } }, 6000);
      }
    });
  }

  function checkForUpdates() {
    language(function (lang) {
      clm.OSAM.VersionControl(lang, function (answer) {
        if (!answer.isSuccess()) {
          mark("osam", "unavailable " + answer.errorCode);
          rating(lang);
          return;
        }
        var data = answer.data || {};
        mark("osam", data.result || "ok");
        if (data.alert) {
          showVersionAlert(data.alert, function () { rating(lang); });
        } else {
          rating(lang);
        }
      });
    });
  }

  var checkButton = element("button", "Check for updates", "clm-check");
  checkButton.setAttribute("data-clm-check", "");
  checkButton.addEventListener("click", checkForUpdates);
  (document.querySelector("footer") || body).appendChild(checkButton);

  clm.SendCommand("getNavigationData", {}, function (navigation) {
    var base = navigation.isSuccess() && navigation.data ? navigation.data.apiBase : "";
    if (!base) { return; }
    var url = base.replace(/\/+$/, "") + "/api/version/" + DEMO_APP.package + "/" + DEMO_APP.platform + "/" + DEMO_APP.versionCode;
    clm.Http.Get(url, { Accept: "application/json" }, function (answer) {
      if (!answer.isSuccess()) {
        mark("http", "error " + answer.errorCode);
        return;
      }
      try {
        var record = JSON.parse(clm.Http.DecodeBody(answer)).data || {};
        mark("http", "ok " + answer.errorCode);
        mark("latest-version", record.versionName || "?");
      } catch (error) {
        mark("http", "bad answer");
      }
    });
  });
})();
