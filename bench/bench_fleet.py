"""A fleet of 20 hosts: origin bytes and wall time of 20 `sclm sync` runs at once, straight to the origin
(the dev-server) and through the shipped nginx site cache (`contrib/nginx/sclm-cache.conf`, run by
`Tests/Fleet/fleet.py` as the fleet test runs it), each into 20 fresh homes that are already logged in.

Origin bytes are the dev-server's blob bytes (`/_control/stats`). Budget (fleet row of the performance
budgets): through the cache the origin sends one copy of each package (±5 %); without it, one per host.
Wall time is reported for both (one run each: the cache run is cold, its first fetch per slice included).
"""
import pathlib
import sys
import urllib.parse

from run import ROOT, Result

sys.path.insert(0, str(ROOT / "Tests/Fleet"))

import fleet  # noqa: E402

HOSTS = 20


def measure(ctx, server, blob_proxy, name):
    homes = fleet.Fleet(ctx.sclm, server, ctx.work / f"fleet-{name}", HOSTS, blob_proxy=blob_proxy)
    server.control({"action": "resetStats"})
    elapsed, _ = homes.sync_all()
    digests = {fleet.content_digest(home) for home in homes.homes}
    if len(digests) != 1:
        raise RuntimeError(f"the {name} fleet's homes differ")
    return elapsed, server.stats()["totalBlobBytes"]


def run(ctx):
    packages, size = (4, "2M") if ctx.quick else (4, "16M")
    server = fleet.DevServer(packages, size=size, blob_dir=ctx.work / "fleet-blobs")
    nginx = fleet.Nginx(ctx.work, urllib.parse.urlsplit(server.url).netloc)
    try:
        one_copy = sum(fleet.package_sizes(server, range(10001, 10001 + packages)).values())
        direct_time, direct_bytes = measure(ctx, server, None, "direct")
        cached_time, cached_bytes = measure(ctx, server, nginx.url, "cached")
    finally:
        nginx.stop()
        server.stop()
    mib = 1 << 20
    return [Result(
        name=f"fleet of {HOSTS} hosts, {packages} x {size} packages",
        sclm=f"origin {cached_bytes / mib:.1f} MiB, {cached_time:.2f} s (nginx cache)",
        baseline=f"origin {direct_bytes / mib:.1f} MiB, {direct_time:.2f} s (direct)",
        ratio=direct_bytes / max(1, cached_bytes), budget="origin bytes = 1 copy per package (±5 %)",
        ok=abs(cached_bytes - one_copy) <= 0.05 * one_copy,
        notes=f"one copy is {one_copy / mib:.1f} MiB; wall time with/without the cache "
              f"{cached_time / direct_time:.2f}x")]
