import SCLMBrowser
import SCLMCore

/// What makes a picture of a slide the same every time it is taken (``RenderPass/pictures``): rendering one
/// revision twice must give zero changed pixels, whatever the slide animates or computes.
///
/// - Before any of the document's own scripts (``newDocumentScript``): `Date` is frozen at
///   ``frozenTime`` (`new Date()`, `Date()`, `Date.now()`; a date built from arguments is left alone) and
///   `Math.random` is a seeded xorshift generator, restarted with each document, so a clock or a random
///   figure prints the same text in every render. A slide that busy-waits on `Date.now()` would wait for
///   ever: its render times out (`RENDER-TIMEOUT`) instead of giving a picture that changes.
/// - Just before the picture (``settleExpression``): the caret hidden (`caret-color: transparent`), the
///   fonts loaded (`document.fonts.ready`), every CSS animation and transition and Web Animation finished
///   (run to its end state), or paused at its start when it never ends (`infinite`), twice, two frames apart,
///   so an animation started by another's end is settled too.
enum StillPicture {
    /// The frozen time: 2024-01-01 09:00:00 UTC, in milliseconds since 1970.
    static let frozenTime: Int64 = 1_704_099_600_000

    /// The script run on every new document of a picture pass's page, before the document's own.
    static let newDocumentScript = """
        (() => {
          const frozen = \(frozenTime);
          const RealDate = Date;
          function FrozenDate(...args) {
            if (!new.target) { return new RealDate(frozen).toString(); }
            return Reflect.construct(RealDate, args.length ? args : [frozen], new.target);
          }
          FrozenDate.prototype = RealDate.prototype;
          FrozenDate.now = () => frozen;
          FrozenDate.parse = RealDate.parse;
          FrozenDate.UTC = RealDate.UTC;
          globalThis.Date = FrozenDate;
          let seed = 0x9e3779b9;
          Math.random = () => {
            seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
            return (seed >>> 0) / 4294967296;
          };
        })();
        """

    /// The expression evaluated (awaiting its promise) just before the picture.
    static let settleExpression = """
        (async () => {
          const style = document.createElement('style');
          style.textContent = '*, *::before, *::after { caret-color: transparent !important; }';
          (document.head || document.documentElement).appendChild(style);
          try { await document.fonts.ready; } catch (error) {}
          const frames = () => new Promise((resolve) => {
            requestAnimationFrame(() => requestAnimationFrame(resolve));
            setTimeout(resolve, 250);
          });
          for (let round = 0; round < 2; round++) {
            for (const animation of document.getAnimations()) {
              try { animation.finish(); } catch (error) { animation.pause(); animation.currentTime = 0; }
            }
            await frames();
          }
          return true;
        })()
        """

    /// Settles `page` for its picture (``settleExpression``) within `deadline`.
    ///
    /// - Throws: ``BrowserError`` (`.timedOut` when the page does not answer in time), `CancellationError`.
    static func settle(_ page: BrowserPage, deadline: Duration) async throws {
        try await page.call(
            "Runtime.evaluate", ["expression": .string(settleExpression), "awaitPromise": true], deadline: deadline)
    }
}
