/// The style sheet and the one script of the `sclm diff --format html` report (``DiffHTMLReport``).
///
/// The script touches no network and reads nothing but the report's own elements: the "changed only"
/// toggle, the view buttons (side by side, overlay, swipe), the overlay and swipe sliders, and keyboard
/// navigation (`j`/`k` or the arrow keys, outside a slider).
enum DiffHTMLAssets {
    static let style = """
        body { font: 14px/1.4 system-ui, sans-serif; margin: 0 24px 48px; color: #222; }
        header { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ccc; padding: 8px 0; z-index: 1; }
        h1 { font-size: 18px; margin: 4px 0; } .keys { color: #666; margin-left: 16px; }
        #summary { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 4px 0; }
        #summary div { display: flex; gap: 4px; } #summary dt { color: #666; } #summary dd { margin: 0; font-weight: bold; }
        .changed-only .slide[data-kind=unchanged] { display: none; }
        .slide { border: 1px solid #ddd; border-radius: 6px; margin: 16px 0; padding: 8px 16px; }
        .slide.current { border-color: #36c; box-shadow: 0 0 0 2px #36c; }
        .slide h2 { font-size: 16px; margin: 4px 0; }
        .kind { display: inline-block; min-width: 80px; color: #666; font-weight: normal; }
        .views button { font: inherit; } .views button[aria-pressed=true] { font-weight: bold; }
        .view { display: none; margin: 8px 0; } .view img { max-width: 100%; display: block; border: 1px solid #ccc; }
        [data-view=overlay] .overlay, [data-view=swipe] .swipe { display: block; }
        [data-view=side] .side { display: flex; gap: 8px; }
        .side figure { flex: 1; margin: 0; } .diff { margin: 8px 0; max-width: 49%; }
        .stack { position: relative; display: inline-block; max-width: 100%; }
        .stack .top { position: absolute; left: 0; top: 0; width: 100%; height: 100%; overflow: hidden; }
        .stack .top img { width: auto; max-width: none; height: 100%; }
        .overlay .top { opacity: 0.5; } .swipe .top { width: 50%; border-right: 2px solid #c33; }
        del { background: #fdd; } ins { background: #dfd; text-decoration: none; }
        table { border-collapse: collapse; } td { padding: 0 12px 0 0; }
        """

    static let script = """
        'use strict';
        const slides = () => [...document.querySelectorAll('.slide')].filter((s) => s.offsetParent !== null);
        let current = -1;
        function go(step) {
          const shown = slides();
          if (shown.length === 0) return;
          const at = shown.indexOf(document.querySelector('.slide.current'));
          current = Math.min(shown.length - 1, Math.max(0, (at < 0 ? -1 : at) + step));
          shown.forEach((s, i) => s.classList.toggle('current', i === current));
          shown[current].scrollIntoView({ block: 'start' });
        }
        const toggle = document.getElementById('changed-only');
        const applyToggle = () => document.body.classList.toggle('changed-only', toggle.checked);
        toggle.addEventListener('change', applyToggle);
        applyToggle();
        document.querySelectorAll('.views button').forEach((button) => button.addEventListener('click', () => {
          const slide = button.closest('.slide');
          slide.dataset.view = button.dataset.view;
          slide.querySelectorAll('.views button').forEach((b) => b.setAttribute('aria-pressed', String(b === button)));
        }));
        document.querySelectorAll('input.swipe-position').forEach((range) => range.addEventListener('input', () => {
          range.closest('.view').querySelector('.top').style.width = range.value + '%';
        }));
        document.querySelectorAll('input.overlay-opacity').forEach((range) => range.addEventListener('input', () => {
          range.closest('.view').querySelector('.top').style.opacity = String(range.value / 100);
        }));
        document.addEventListener('keydown', (event) => {
          if (event.target instanceof HTMLInputElement || event.altKey || event.ctrlKey || event.metaKey) return;
          const step = { j: 1, ArrowDown: 1, ArrowRight: 1, k: -1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
          if (step === undefined) return;
          event.preventDefault();
          go(step);
        });
        """
}
