"""Render decks: `sclm validate --render --screenshots` vs a shell loop of `chromium --headless --screenshot`.

What a user would script without sclm: one `chromium --headless=new --screenshot=<slide>.png` per slide, each
a whole browser start, on the slide's `file://` URL (a `for` loop over the deck's HTML files). sclm renders
the same slides in one browser, serves the package itself, runs the StoryCLM bridge in every page, checks
the RENDER-* rules and writes the same PNGs (plus a contact sheet). All at 1024x768; best of N, the sclm
runs interleaved with the loop in one pass. Four comparisons:

1. Speed: the 40-slide deck of `make_deck` (a stylesheet, storyclm.js and one bridge call per slide) with
   `--render-settle 0` (no late-error window: the rendering machinery alone) against the loop. Budget: sclm
   >= 10x faster (ratio = loop / sclm). sclm runs Debian's chromium-headless-shell (its default when
   installed); two rows are reported beside it, without a budget: sclm against the same loop written with
   `chromium-headless-shell --screenshot` (a user who knows of the shell), and sclm made to run the desktop
   browser (`--browser chromium`) against the chromium loop.
2. The late-error window: the same deck with sclm's default window (no `--render-settle`; 3 s, how long
   after load a slide is watched for late errors). A deck may cost that window once, not once per slide:
   budget sclm's whole run <= 3 s + loop / 10 (ratio = (3 + loop / 10) / sclm, met at >= 1).
3. A large, realistic deck (`package_gen.render_deck`, seeded): 350 slides at the root, each with 2 to 4
   of 60 real images (PNG charts 800x600, JPEG photos 1024x768, as <img> and as CSS background-image of
   a shared stylesheet), a web font (@font-face with DejaVu Sans) and storyclm.js with one bridge call;
   rendered with the default window and screenshots, as a user would run it. It must validate clean
   statically first. Reported as the whole time and ms per slide, with no budget; the loop's time per
   slide on the 40-slide deck, times 350, is shown next to it for scale (an extrapolation, not a run).
4. Memory, on every sclm run: sclm's own peak RSS (VmHWM of the sclm process, polled every 20 ms; not the
   browser's), budget < 128 MiB on both decks; and the browser's, as the peak over time of the summed
   `Pss:` (/proc/PID/smaps_rollup, which shares each shared page out among its users, so Chromium's
   processes add up to what they cost together) of all of sclm's descendants (found by the ppid chains of
   /proc/*/stat, so Chromium counts though it runs under setpriv as nobody and in its own namespace),
   sampled every 0.2 s. Budget < 1.5 GiB on the 350-slide deck; the 40-slide deck's is reported. Reading
   another user's smaps_rollup needs root (or CAP_SYS_PTRACE): unreadable processes count as 0.

`--quick`: best of 2, and a 100-slide large deck (its PSS is then what the 1.5 GiB budget is checked on).
The generated deck's JPEG photos are encoded by `cjpeg` (Debian's libjpeg-turbo-progs) and its font is
copied from Debian's fonts-dejavu-core; when these or chromium are missing they are installed with apt-get
if the run is root, else the benchmark is skipped with a message naming the packages.
"""
import itertools
import json
import os
import pathlib
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

from package_gen import render_deck
from run import Result, fresh_dir

SLIDES = 40
BIG_SLIDES, QUICK_BIG_SLIDES = 350, 100
DEFAULT_SETTLE = 3.0  # s: sclm's default late-error window (--render-settle)
SPEEDUP = 10
# The loops: the desktop browser's headless mode (the baseline the budgets are set against), and Debian's
# headless shell (what sclm runs by default when installed), reported beside it.
FULL_LOOP, SHELL_LOOP = "chromium --headless=new", "chromium-headless-shell"
RSS_LIMIT, PSS_LIMIT = 128 << 10, 1536 << 10  # KiB
FONT = pathlib.Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
# (Debian package, check that it is installed)
PREREQUISITES = (("chromium", lambda: shutil.which("chromium")),
                 ("chromium-headless-shell", lambda: shutil.which("chromium-headless-shell")), ("libjpeg-turbo-progs", lambda: shutil.which("cjpeg")),
                 ("fonts-dejavu-core", FONT.exists))


