"""Deterministic, valid StoryCLM-style content packages for the archive benchmarks.

`large_package(ctx)` builds (once per `run.py` process) a zip of about 400 MiB in 2,000 files: 80 HTML
slides at the root that reference their images, video and stylesheets, a few stylesheets and scripts
(storyclm.js included), and mostly incompressible media (seeded random bytes, like JPEG/MP4 data). It is
deflated the way zip tools and gulp bundlers do. `sclm validate` must find it clean, so the benchmark also
proves the validator has no false positives on a realistic package.

`text_package(ctx)` builds the other kind of deck: mostly text (about 150 MiB of JavaScript, CSS and HTML
in 690 files, deflated about 3:1), like decks whose libraries are bundled unminified. The text is made of
seeded-random functions, rules and paragraphs over a generated vocabulary, so it compresses like source
code, and every reference in it resolves.

`render_deck(folder, slides, library, font)` writes a folder deck for the render benchmark: `slides` HTML
slides at the root (index.html, slide001.html…), each loading one shared stylesheet (an @font-face web font
and a `background-image` rule per image), storyclm.js and 2 to 4 of 60 real images: 36 PNG charts of
800x600 (gradients, bars and a grainy panel, 50-300 KB, encoded here with zlib) and 24 JPEG photos of
1024x768 (80-250 KB, encoded by `cjpeg` of Debian's libjpeg-turbo-progs), so the browser decodes, scales
and paints images and a font as a real deck makes it.
"""
import math
import pathlib
import random
import shutil
import struct
import subprocess
import zipfile
import zlib

SLIDES = 80
STYLES = 6
FILES = 2000
TOTAL = 400 << 20


def _slide(index, media):
    links = "\n".join(f'  <img src="media/{name}" alt="">' for name in media)
    nxt = f"slide{index + 1}.html" if index + 1 < SLIDES else ""
    prev = "index.html" if index == 1 else (f"slide{index - 1}.html" if index > 1 else "")
    body = "\n".join(f"  <p class=\"c{i % 7}\">Slide {index}, paragraph {i}: lorem ipsum dolor sit amet.</p>"
                     for i in range(120))
    return _page(nxt, prev, f'  <link rel="stylesheet" href="css/style{index % STYLES}.css">\n'
                 '  <script src="js/storyclm.js"></script>',
                 f"{links}\n{body}\n" + _go_next(nxt), f" style=\"background: url('media/{media[0]}')\"")


def _page(nxt, prev, head, body, body_attributes=""):
    """A slide: `head` and `body` (lines, without their last newline) with the clm-swipe meta tags."""
    return f"""<!DOCTYPE html>
<html>
<head>
  <meta charset="utf-8">
  <meta name="clm-swipe-next" content="{nxt}">
  <meta name="clm-swipe-previous" content="{prev}">
{head}
</head>
<body{body_attributes}>
{body}
</body>
</html>
"""


def _go_next(nxt):
    """The script line by which a slide goes on to the next one on a tap."""
    return f"""  <script>document.body.onclick = function () {{ StoryCLM.Go("{nxt or 'index.html'}"); }};</script>"""


def build(path: pathlib.Path):
    rng = random.Random(20261130)
    media_count = FILES - SLIDES - STYLES - 1
    sizes = [rng.randint(1, 1000) for _ in range(media_count)]
    scale = (TOTAL - (6 << 20)) / sum(sizes)
    media = [(f"m{i:04d}.{'mp4' if i % 10 == 0 else 'jpg'}", max(1024, int(s * scale))) for i, s in enumerate(sizes)]
    per_slide = [[name for name, _ in media[i::SLIDES]][:25] for i in range(SLIDES)]
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for index in range(SLIDES):
            name = "index.html" if index == 0 else f"slide{index}.html"
            archive.writestr(name, _slide(index, per_slide[index]))
        for index in range(STYLES):
            rules = "\n".join(f".c{i} {{ color: #{rng.randrange(1 << 24):06x}; background: url(../media/{media[i][0]}) }}"
                              for i in range(400))
            archive.writestr(f"css/style{index}.css", rules)
        archive.writestr("js/storyclm.js", "window.StoryCLMBridge = {}; window.StoryCLM = { Go: function () {} };\n" * 200)
        for name, size in media:
            archive.writestr(zipfile.ZipInfo(f"media/{name}", (2026, 11, 30, 0, 0, 0)), rng.randbytes(size),
                             compress_type=zipfile.ZIP_DEFLATED, compresslevel=1)


TEXT_SLIDES = 80
TEXT_SCRIPTS = 420
TEXT_STYLES = 130
TEXT_IMAGES = 60


