"""Validate one large package: `sclm validate` vs `bsdtar -xOf pkg.zip > /dev/null`.

bsdtar -xO reads and decompresses every entry and checks its CRC, writing the data nowhere: the least
work any tool can do to know a zip is intact. `sclm validate` does that plus the whole package policy
(central-directory checks, budgets, HTML/CSS parsing, reference resolution). Both run on the same
~400 MiB, 2,000-file package (bench/package_gen.py), page cache warm, best of N, interleaved.
`7zz x -so > /dev/null` (Debian's 7zip, multi-threaded) is reported next to bsdtar.
Budget: sclm's time <= 0.75x bsdtar's (sclm reads the entries on every core).
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
    ours, theirs, sevens = [], [], []
    for _ in range(repeats(ctx)):
        seconds, done = timed([ctx.sclm, "validate", "--format", "json", str(package)], capture_output=True, text=True)
        report = json.loads(done.stdout)
        assert done.returncode == 0, report["packages"][0]["findings"][:5]
        ours.append(seconds)
        seconds, done = timed(["bsdtar", "-xOf", str(package)], stdout=subprocess.DEVNULL)
        assert done.returncode == 0
        theirs.append(seconds)
        seconds, done = timed(["7zz", "x", "-so", "-bd", str(package)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        assert done.returncode == 0
        sevens.append(seconds)
    s, b, z = min(ours), min(theirs), min(sevens)
    size = report["packages"][0]["bytes"]
    entries = report["packages"][0]["entries"]
    return [Result(
        name=f"validate one package ({size / (1 << 20):.0f} MiB, {entries:,} entries)",
        sclm=f"{s:.3f} s ({size / s / (1 << 20):,.0f} MiB/s)",
        baseline=f"{b:.3f} s (bsdtar -xOf > /dev/null); 7zz x -so {z:.3f} s", ratio=b / s,
        budget="time <= 0.75x bsdtar (ratio >= 1.33x)", ok=s <= 0.75 * b,
        notes=f"best of {repeats(ctx)}: sclm {s:.3f}s, bsdtar {b:.3f}s, 7zz {z:.3f}s; time ratio {s / b:.2f}x bsdtar, "
              f"{s / z:.2f}x 7zz")]