@dataclass
class Watched:
    """One sclm run: wall time, sclm's peak VmHWM and the peak summed Pss of its descendants (KiB)."""
    seconds: float
    rss: int = 0
    pss: int = 0
    processes: int = 0  # descendants in the sample with the peak Pss


def make_deck(root: pathlib.Path, library: str) -> pathlib.Path:
    """A deck of SLIDES slides, each with its own heading and colour, a stylesheet and storyclm.js."""
    deck = fresh_dir(root / "deck")
    (deck / "js").mkdir()
    (deck / "css").mkdir()
    (deck / "js" / "storyclm.js").write_text(library)
    (deck / "css" / "deck.css").write_text("body { font-family: sans-serif; margin: 40px } h1 { font-size: 48px }\n")
    for index in range(SLIDES):
        name = "index.html" if index == 0 else f"slide{index:02d}.html"
        (deck / name).write_text(
            "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><link rel=\"stylesheet\" href=\"css/deck.css\">"
            f"</head><body style=\"background: hsl({index * 9}, 60%, 85%)\"><h1>Slide {index}</h1>"
            "<p>Key message, efficacy chart and references.</p><script src=\"js/storyclm.js\"></script>"
            "<script>StoryCLM.Presentation.GetCurrentSlideName(function () {});</script></body></html>\n")
    return deck


def chromium_loop(deck: pathlib.Path, out: pathlib.Path, browser: str) -> str:
    """The shell loop a user would write (as root, Chromium needs --no-sandbox)."""
    sandbox = "--no-sandbox " if os.geteuid() == 0 else ""
    return (f"for f in {deck}/*.html; do n=$(basename \"$f\" .html); "
            f"{browser} {sandbox}--disable-gpu --hide-scrollbars --window-size=1024,768 "
            f"--screenshot={out}/\"$n\".png \"file://$f\" >/dev/null 2>&1; done")


def prerequisites() -> list:
    """The Debian packages still missing, after installing them with apt-get when the run is root."""
    missing = [package for package, present in PREREQUISITES if not present()]
    if missing and os.geteuid() == 0 and shutil.which("apt-get"):
        print(f"bench_render: installing {' '.join(missing)}", file=sys.stderr, flush=True)
        subprocess.run(["apt-get", "update", "-qq"], capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], capture_output=True)
        missing = [package for package, present in PREREQUISITES if not present()]
    return missing


def proc_kib(path: str, key: str) -> int:
    """The `key` line of a /proc file in KiB; 0 when the process is gone or the file cannot be read."""
    try:
        with open(path) as file:
            return next((int(line.split()[1]) for line in file if line.startswith(key)), 0)
    except (OSError, ValueError):
        return 0


def descendants(pid: int) -> list:
    """Every process below `pid`, by the ppid field of /proc/*/stat."""
    children = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as file:
                ppid = int(file.read().rpartition(")")[2].split()[1])  # the name in (…) may hold spaces
        except (OSError, IndexError):  # gone
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found


def poll(pid: int, watched: Watched, stop: threading.Event):
    """Samples sclm's VmHWM every 20 ms and its descendants' summed Pss every 0.2 s until `stop` is set."""
    for tick in itertools.count():
        if stop.wait(0.02):
            return
        watched.rss = max(watched.rss, proc_kib(f"/proc/{pid}/status", "VmHWM:"))
        if tick % 10 == 0:
            below = descendants(pid)
            pss = sum(proc_kib(f"/proc/{child}/smaps_rollup", "Pss:") for child in below)
            if pss > watched.pss:
                watched.pss, watched.processes = pss, len(below)