def _words(rng, count):
    """`count` distinct made-up identifiers, 3 to 10 lowercase letters."""
    words = set()
    while len(words) < count:
        words.add("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 10))))
    return sorted(words)


def _js_block(rng, words):
    """One commented function of unminified library code."""
    name = rng.choice(words) + rng.choice(words).capitalize()
    args = rng.sample(words, 3)
    body = []
    for _ in range(rng.randint(3, 9)):
        a, b, c = rng.sample(words, 3)
        body.append(rng.choice([
            f"    var {a} = {args[0]}.{b} + {rng.randint(0, 999)} * {args[1]}.{c};",
            f"    if ({a} > {rng.randint(1, 99)}) {{ return this.{b}({a}, \"{c}-{b}\"); }}",
            f"    {args[2]}.{a} = typeof {b} === \"function\" ? {b}({c}) : null;",
            f"    for (var i = 0; i < {args[0]}.length; i++) {{ {a}.push({args[0]}[i].{b}); }}",
        ]))
    summary = " ".join(rng.choice(words) for _ in range(rng.randint(6, 14)))
    return (f"  /**\n   * {summary.capitalize()}.\n   * @param {{Object}} {args[0]} the {rng.choice(words)}\n"
            f"   * @returns {{number}}\n   */\n  {name}: function ({', '.join(args)}) {{\n" + "\n".join(body)
            + f"\n    return {args[1]};\n  }},\n")


def _css_block(rng, words, images):
    """One rule, sometimes with a background image that is in the package."""
    selector = ", ".join(f".{rng.choice(words)}-{rng.choice(words)}" for _ in range(rng.randint(1, 3)))
    lines = [f"  {rng.choice(['color', 'border-color', 'fill'])}: #{rng.randrange(1 << 24):06x};",
             f"  margin: {rng.randint(0, 40)}px {rng.randint(0, 40)}px;",
             f"  font-size: {rng.randint(10, 48)}px;"]
    if rng.random() < 0.1:
        lines.append(f"  background: url(\"../img/{rng.choice(images)}\") no-repeat;")
    return selector + " {\n" + "\n".join(rng.sample(lines, len(lines))) + "\n}\n"


def _text_file(rng, pool, size, head="", tail=""):
    """`head`, then blocks drawn from `pool` until the file reaches about `size` bytes, then `tail`."""
    parts, length = [head], len(head)
    while length < size:
        block = rng.choice(pool)
        parts.append(block)
        length += len(block)
    parts.append(tail)
    return "".join(parts)


def _text_slide(rng, index, words, scripts, styles, images):
    nxt = f"slide{index + 1}.html" if index + 1 < TEXT_SLIDES else ""
    prev = "index.html" if index == 1 else (f"slide{index - 1}.html" if index > 1 else "")
    links = "\n".join(f'  <link rel="stylesheet" href="css/{name}">' for name in rng.sample(styles, 3))
    loads = "\n".join(f'  <script src="js/{name}"></script>' for name in rng.sample(scripts, 6))
    paragraphs = "\n".join(
        f'  <p class="{rng.choice(words)}">' + " ".join(rng.choice(words) for _ in range(rng.randint(20, 60)))
        + (f' <img src="img/{rng.choice(images)}" alt="">' if rng.random() < 0.2 else "") + "</p>"
        for _ in range(300))
    return _page(nxt, prev, f'{links}\n  <script src="js/storyclm.js"></script>\n{loads}',
                 f"{paragraphs}\n" + _go_next(nxt))


def build_text(path: pathlib.Path):
    rng = random.Random(20261202)
    words = _words(rng, 3000)
    images = [f"i{i:03d}.png" for i in range(TEXT_IMAGES)]
    scripts = [f"lib{i:03d}.js" for i in range(TEXT_SCRIPTS)]
    styles = [f"theme{i:03d}.css" for i in range(TEXT_STYLES)]
    js_pool = [_js_block(rng, words) for _ in range(6000)]
    css_pool = [_css_block(rng, words, images) for _ in range(6000)]
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for index in range(TEXT_SLIDES):
            name = "index.html" if index == 0 else f"slide{index}.html"
            archive.writestr(name, _text_slide(rng, index, words, scripts, styles, images))
        archive.writestr("js/storyclm.js", "window.StoryCLMBridge = {}; window.StoryCLM = { Go: function () {} };\n")
        for name in scripts:
            library = name[:-3].capitalize()
            archive.writestr(f"js/{name}", _text_file(
                rng, js_pool, rng.randint(150_000, 350_000), f"(function (root) {{\n  root.{library} = {{\n",
                "  };\n})(window);\n"))
        for name in styles:
            archive.writestr(f"css/{name}", _text_file(rng, css_pool, rng.randint(150_000, 350_000)))
        for name in images:
            archive.writestr(zipfile.ZipInfo(f"img/{name}", (2026, 12, 2, 0, 0, 0)), rng.randbytes(16_384),
                             compress_type=zipfile.ZIP_STORED)


RENDER_SEED = 20261203
RENDER_CHARTS = 36
RENDER_PHOTOS = 24
PHRASES = ["Efficacy at week 12", "Dosing and titration", "Safety profile", "Mechanism of action",
           "Patient profile", "Study design", "Key message", "Adherence support", "Quality of life"]


def _png(rows) -> bytes:
    """An 8-bit RGB PNG of `rows` (each a bytearray of width x 3 bytes), deflated at zlib's default level."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", len(rows[0]) // 3, len(rows), 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"".join(b"\0" + bytes(row) for row in rows), 6)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def _blend(top, bottom, t):
    return bytes(round(a + (b - a) * t) for a, b in zip(top, bottom))


def _fill(rows, box, colour):
    x0, y0, x1, y1 = box
    for row in rows[y0:y1]:
        row[x0 * 3:x1 * 3] = bytes(colour) * (x1 - x0)


def _grain(rng, rows, box, amplitude):
    """Adds seeded noise of 0..amplitude-1 to every byte in `box` (bytes clamped first, so nothing carries)."""
    x0, y0, x1, y1 = box
    clamp = bytes(min(value, 255 - amplitude) for value in range(256))
    modulo = bytes(value % amplitude for value in range(256))
    for row in rows[y0:y1]:
        base = bytes(row[x0 * 3:x1 * 3]).translate(clamp)
        noise = rng.randbytes(len(base)).translate(modulo)
        row[x0 * 3:x1 * 3] = (int.from_bytes(base, "big") + int.from_bytes(noise, "big")).to_bytes(len(base), "big")


def _colour(rng, low=40, high=220):
    return tuple(rng.randint(low, high) for _ in range(3))


def _chart(rng, width=800, height=600) -> bytes:
    """A bar-and-line chart on a gradient, with a grainy panel (a heat map, a scan) sized for 50-300 KB."""
    top, bottom = _colour(rng, 200, 255), _colour(rng, 150, 230)
    rows = [bytearray(_blend(top, bottom, y / (height - 1)) * width) for y in range(height)]
    area = rng.randint(50_000, 300_000) * 8 // 9  # about 9/8 bytes of PNG per pixel of 3-bit noise
    panel_w = min(width - 40, int(math.sqrt(area * 4 / 3)))
    panel_h = min(height - 40, area // panel_w)
    _fill(rows, (width - panel_w - 20, height - panel_h - 20, width - 20, height - 20), _colour(rng))
    _grain(rng, rows, (width - panel_w - 20, height - panel_h - 20, width - 20, height - 20), 8)
    for y in range(60, height - 40, 60):
        _fill(rows, (40, y, width - 20, y + 1), (120, 120, 120))
    bar, colour = (width - 80) // 10, _colour(rng)
    for index in range(10):
        x = 50 + index * bar
        _fill(rows, (x, rng.randint(80, height - 120), x + bar * 2 // 3, height - 40), colour)
        y = rng.randint(80, height - 80)
        _fill(rows, (x + bar // 3 - 6, y - 6, x + bar // 3 + 6, y + 6), (200, 30, 30))
    return _png(rows)


def _photo(rng, width=1024, height=768) -> bytes:
    """A landscape-like JPEG (sky, hills, sun, grain) of 80-250 KB, through `cjpeg -quality 85`."""
    sky_top, sky_bottom, ground = _colour(rng, 60, 180), _colour(rng, 170, 240), _colour(rng, 30, 140)
    phases = [rng.uniform(0, 2 * math.pi) for _ in range(3)]
    hills = [height * (0.55 + 0.08 * sum(math.sin(x * 16 / width * 3 * (k + 1) + p) for k, p in enumerate(phases)))
             for x in range(width // 16)]
    rows = []
    for y in range(height):
        sky, shade = _blend(sky_top, sky_bottom, y / height), _blend(ground, (0, 0, 0), 0.3 - 0.3 * y / height)
        rows.append(bytearray(b"".join((shade if y > hill else sky) * 16 for hill in hills)))
    sun_x, sun_y, radius = rng.randint(100, width - 100), rng.randint(60, height // 3), rng.randint(30, 70)
    for y in range(sun_y - radius, sun_y + radius):
        half = int(math.sqrt(radius * radius - (y - sun_y) ** 2))
        _fill(rows, (sun_x - half, y, sun_x + half, y + 1), (255, 236, 160))
    _grain(rng, rows, (0, 0, width, height), rng.randint(22, 52))
    ppm = b"P6\n%d %d\n255\n" % (width, height) + b"".join(rows)
    return subprocess.run(["cjpeg", "-quality", "85", "-optimize"], input=ppm, capture_output=True, check=True).stdout


def _render_slide(rng, index, names, images):
    nxt = names[index + 1] if index + 1 < len(names) else ""
    prev = names[index - 1] if index else ""
    background, *figures = rng.sample(images, rng.randint(2, 4))
    figures = "\n".join(f'    <figure><img src="img/{name}" alt=""><figcaption>{rng.choice(PHRASES)}</figcaption>'
                        "</figure>" for name in figures)
    head = (f"  <title>Slide {index}</title>\n"
            '  <link rel="stylesheet" href="css/deck.css">\n  <script src="js/storyclm.js"></script>')
    return _page(nxt, prev, head, f"""\
  <header class="hero bg-{background.split('.')[0]}"><h1>{index}. {rng.choice(PHRASES)}</h1></header>
  <main>
{figures}
    <p>{rng.choice(PHRASES)}: {rng.randint(12, 87)} % of patients, p &lt; 0.0{rng.randint(1, 5)}.
    {rng.choice(PHRASES)} and references on the next slide.</p>
  </main>
  <script>StoryCLM.Presentation.GetCurrentSlideName(function () {{}});</script>""")


def _render_css(font, images):
    backgrounds = "".join(f'.bg-{name.split(".")[0]} {{ background-image: url("../img/{name}") }}\n' for name in images)
    return (f'@font-face {{ font-family: "Deck Sans"; src: url("../fonts/{font}") format("truetype"); }}\n'
            'body { margin: 0; font-family: "Deck Sans", serif; color: #1c2733; background: #f4f6fa }\n'
            ".hero { height: 240px; background-size: cover; background-position: center; display: flex;"
            " align-items: flex-end }\n"
            "h1 { margin: 0; padding: 16px 40px; font-size: 44px; background: rgba(255, 255, 255, 0.8) }\n"
            "main { padding: 24px 40px } figure { display: inline-block; margin: 0 24px 0 0 }\n"
            "img { width: 280px; height: 210px; object-fit: cover } p { font-size: 22px }\n" + backgrounds)


def render_deck(folder: pathlib.Path, slides: int, library: str, font: pathlib.Path,
                seed: int = RENDER_SEED) -> pathlib.Path:
    """Writes the render benchmark's folder deck (see the module docstring) into `folder`, which must not exist.
    The images depend on `seed` only, not on `slides`."""
    rng = random.Random(seed)
    for sub in ("css", "js", "img", "fonts"):
        (folder / sub).mkdir(parents=True)
    images = [f"chart{i:02d}.png" for i in range(RENDER_CHARTS)] + [f"photo{i:02d}.jpg" for i in range(RENDER_PHOTOS)]
    for name in images:
        (folder / "img" / name).write_bytes(_chart(rng) if name.endswith(".png") else _photo(rng))
    shutil.copyfile(font, folder / "fonts" / font.name)
    (folder / "css" / "deck.css").write_text(_render_css(font.name, images))
    (folder / "js" / "storyclm.js").write_text(library)
    names = ["index.html"] + [f"slide{index:03d}.html" for index in range(1, slides)]
    for index, name in enumerate(names):
        (folder / name).write_text(_render_slide(rng, index, names, images))
    return folder


def text_package(ctx) -> pathlib.Path:
    """The text-heavy benchmark package (built on first use, shared by every benchmark of this run)."""
    if "text_package" not in ctx.extra:
        path = ctx.work / "package-text.zip"
        build_text(path)
        subprocess.run(["sync"], check=True)
        ctx.extra["text_package"] = path
    return ctx.extra["text_package"]


def large_package(ctx) -> pathlib.Path:
    """The benchmark package (built on first use, shared by every benchmark of this run)."""
    if "large_package" not in ctx.extra:
        path = ctx.work / "package-400m.zip"
        build(path)
        subprocess.run(["sync"], check=True)  # written out now, not by writeback during the first timings
        ctx.extra["large_package"] = path
    return ctx.extra["large_package"]


def repeats(ctx) -> int:
    """Runs per side: these take well under a second each, and the shared machine is noisy."""
    return max(ctx.repeat, 3 if ctx.quick else 7)
