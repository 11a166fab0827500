"""Validate two large packages: `sclm validate` vs `bsdtar -xOf pkg.zip > /dev/null`.

bsdtar -xO reads and decompresses every entry and checks its CRC, writing the data nowhere: the least
work any tool can do to know a zip is intact. `sclm validate` does that plus the whole package policy
(central-directory checks, budgets, HTML/CSS parsing, reference resolution). Two packages
(bench/package_gen.py): the ~400 MiB, 2,000-file deck of mostly media, and the ~140 MiB, 690-file deck of
mostly deflated JavaScript, CSS and HTML, where inflating and reading the text is all the work. Page cache
warm, best of N, interleaved. `7zz x -so > /dev/null` (Debian's 7zip, multi-threaded) is reported next to
bsdtar. Budget on each: sclm's time <= 0.75x bsdtar's (sclm reads the entries on every core).
"""
import json
import os
import resource
import subprocess
import time

from package_gen import large_package, repeats, text_package
from run import Result


def timed(command, cpu, **kwargs):
    """Runs `command`; returns its wall time and result, and appends its CPU time (user + system) to `cpu`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run(command, **kwargs)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return seconds, completed


def measure(ctx, package, kind):
    """One package: sclm, bsdtar and 7zz interleaved, best of N each."""
    subprocess.run(["bsdtar", "-xOf", str(package)], stdout=subprocess.DEVNULL, check=True)  # warm the cache
    ours, theirs, sevens = [], [], []
    our_cpu, their_cpu, seven_cpu = [], [], []
    for _ in range(repeats(ctx)):
        seconds, done = timed([ctx.sclm, "validate", "--format", "json", str(package)], our_cpu, capture_output=True,
                              text=True)
        report = json.loads(done.stdout)
        assert done.returncode == 0, report["packages"][0]["findings"][:5]
        ours.append(seconds)
        seconds, done = timed(["bsdtar", "-xOf", str(package)], their_cpu, stdout=subprocess.DEVNULL)
        assert done.returncode == 0
        theirs.append(seconds)
        seconds, done = timed(["7zz", "x", "-so", "-bd", str(package)], seven_cpu, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        assert done.returncode == 0
        sevens.append(seconds)
    s, b, z = min(ours), min(theirs), min(sevens)
    size = report["packages"][0]["bytes"]
    entries = report["packages"][0]["entries"]
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return Result(
        name=f"validate one {kind} package ({size / (1 << 20):.0f} MiB, {entries:,} entries)",
        sclm=f"{s:.3f} s ({size / s / (1 << 20):,.0f} MiB/s)",
        baseline=f"{b:.3f} s (bsdtar -xOf > /dev/null); 7zz x -so {z:.3f} s", ratio=b / s,
        budget="time <= 0.75x bsdtar (ratio >= 1.33x)", ok=s <= 0.75 * b,
        notes=f"best of {repeats(ctx)}: sclm {s:.3f}s, bsdtar {b:.3f}s, 7zz {z:.3f}s; time ratio {s / b:.2f}x bsdtar, "
              f"{s / z:.2f}x 7zz; CPU time (user + system, least) sclm {min(our_cpu):.3f}s, bsdtar "
              f"{min(their_cpu):.3f}s, 7zz {min(seven_cpu):.3f}s; load average {load} (1, 5, 15 min) after the runs")


def run(ctx):
    return [measure(ctx, large_package(ctx), "media"), measure(ctx, text_package(ctx), "text-heavy")]