def render(ctx, deck: pathlib.Path, *options: str) -> Watched:
    """One `sclm validate --render OPTIONS --screenshots` of `deck`, watched; checks it passed with a PNG a slide."""
    shots = fresh_dir(deck.parent / "sclm-shots")
    log, watched, stop = deck.parent / "sclm.log", Watched(0.0), threading.Event()
    with open(log, "w") as out:
        start = time.perf_counter()
        child = subprocess.Popen([ctx.sclm, "validate", "--render", *options, "--screenshots", str(shots), str(deck)],
                                 stdout=out, stderr=subprocess.STDOUT)
        poller = threading.Thread(target=poll, args=(child.pid, watched, stop))
        poller.start()
        code = child.wait()
        watched.seconds = time.perf_counter() - start
        stop.set()
        poller.join()
    assert code == 0, log.read_text()[-4000:]
    assert count_png(shots / deck.name) == count_slides(deck), log.read_text()[-4000:]
    return watched


def loop(deck: pathlib.Path, browser: str = FULL_LOOP) -> float:
    """The time of one chromium_loop of `browser` over `deck`; checks it wrote a PNG a slide."""
    out = fresh_dir(deck.parent / "loop-shots")
    start = time.perf_counter()
    done = subprocess.run(chromium_loop(deck, out, browser), shell=True, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    assert count_png(out) == count_slides(deck), done.stderr
    return seconds


def count_png(folder: pathlib.Path) -> int:
    return len(list(folder.glob("*.png")))


def count_slides(deck: pathlib.Path) -> int:
    return len(list(deck.glob("*.html")))


def check_static(ctx, deck: pathlib.Path) -> dict:
    """`sclm validate` of `deck` without --render, which must find no error; returns the package's report."""
    done = subprocess.run([ctx.sclm, "validate", "--format", "json", str(deck)], capture_output=True, text=True)
    package = json.loads(done.stdout)["packages"][0]
    assert done.returncode == 0 and package["summary"]["errors"] == 0, package["findings"][:5]
    return package


def deck_size(deck: pathlib.Path) -> str:
    files = [path for path in deck.rglob("*") if path.is_file()]
    return f"{len(files)} files, {sum(path.stat().st_size for path in files) / 1e6:.1f} MB"


def mib(kib: float) -> str:
    return f"{kib / 1024:.1f} MiB"


def seconds_list(values) -> str:
    return ", ".join(f"{value:.2f}" for value in values) + " s"


def speed_result(quiet, loops) -> Result:
    s, b = min(run.seconds for run in quiet), min(loops)
    return Result(
        name=f"render {SLIDES} slides, --render-settle 0, screenshots",
        sclm=f"{s:.2f} s ({SLIDES / s:.1f} slides/s)",
        baseline=f"{b:.2f} s (chromium --headless --screenshot per slide)",
        ratio=b / s, budget=f">= {SPEEDUP}x faster", ok=b >= SPEEDUP * s,
        notes=f"sclm {seconds_list(run.seconds for run in quiet)}; loop {seconds_list(loops)}")


def engine_results(quiet, full, loops, shell_loops) -> list:
    """Report rows: sclm against a loop of the headless shell, and sclm made to run the desktop browser."""
    s, b = min(run.seconds for run in quiet), min(shell_loops)
    f, c = min(run.seconds for run in full), min(loops)
    return [
        Result(name=f"render {SLIDES} slides, --render-settle 0, against a headless-shell loop",
               sclm=f"{s:.2f} s", baseline=f"{b:.2f} s (chromium-headless-shell --screenshot per slide)",
               ratio=b / s, budget="report", ok=True, notes=f"shell loop {seconds_list(shell_loops)}"),
        Result(name=f"render {SLIDES} slides, --render-settle 0, sclm --browser chromium (desktop browser)",
               sclm=f"{f:.2f} s", baseline=f"{c:.2f} s (chromium --headless --screenshot per slide)",
               ratio=c / f, budget="report", ok=True, notes=f"sclm {seconds_list(run.seconds for run in full)}")]


def window_result(default, loops) -> Result:
    s, b = min(run.seconds for run in default), min(loops)
    allowed = DEFAULT_SETTLE + b / 10
    return Result(
        name=f"render {SLIDES} slides, default late-error window ({DEFAULT_SETTLE:g} s), screenshots",
        sclm=f"{s:.2f} s", baseline=f"{allowed:.2f} s allowed ({DEFAULT_SETTLE:g} s + loop {b:.2f} s / 10)",
        ratio=allowed / s, budget=f"<= {DEFAULT_SETTLE:g} s + loop/10", ok=s <= allowed,
        notes=f"sclm {seconds_list(run.seconds for run in default)}; loop {seconds_list(loops)}")


def big_result(big, loops, deck, package) -> Result:
    slides, s = count_slides(deck), min(run.seconds for run in big)
    per_slide = min(loops) / SLIDES
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return Result(
        name=f"render {slides} slides with images and a web font, default window, screenshots",
        sclm=f"{s:.1f} s ({s / slides * 1000:.0f} ms/slide)",
        baseline=f"~{per_slide * slides:.0f} s (loop's {per_slide * 1000:.0f} ms/slide x {slides}, extrapolated)",
        ratio=per_slide * slides / s, budget="report", ok=True,
        notes=f"sclm {seconds_list(run.seconds for run in big)}; deck {deck_size(deck)}, statically "
              f"{package['summary']['errors']} errors, {package['summary']['warnings']} warnings; "
              f"load average {load} (1, 5, 15 min) after the runs")


def memory_result(name, field, limit, budget, peaks, checked) -> Result:
    """A memory row: `peaks` maps a deck's label to its runs; the budget applies to the worst run of the
    decks in `checked`."""
    worst = {label: max(runs, key=lambda run: getattr(run, field)) for label, runs in peaks.items()}
    over = max(getattr(worst[label], field) for label in checked)
    return Result(
        name=name, sclm=", ".join(f"{label}: {mib(getattr(run, field))}" for label, run in worst.items()),
        baseline=f"limit {budget}", ratio=limit / max(over, 1), budget=f"< {budget} ({', '.join(checked)})",
        ok=0 < over < limit,
        notes="; ".join(f"{label}: {', '.join(mib(getattr(run, field)) for run in runs)}"
                        + (f" (peak over {worst[label].processes} processes)" if field == "pss" else "")
                        for label, runs in peaks.items()))


def run(ctx):
    missing = prerequisites()
    if missing:
        print(f"bench_render: missing {' '.join(missing)} (apt-get install {' '.join(missing)}); skipped",
              file=sys.stderr)
        return []
    library = (ctx.root / "bridge-js" / "storyclm.js").read_text()
    root = fresh_dir(ctx.work / "render")
    small = make_deck(root / "small", library)
    slides = QUICK_BIG_SLIDES if ctx.quick else BIG_SLIDES
    big = render_deck(root / "big" / f"deck{slides}", slides, library, FONT)
    package = check_static(ctx, big)
    quiet, default, full, loops, shell_loops, large = [], [], [], [], [], []
    for _ in range(2 if ctx.quick else max(3, ctx.repeat)):
        quiet.append(render(ctx, small, "--render-settle", "0"))
        default.append(render(ctx, small))
        loops.append(loop(small))
        full.append(render(ctx, small, "--render-settle", "0", "--browser", shutil.which("chromium")))
        shell_loops.append(loop(small, SHELL_LOOP))
        large.append(render(ctx, big))
    peaks = {f"{SLIDES} slides": quiet + default, f"{slides} slides": large}
    return [speed_result(quiet, loops), *engine_results(quiet, full, loops, shell_loops),
            window_result(default, loops), big_result(large, loops, big, package),
            memory_result("sclm peak RSS (VmHWM)", "rss", RSS_LIMIT, "128 MiB", peaks, list(peaks)),
            memory_result("Chromium peak PSS (sclm's descendants)", "pss", PSS_LIMIT, "1.5 GiB", peaks,
                          [f"{slides} slides"])]
