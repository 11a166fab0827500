"""Unpack one large package: PackageExtractor (+ installStaging) vs `bsdtar -xf`, with `7zz x` reported.

`sclm-bench unpack` does what sync does to install a package: extract into a staging folder next to the
target with the full package policy (every entry checked, O_EXCL|O_NOFOLLOW writes, CRCs), then swap it
in with rename(2). By default the staging tree is flushed to disk (one syncfs) before the swap, so a crash
never leaves a half-written presentation; bsdtar does not flush, so that case is compared with
`bsdtar -xf && sync -f` (what a script needs for the same guarantee), and `--no-sync` with plain
`bsdtar -xf`. Same ~400 MiB, 2,000-file package as bench_validate; each run starts from a fresh folder
with neither tree on disk, after a `sync`; best of N, interleaved in alternating order. `7zz x` (Debian's 7zip, multi-threaded) is
timed the same way and reported next to bsdtar. Budgets against bsdtar: time <= 0.75x in the page cache,
<= 0.9x flushed to disk. sclm splits the entries across the cores (bsdtar reads them on one thread).
"""
import json
import shutil
import subprocess
import time

from package_gen import large_package, repeats
from run import Result, fresh_dir


def timed(command, shell=False):
    subprocess.run(["sync"], check=True)
    start = time.perf_counter()
    completed = subprocess.run(command, shell=shell, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    assert completed.returncode == 0, completed.stderr
    return elapsed, completed.stdout


def compare(ctx, package, durable):
    flag = [] if durable else ["--no-sync"]
    sclm_folder, bsdtar_folder = ctx.work / "unpack-sclm", ctx.work / "unpack-bsdtar"
    results = []

    def ours():
        seconds, out = timed([ctx.bench_tool, "unpack", "--zip", str(package), "--target",
                              str(fresh_dir(sclm_folder) / "sources"), *flag])
        results.append(json.loads(out.strip().splitlines()[-1]))
        return seconds

    def theirs():
        target = fresh_dir(bsdtar_folder)
        command = f"bsdtar -xf '{package}' -C '{target}'" + (f" && sync -f '{target}'" if durable else "")
        return timed(command, shell=True)[0]

    def seven():
        target = fresh_dir(bsdtar_folder)
        command = f"7zz x -y -bd -o'{target}' '{package}' > /dev/null" + (f" && sync -f '{target}'" if durable else "")
        return timed(command, shell=True)[0]

    # Every run starts with neither tree on disk, and the order alternates: on this VM one run's time
    # drifts with the page cache the previous runs left, so a fixed order would favour one side.
    times = {ours: [], theirs: [], seven: []}
    for index in range(repeats(ctx)):
        for side in ((ours, theirs, seven) if index % 2 == 0 else (seven, theirs, ours)):
            shutil.rmtree(sclm_folder, ignore_errors=True)
            shutil.rmtree(bsdtar_folder, ignore_errors=True)
            times[side].append(side())
    shutil.rmtree(sclm_folder, ignore_errors=True)
    shutil.rmtree(bsdtar_folder, ignore_errors=True)
    result = results[-1]
    s, b, z = min(times[ours]), min(times[theirs]), min(times[seven])
    label = "flushed to disk" if durable else "page cache only"
    baseline = "bsdtar -xf && sync -f" if durable else "bsdtar -xf"
    limit = 0.9 if durable else 0.75
    return Result(
        name=f"unpack one package, {label} ({result['bytes'] / (1 << 20):.0f} MiB, {result['files']:,} files)",
        sclm=f"{s:.3f} s", baseline=f"{b:.3f} s ({baseline}); 7zz x {z:.3f} s", ratio=b / s,
        budget=f"time <= {limit}x bsdtar (ratio >= {1 / limit:.2f}x)", ok=s <= limit * b,
        notes=f"best of {repeats(ctx)}, order alternating: sclm {s:.3f}s, {baseline} {b:.3f}s, 7zz x {z:.3f}s; "
              f"time ratio {s / b:.2f}x bsdtar, {s / z:.2f}x 7zz; runs sclm {[round(t, 2) for t in times[ours]]}, "
              f"bsdtar {[round(t, 2) for t in times[theirs]]}, 7zz {[round(t, 2) for t in times[seven]]}")


def run(ctx):
    package = large_package(ctx)
    return [compare(ctx, package, durable=True), compare(ctx, package, durable=False)]
