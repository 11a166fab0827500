"""Delta updates: `sclm sync` of a new revision of an installed 300 MiB package of ~350 entries, against
`sclm sync --full` of the same revision, both through the dev-server.

- One slide and one image changed: bytes fetched (dev-server blob bytes) <= 1 % of the package, and wall time
  <= 0.1x the full sync with the blob server limited to a field link of 100 Mbit/s (`rateLimit`, shared by
  the connections of the one client); the unthrottled loopback ratio is reported beside it.
- 60 % of the bytes changed (sclm reads the directory, sees that and downloads in full): wall time <= 1.05x
  the full sync, on loopback (where the directory requests weigh the most).

Each measured sync runs in its own home where the previous revision was installed (in full) before; one run
each (a throttled full sync takes half a minute).
"""
import os
import random
import shutil
import subprocess
import zipfile

from dev_backend import DevServer, sclm_env
from run import Result, fresh_dir

PRESENTATION = 10001
LINK = 12_500_000  # 100 Mbit/s


def build(path, seeds, image_bytes):
    """A package: 40 slides and 10 scripts (deflated), images of `image_bytes` (stored, incompressible); the
    bytes of entry `name` come from `seeds[name]`."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, seed in sorted(seeds.items()):
            rng = random.Random(seed)
            if name.endswith(".jpg"):
                archive.writestr(zipfile.ZipInfo(name), rng.randbytes(image_bytes), zipfile.ZIP_STORED)
            else:
                words = [rng.choice(["<div class=slide>", "dose", "mg", "</div>", "\n", "var a=1;"]) for _ in range(6000)]
                archive.writestr(name, "".join(words), zipfile.ZIP_DEFLATED)


def deck(images):
    seeds = {"index.html": 1}
    seeds.update({f"slide{i}.html": 100 + i for i in range(40)})
    seeds.update({f"js/part{i}.js": 200 + i for i in range(10)})
    seeds.update({f"img/picture{i}.jpg": 1000 + i for i in range(images)})
    return seeds


def timed_sync(ctx, server, home, *extra):
    env = sclm_env(server, home)
    subprocess.run(["sync"], check=True)
    start = os.times().elapsed
    result = subprocess.run([ctx.sclm, "sync", "--json", *extra], env=env, capture_output=True, text=True)
    elapsed = os.times().elapsed - start
    if result.returncode != 0:
        raise RuntimeError(f"sclm sync failed: {result.stderr}")
    return elapsed


def installed_homes(ctx, server, package, names):
    """Homes with `package` installed (in full), logged in."""
    server.control({"action": "setPackage", "presentationId": PRESENTATION, "path": str(package)})
    homes = []
    for name in names:
        home = fresh_dir(ctx.work / f"delta-{name}")
        env = sclm_env(server, home)
        subprocess.run([ctx.sclm, "login", "--service"], env=env, check=True, capture_output=True)
        subprocess.run([ctx.sclm, "sync"], env=env, check=True, capture_output=True)
        homes.append(home)
    return homes


def compare(ctx, server, old, new, throttle):
    """(delta seconds, full seconds, package bytes the delta sync fetched)."""
    delta_home, full_home = installed_homes(ctx, server, old, ["delta", "full"])
    server.control({"action": "setPackage", "presentationId": PRESENTATION, "path": str(new)})
    server.control({"action": "rateLimit", "bytesPerSecond": LINK if throttle else 0})
    try:
        server.control({"action": "resetStats"})
        delta = timed_sync(ctx, server, delta_home)
        fetched = server.stats()["totalBlobBytes"]
        full = timed_sync(ctx, server, full_home, "--full")
    finally:
        server.control({"action": "rateLimit", "bytesPerSecond": 0})
    if digest(delta_home) != digest(full_home):
        raise RuntimeError("the delta and full installs differ")
    return delta, full, fetched


def digest(home):
    output = subprocess.run(f"cd {home}/content && find . -type f -print0 | sort -z | xargs -0 sha256sum",
                            shell=True, check=True, capture_output=True, text=True).stdout
    return output


def run(ctx):
    images, image_bytes = (60, 512 << 10) if ctx.quick else (300, 1 << 20)
    folder = fresh_dir(ctx.work / "delta-packages")
    base = deck(images)
    one = dict(base, **{"slide7.html": 7777, "img/picture42.jpg": 4242})
    most = dict(base, **{f"img/picture{i}.jpg": 9000 + i for i in range(int(images * 0.6))})
    paths = {}
    for name, seeds in (("old", base), ("one", one), ("most", most)):
        paths[name] = folder / f"{name}.zip"
        build(paths[name], seeds, image_bytes)
    size = os.path.getsize(paths["one"])
    server = DevServer(1, size="64K", blob_dir=ctx.work / "delta-blobs")
    try:
        slow_delta, slow_full, fetched = compare(ctx, server, paths["old"], paths["one"], throttle=True)
        fast_delta, fast_full, _ = compare(ctx, server, paths["old"], paths["one"], throttle=False)
        most_delta, most_full, most_fetched = compare(ctx, server, paths["old"], paths["most"], throttle=False)
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    mib = 1 << 20
    label = f"{size / mib:.0f} MiB, {len(base)} entries"
    return [
        Result(name=f"delta update, 1 slide + 1 image changed ({label}), 100 Mbit/s",
               sclm=f"{slow_delta:.2f} s, fetched {fetched / 1024:.0f} KiB", baseline=f"sync --full {slow_full:.2f} s",
               ratio=slow_full / slow_delta, budget="<= 1 % of the bytes, <= 0.1x time",
               ok=fetched <= 0.01 * size and slow_delta <= 0.1 * slow_full,
               notes=f"{100 * fetched / size:.2f} % of the bytes; on loopback without a limit "
                     f"{fast_delta:.2f} s vs {fast_full:.2f} s ({fast_delta / fast_full:.2f}x)"),
        Result(name=f"update with 60 % of the bytes changed ({label}), loopback",
               sclm=f"{most_delta:.2f} s", baseline=f"sync --full {most_full:.2f} s",
               ratio=most_full / most_delta, budget="<= 1.05x time",
               ok=most_delta <= 1.05 * most_full,
               notes=f"falls back to a full download after the directory: {most_fetched / mib:.1f} MiB fetched"),
    ]
