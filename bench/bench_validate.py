"""Validate one large package: `sclm validate` vs `bsdtar -xOf pkg.zip > /dev/null`.

bsdtar -xO reads and decompresses every entry and checks its CRC, writing the data nowhere: the least
work any tool can do to know a zip is intact. `sclm validate` does that plus the whole package policy
(central-directory checks, budgets, HTML/CSS parsing, reference resolution). Both run on the same
~400 MiB, 2,000-file package (bench/package_gen.py), page cache warm, best of N, interleaved.
Budget: sclm's time <= 1.3x bsdtar's.
"""
import json
import subprocess
import time

from package_gen import large_package, repeats
from run import Result


def timed(command, **kwargs):
    start = time.perf_counter()
    completed = subprocess.run(command, **kwargs)
    return time.perf_counter() - start, completed


def run(ctx):
    package = large_package(ctx)
    subprocess.run(["bsdtar", "-xOf", str(package)], stdout=subprocess.DEVNULL, check=True)  # warm the cache
    ours, theirs = [], []
    for _ in range(repeats(ctx)):
        seconds, done = timed([ctx.sclm, "validate", "--format", "json", str(package)], capture_output=True, text=True)
        report = json.loads(done.stdout)
        assert done.returncode == 0, report["packages"][0]["findings"][:5]
        ours.append(seconds)
        seconds, done = timed(["bsdtar", "-xOf", str(package)], stdout=subprocess.DEVNULL)
        assert done.returncode == 0
        theirs.append(seconds)
    s, b = min(ours), min(theirs)
    size = report["packages"][0]["bytes"]
    entries = report["packages"][0]["entries"]
    return [Result(
        name=f"validate one package ({size / (1 << 20):.0f} MiB, {entries:,} entries)",
        sclm=f"{s:.3f} s ({size / s / (1 << 20):,.0f} MiB/s)", baseline=f"{b:.3f} s (bsdtar -xOf > /dev/null)",
        ratio=b / s, budget="time <= 1.3x (ratio >= 0.77x)", ok=s <= 1.3 * b,
        notes=f"best of {repeats(ctx)}: sclm {s:.3f}s, bsdtar {b:.3f}s; time ratio {s / b:.2f}x")]
