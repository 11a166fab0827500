"""A deterministic, valid StoryCLM-style content package for the archive benchmarks.

`large_package(ctx)` builds (once per `run.py` process) a zip of about 400 MiB in 2,000 files: 80 HTML
slides at the root that reference their images, video and stylesheets, a few stylesheets and scripts
(storyclm.js included), and mostly incompressible media (seeded random bytes, like JPEG/MP4 data). It is
deflated the way zip tools and gulp bundlers do. `sclm validate` must find it clean, so the benchmark also
proves the validator has no false positives on a realistic package.
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
