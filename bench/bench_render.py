"""Render a 40-slide deck: `sclm validate --render --screenshots` vs a shell loop of `chromium --headless --screenshot`.

What a user would script without sclm: one `chromium --headless --screenshot=<slide>.png` per slide, each
a whole browser start, on the slide's `file://` URL (a `for` loop over the deck's HTML files). sclm renders
the same slides in one browser on a pool of pages, serves the package itself, runs the StoryCLM bridge
in every page and checks the RENDER-* rules, and writes the same PNGs (plus a contact sheet). Both at
1024x768, best of N, interleaved. Budget: sclm >= 3x faster. The peak RSS of sclm itself (VmHWM of the
sclm process, not the browser's) is reported.
"""
import os
import pathlib
import shutil
import subprocess
import sys
import time

from run import Result, fresh_dir

SLIDES = 40

# Polls /proc/<pid>/status of the command (sclm) while it runs and prints its peak VmHWM (KiB) last: the
# peak of sclm alone, without the browser processes it starts.
HWM_LAUNCHER = ("import subprocess, sys, time\n"
                "child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
                "peak = 0\n"
                "while child.poll() is None:\n"
                "    try:\n"
                "        for line in open(f'/proc/{child.pid}/status'):\n"
                "            if line.startswith('VmHWM:'): peak = max(peak, int(line.split()[1]))\n"
                "    except OSError:\n"
                "        pass\n"
                "    time.sleep(0.02)\n"
                "print(peak)\n"
                "sys.exit(child.returncode)\n")


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


def chromium_loop(deck: pathlib.Path, out: pathlib.Path) -> str:
    """The shell loop a user would write (as root, Chromium needs --no-sandbox)."""
    sandbox = "--no-sandbox " if os.geteuid() == 0 else ""
    return (f"for f in {deck}/*.html; do n=$(basename \"$f\" .html); "
            f"chromium --headless=new {sandbox}--disable-gpu --hide-scrollbars --window-size=1024,768 "
            f"--screenshot={out}/\"$n\".png \"file://$f\" >/dev/null 2>&1; done")


def timed(command, shell=False):
    start = time.perf_counter()
    completed = subprocess.run(command, shell=shell, capture_output=True, text=True)
    return time.perf_counter() - start, completed


def run(ctx):
    if shutil.which("chromium") is None:
        print("bench_render: chromium is not installed (apt-get install chromium); skipped", file=sys.stderr)
        return []
    library = (ctx.root / "bridge-js" / "storyclm.js").read_text()
    deck = make_deck(ctx.work / "render", library)
    ours, theirs, peaks = [], [], []
    for _ in range(max(2, ctx.repeat)):
        shots = fresh_dir(ctx.work / "render" / "sclm-shots")
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", HWM_LAUNCHER, ctx.sclm, "validate", "--render", "--screenshots",
                               str(shots), str(deck)], capture_output=True, text=True)
        ours.append(time.perf_counter() - start)
        assert done.returncode == 0, done.stderr
        peaks.append(int(done.stdout.split()[-1]))
        assert len(list((shots / "deck").glob("*.png"))) == SLIDES
        out = fresh_dir(ctx.work / "render" / "loop-shots")
        seconds, done = timed(chromium_loop(deck, out), shell=True)
        assert len(list(out.glob("*.png"))) == SLIDES, done.stderr
        theirs.append(seconds)
    s, b = min(ours), min(theirs)
    return [Result(
        name=f"render {SLIDES} slides with screenshots",
        sclm=f"{s:.2f} s ({SLIDES / s:.1f} slides/s), peak RSS {max(peaks) / 1024:.1f} MiB",
        baseline=f"{b:.2f} s (chromium --headless --screenshot per slide)",
        ratio=b / s, budget=">= 3x faster", ok=b >= 3 * s,
        notes=f"best of {len(ours)}: sclm {s:.2f}s, loop {b:.2f}s; sclm's own peak RSS (VmHWM) {max(peaks) / 1024:.1f} MiB")]
