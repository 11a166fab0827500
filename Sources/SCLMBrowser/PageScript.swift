import SCLMCore

/// The script every document of a hosted page runs before its own scripts: the transports a StoryContent
/// app gives content, backed by the DevTools binding ``binding``.
///
/// - StoryCLM's queue (every storyclm.js, 1.x and 2.x): the library pushes messages to its own queue
///   and sets a hidden iframe's `src` to `storyclm:SCLM_QUEUE`. Chromium will not navigate an iframe to
///   an unknown scheme, so the `src` setter and `setAttribute("src", …)` of iframes are wrapped: a
///   `storyclm:` URL is swallowed and, once the running script yields, `StoryCLMBridge.GetQueue()` is
///   drained into the binding. The library is left to define `StoryCLMBridge` itself (storyclm.js 2.x
///   stands down when it already exists).
/// - The WKWebView script message handler `window.webkit.messageHandlers.storyclm`, which the project's
///   own `bridge-js/storyclm.js` prefers when present; each `postMessage(text)` goes to the binding.
///
/// Answers and events come back as `StoryCLMBridge.StoryCLMHandler(<json text>)`, evaluated by the host.
/// Only the top frame is wired: a StoryContent app hosts one slide per WebView.
///
/// It also reports, through the binding ``errorBinding``, errors DevTools never hears of: those the
/// page's own handlers swallow (`window.onerror` returning true, `unhandledrejection` prevented; its
/// listeners run first, so they see the event, and report it once dispatch is over if it was prevented).
/// Errors thrown while the page leaves (a `pagehide` handler, as content navigates itself away) are kept
/// in the tab's `sessionStorage` and reported by the next document, swallowed or not, marked `kept`:
/// DevTools reports none of them, and nothing the leaving document sends (not even the binding) arrives.
/// ``frameSource`` does so in every frame: the page's own and its same-process iframes (as part of
/// ``source``) and each out-of-process iframe; ``workerSource`` inside each worker, before its own script
/// (``TargetAttacher`` installs both there). What is not swallowed DevTools reports itself, for the page and
/// for each of those targets.
enum PageScript {
    /// The name of the `Runtime.addBinding` function the script calls.
    static let binding = "__sclmBridgeSend"
    /// The name of the binding that reports swallowed errors as `{message,url,line}`.
    static let errorBinding = "__sclmPageError"

    /// The script of the page's documents: ``frameSource``, then the StoryCLM transports (top frame only).
    static let source = frameSource + transportSource

    /// What every frame runs first: the errors it swallows reported.
    static let frameSource = reportingSwallowedErrors(of: "window") + "\n"

    /// What a worker runs first (evaluated before its own script): the errors it swallows reported.
    static let workerSource = reportingSwallowedErrors(of: "self")

    /// A script that reports the errors the global scope `scope` (`window`, or a worker's `self`) swallows.
    private static func reportingSwallowedErrors(of scope: String) -> String {
        """
        (function () {
          "use strict";
          var scope = \(scope), report = scope.\(errorBinding);
          if (typeof report !== "function") { return; }
          function tell(message, url, line, kept) {
            var error = { message: String(message), url: String(url || ""), line: Number(line) || 0 };
            if (kept) { error.kept = true; }
            try { report(JSON.stringify(error)); } catch (e) {}
          }
          function text(value) { try { return String(value); } catch (e) { return "an unprintable value"; } }
          var leaving = false, key = "__sclmErrorsOnLeaving";
          function storage() { try { return scope.sessionStorage || null; } catch (e) { return null; } }
          function keep(message, url, line) {
            var store = storage();
            if (!store) { return; }
            try {
              var kept = JSON.parse(store.getItem(key) || "[]");
              kept.push({ message: String(message), url: String(url || ""), line: Number(line) || 0 });
              store.setItem(key, JSON.stringify(kept.slice(-20)));
            } catch (e) {}
          }
          (function () {
            var store = storage(), kept = null;
            try { kept = store && store.getItem(key); if (kept) { store.removeItem(key); } } catch (e) {}
            try { JSON.parse(kept || "[]").forEach(function (e) { tell(e.message, e.url, e.line, true); }); } catch (e) {}
          })();
          scope.addEventListener("pagehide", function () { leaving = true; }, true);
          scope.addEventListener("error", function (event) {
            if (!(event instanceof ErrorEvent)) { return; }
            if (leaving) { keep(event.error !== undefined ? text(event.error) : event.message, event.filename, event.lineno); return; }
            setTimeout(function () {
              if (event.defaultPrevented) { tell(event.error !== undefined ? text(event.error) : event.message, event.filename, event.lineno); }
            }, 0);
          }, true);
          scope.addEventListener("unhandledrejection", function (event) {
            setTimeout(function () {
              if (event.defaultPrevented) { tell("Uncaught (in promise) " + text(event.reason), "", 0); }
            }, 0);
          }, true);
        })();
        """
    }

    /// The StoryCLM transports, wired in the top frame only.
    private static let transportSource = """
        (function () {
          "use strict";
          var send = window.\(binding);
          if (typeof send !== "function" || window.top !== window) { return; }
          var pending = false;
          function drain() {
            pending = false;
            var bridge = window.StoryCLMBridge;
            if (!bridge || typeof bridge.GetQueue !== "function") { return; }
            var text = bridge.GetQueue();
            if (typeof text === "string" && text !== "" && text !== "[]") { send(text); }
          }
          function intercepts(url) {
            if (String(url).slice(0, 9).toLowerCase() !== "storyclm:") { return false; }
            if (!pending) { pending = true; setTimeout(drain, 0); }
            return true;
          }
          var frame = HTMLIFrameElement.prototype;
          var src = Object.getOwnPropertyDescriptor(frame, "src");
          Object.defineProperty(frame, "src", {
            configurable: true, enumerable: src.enumerable, get: src.get,
            set: function (value) { if (!intercepts(value)) { src.set.call(this, value); } }
          });
          var setAttribute = Element.prototype.setAttribute;
          Element.prototype.setAttribute = function (name, value) {
            if (this instanceof HTMLIFrameElement && String(name).toLowerCase() === "src" && intercepts(value)) { return; }
            return setAttribute.apply(this, arguments);
          };
          var handler = { postMessage: function (message) {
            send(typeof message === "string" ? message : JSON.stringify(message));
          } };
          window.webkit = window.webkit || {};
          window.webkit.messageHandlers = window.webkit.messageHandlers || {};
          window.webkit.messageHandlers.storyclm = handler;
        })();
        """

    /// The expression that delivers one bridge line to the page.
    static func deliver(_ line: String) -> String {
        var literal: [UInt8] = []
        JSONWriter.write(line, to: &literal)
        return
            "window.StoryCLMBridge && window.StoryCLMBridge.StoryCLMHandler(\(String(decoding: literal, as: UTF8.self)))"
    }
}
