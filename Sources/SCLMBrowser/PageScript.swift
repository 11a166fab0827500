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
enum PageScript {
    /// The name of the `Runtime.addBinding` function the script calls.
    static let binding = "__sclmBridgeSend"

    /// The script's source.
    static let source = """
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
