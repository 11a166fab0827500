"""Review a revision: `sclm diff OLD NEW` on the render benchmark's generated deck (`package_gen.render_deck`).

Three comparisons, at 1024x768, on the 350-slide deck (100 with `--quick`):

1. One image changed that 3 slides use: OLD is the deck plus `img/badge.png` (a chart of the deck) shown by
   slides 10, 20 and 30; NEW replaces that image's bytes. The deck's shared stylesheet names every other
   image (as CSS backgrounds), so every slide's closure holds them all: the badge, referenced by those three
   slides only, is the image whose change touches 3 slides. `sclm diff` with its default options (pictures
   rendered and compared, 3 changed slides, 6 pages) must take <= 5 s (ratio = 5 / sclm; best of N).
2. Every slide changed (a comment added to each slide's HTML: every slide rendered from both revisions, no
   pixel changed): `sclm diff` against rendering both revisions with `sclm validate --render --render-settle 0`
   (two runs, added up). Budget: diff <= 1.1x the two renders (ratio = 1.1 * renders / diff; one run each,
   interleaved, as the 350-slide renders take minutes).
3. One slide's two pictures (the badge slide's renders from 1): decode (libpng), compare (PixelDiff), draw and
   encode the diff image, each the median of 50 in-process runs (`sclm-bench image`). Budget: compare <=
   10 ms; the others are reported. A second pair, two different slides (most pixels changed), is reported too.

Needs what bench_render needs (chromium, libjpeg-turbo-progs, fonts-dejavu-core); skipped with a message
otherwise.
"""
import json
import sys
import shutil
import subprocess
import time

from bench_render import BIG_SLIDES, FONT, QUICK_BIG_SLIDES, prerequisites
from package_gen import render_deck
from run import Result, fresh_dir

BADGE_SLIDES = (10, 20, 30)
ONE_IMAGE_BUDGET = 5.0  # s
ALL_SLIDES_FACTOR = 1.1
COMPARE_BUDGET_MS = 10.0


def slide_name(index: int) -> str:
    return "index.html" if index == 0 else f"slide{index:03d}.html"


def revisions(root, slides: int, library: str):
    """OLD (the render deck with a badge image on three slides), NEW (the badge replaced), and ALL (every slide's
    HTML changed, nothing visible)."""
    old = render_deck(root / "old", slides, library, FONT)
    shutil.copyfile(old / "img" / "chart00.png", old / "img" / "badge.png")
    for index in BADGE_SLIDES:
        page = old / slide_name(index)
        page.write_text(page.read_text().replace("</main>", '<img src="img/badge.png" alt="badge"></main>', 1))
    new = root / "new"
    shutil.copytree(old, new)
    shutil.copyfile(old / "img" / "chart01.png", new / "img" / "badge.png")
    every = root / "all"
    shutil.copytree(old, every)
    for page in every.glob("*.html"):
        page.write_text(page.read_text() + "<!-- revision 2 -->\n")
    return old, new, every


def timed(command) -> tuple:
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    return time.monotonic() - start, done


def diff(ctx, old, new, *options) -> tuple:
    seconds, done = timed([ctx.sclm, "diff", "--format", "json", *options, str(old), str(new)])
    if done.returncode != 1:
        raise RuntimeError(f"sclm diff exited {done.returncode}: {done.stderr[-2000:]}")
    return seconds, json.loads(done.stdout)


def render(ctx, deck) -> float:
    seconds, done = timed([ctx.sclm, "validate", "--render", "--render-settle", "0", str(deck)])
    if done.returncode not in (0, 1):
        raise RuntimeError(f"sclm validate --render exited {done.returncode}: {done.stderr[-2000:]}")
    return seconds


def one_image(ctx, old, new, images) -> tuple:
    runs = []
    for _ in range(2 if ctx.quick else max(3, ctx.repeat)):
        seconds, document = diff(ctx, old, new, "--images", str(fresh_dir(images)))
        runs.append(seconds)
    changed = [slide["name"] for slide in document["slides"] if slide["kind"] == "changed"]
    if changed != [slide_name(i) for i in BADGE_SLIDES]:
        raise RuntimeError(f"expected the three badge slides changed, got {changed[:10]}")
    best = min(runs)
    pixels = [slide["pictures"]["changedPixels"] for slide in document["slides"] if slide["pictures"]]
    return document, Result(
        name="diff: one image changed (3 of the slides)", sclm=f"{best:.2f} s", baseline=f"{ONE_IMAGE_BUDGET:.0f} s budget",
        ratio=ONE_IMAGE_BUDGET / best, budget="<= 5 s", ok=best <= ONE_IMAGE_BUDGET,
        notes=f"runs {', '.join(f'{s:.2f}' for s in runs)} s; changed pixels per slide {pixels}")


def all_slides(ctx, old, every, slides: int) -> Result:
    diff_seconds, document = diff(ctx, old, every)
    moving = [s["name"] for s in document["slides"] if (s["pictures"] or {}).get("changedPixels", 1) != 0]
    renders = render(ctx, old) + render(ctx, every)
    ratio = ALL_SLIDES_FACTOR * renders / diff_seconds
    return Result(
        name=f"diff: all {slides} slides changed", sclm=f"{diff_seconds:.1f} s",
        baseline=f"{renders:.1f} s (2x validate --render --render-settle 0)", ratio=ratio, budget="<= 1.1x renders",
        ok=ratio >= 1, notes=f"slides with changed pixels (must be none): {moving[:5]}")


def pictures(ctx, document, images) -> list:
    slide = next(s for s in document["slides"] if s["name"] == slide_name(BADGE_SLIDES[0]))
    pair = ctx.bench_json("image", "--old", slide["pictures"]["oldImage"], "--new", slide["pictures"]["newImage"])
    renders = sorted((images / "renders").glob("*/*.png"))
    apart = ctx.bench_json("image", "--old", str(renders[0]), "--new", str(renders[-1]))
    return [Result(
        name="diff: compare two 1024x768 pictures", sclm=f"{pair['compare_ms']:.2f} ms",
        baseline=f"{COMPARE_BUDGET_MS:.0f} ms budget", ratio=COMPARE_BUDGET_MS / max(pair["compare_ms"], 1e-6),
        budget="<= 10 ms", ok=pair["compare_ms"] <= COMPARE_BUDGET_MS,
        notes=(f"badge slide: decode {pair['decode_ms']:.2f} ms, diff image {pair['diff_image_ms']:.2f} ms, encode "
               f"{pair['encode_ms']:.2f} ms, {pair['changed_pixels']} px in {pair['regions']} regions; two different "
               f"slides: compare {apart['compare_ms']:.2f} ms, decode {apart['decode_ms']:.2f} ms, encode "
               f"{apart['encode_ms']:.2f} ms, {apart['changed_pixels']} px changed"))]


def run(ctx):
    missing = prerequisites()
    if missing:
        print(f"bench_diff: missing {' '.join(missing)} (apt-get install {' '.join(missing)}); skipped", file=sys.stderr)
        return []
    library = (ctx.root / "bridge-js" / "storyclm.js").read_text()
    root = fresh_dir(ctx.work / "diff")
    slides = QUICK_BIG_SLIDES if ctx.quick else BIG_SLIDES
    old, new, every = revisions(root, slides, library)
    images = root / "images"
    document, first = one_image(ctx, old, new, images)
    return [first, all_slides(ctx, old, every, slides)] + pictures(ctx, document, images)
