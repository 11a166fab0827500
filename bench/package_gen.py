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
"""
import pathlib
import random
import subprocess
import zipfile

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
    return f"""<!DOCTYPE html>
<html>
<head>
  <meta charset="utf-8">
  <meta name="clm-swipe-next" content="{nxt}">
  <meta name="clm-swipe-previous" content="{prev}">
  <link rel="stylesheet" href="css/style{index % STYLES}.css">
  <script src="js/storyclm.js"></script>
</head>
<body style="background: url('media/{media[0]}')">
{links}
{body}
  <script>document.body.onclick = function () {{ StoryCLM.Go("{nxt or 'index.html'}"); }};</script>
</body>
</html>
"""


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
    return f"""<!DOCTYPE html>
<html>
<head>
  <meta charset="utf-8">
  <meta name="clm-swipe-next" content="{nxt}">
  <meta name="clm-swipe-previous" content="{prev}">
{links}
  <script src="js/storyclm.js"></script>
{loads}
</head>
<body>
{paragraphs}
  <script>document.body.onclick = function () {{ StoryCLM.Go("{nxt or 'index.html'}"); }};</script>
</body>
</html>
"""


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
