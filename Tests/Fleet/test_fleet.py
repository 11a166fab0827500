"""The fleet test: 20 sclm homes syncing at once through Debian's nginx with the shipped site-cache config,
in front of the dev-server, all on loopback.

Needs nginx (`scripts/ensure-deps.sh nginx`, as `make test-fleet` does) and the built `sclm`
(`SCLM_BINARY`, default `.build/debug/sclm`). Run: `python3 -m unittest discover -s Tests/Fleet -v`.
"""
import http.client
import json
import pathlib
import shutil
import signal
import tempfile
import time
import unittest
import urllib.parse

import fleet

HOSTS = 20
PACKAGES = [10001, 10002, 10003, 10004]
PACKAGE_SIZE = "2M"
SCLM = pathlib.Path(__import__("os").environ.get("SCLM_BINARY", fleet.ROOT / ".build/debug/sclm"))


def within(actual: int, expected: int, tolerance: float = 0.05) -> bool:
    return abs(actual - expected) <= expected * tolerance


@unittest.skipUnless(shutil.which("nginx") or pathlib.Path("/usr/sbin/nginx").exists(), "nginx is not installed")
@unittest.skipUnless(SCLM.exists(), f"{SCLM} is not built")
class FleetThroughCacheTests(unittest.TestCase):
    """Tests run in name order and build on each other: first sync, a killed host, a revision bump; then the
    cache's own rules (allowed hosts, GET only, no storing without an ETag or with credentials)."""

    @classmethod
    def setUpClass(cls):
        cls.work = pathlib.Path(tempfile.mkdtemp(prefix="sclm-fleet-"))
        cls.server = fleet.DevServer(len(PACKAGES), size=PACKAGE_SIZE)
        cls.nginx = fleet.Nginx(cls.work, urllib.parse.urlsplit(cls.server.url).netloc)
        cls.fleet = fleet.Fleet(str(SCLM), cls.server, cls.work / "homes", HOSTS, blob_proxy=cls.nginx.url)

    @classmethod
    def tearDownClass(cls):
        cls.nginx.stop()
        cls.server.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def reset_origin_stats(self):
        self.server.control({"action": "resetStats"})

    def assert_served_once(self, sizes: dict[str, int], served: dict[str, int]):
        for blob_id, size in sizes.items():
            self.assertTrue(within(served.get(blob_id, 0), size),
                            f"origin sent {served.get(blob_id, 0)} bytes of blob {blob_id} of {size}")

    def test_1_every_host_ends_byte_identical_and_the_origin_serves_each_package_once(self):
        self.reset_origin_stats()
        elapsed, results = self.fleet.sync_all("--json")
        for result in results:
            summary = json.loads(result.stdout.splitlines()[-1])
            self.assertTrue(summary["ok"], result.stdout[-500:])
            self.assertEqual(len(summary["content"]["installed"]), len(PACKAGES))
        digests = {fleet.content_digest(home) for home in self.fleet.homes}
        self.assertEqual(len(digests), 1, "the homes' content differs")
        sizes = fleet.package_sizes(self.server, PACKAGES)
        served = fleet.origin_blob_bytes(self.server)
        self.assert_served_once(sizes, served)
        self.assertTrue(within(sum(served.values()), sum(sizes.values())), served)
        print(f"\n{HOSTS} hosts x {len(PACKAGES)} packages: {sum(served.values())} origin bytes, {elapsed:.1f} s")

    def test_2_a_host_killed_mid_download_resumes_through_the_cache(self):
        pid = PACKAGES[-1]
        self.server.control({"action": "bumpRevision", "presentationId": pid})
        sizes = fleet.package_sizes(self.server, [pid])
        (blob_id, size), = sizes.items()
        self.reset_origin_stats()
        # The origin sends 256 KiB of the first slice, then stalls: the host has a part file when it is killed.
        self.server.control({"action": "stall", "seconds": 3, "afterBytes": 256 << 10, "count": 1,
                             "path": f"/blobs/packages/{blob_id}"})
        home = self.fleet.homes[0]
        process = self.fleet.start_sync(home, "--json", "--presentation", str(pid))
        part = self.wait_for_part(home, process)
        process.send_signal(signal.SIGKILL)
        process.communicate()
        killed_at = part.stat().st_size
        self.assertLess(killed_at, size)
        result = self.fleet.run(home, "sync", "--json", "--presentation", str(pid))
        installed = [json.loads(line) for line in result.stdout.splitlines() if '"event":"installed"' in line]
        self.assertEqual(len(installed), 1, result.stdout[-500:])
        self.assertEqual(installed[0]["revision"], self.revision_of(pid))
        self.assertLessEqual(installed[0]["downloadedBytes"], size - killed_at, "the second run did not resume")
        self.assert_served_once(sizes, fleet.origin_blob_bytes(self.server))

    def test_3_a_revision_bump_at_the_same_blob_path_reaches_every_host_with_one_origin_fetch(self):
        before = fleet.content_digest(self.fleet.homes[0])
        bumped = PACKAGES[0]
        path_before = self.sas_path(bumped)
        self.server.control({"action": "bumpRevision", "presentationId": bumped})
        self.assertEqual(self.sas_path(bumped), path_before, "the dev-server moved the blob")
        self.reset_origin_stats()
        elapsed, results = self.fleet.sync_all()  # plain output: stdout is not a terminal
        for result in results:
            self.assertNotIn("\r", result.stdout + result.stderr, "a progress bar off a terminal")
            self.assertNotIn("\x1b[", result.stdout + result.stderr)
        digests = {fleet.content_digest(home) for home in self.fleet.homes}
        self.assertEqual(len(digests), 1, "the homes' content differs after the bump")
        self.assertNotEqual(digests, {before}, "the bumped revision was served stale")
        served = fleet.origin_blob_bytes(self.server)
        self.assert_served_once(fleet.package_sizes(self.server, [bumped]), served)
        # Presentation 10004, left behind on 19 hosts by test 2, came from the cache alone.
        self.assertTrue(within(sum(served.values()), sum(fleet.package_sizes(self.server, [bumped]).values())), served)
        # A home that fetches straight from the origin gets the same bytes.
        direct = fleet.Fleet(str(SCLM), self.server, self.work / "direct", 1)
        direct.run(direct.homes[0], "sync")
        self.assertEqual({fleet.content_digest(direct.homes[0])}, digests)
        print(f"\nrevision bump to {HOSTS} hosts: {sum(served.values())} origin bytes, {elapsed:.1f} s")

    def test_4_the_cache_refuses_other_hosts_and_never_stores_uncached_requests(self):
        origin = urllib.parse.urlsplit(self.server.url).netloc
        self.server.control({"action": "bumpRevision", "presentationId": PACKAGES[1]})  # a version not cached yet
        sas = urllib.parse.urlsplit(self.sas_url(PACKAGES[1]))
        through = f"/{origin}{sas.path}?{sas.query}"
        etag = {"X-SCLM-ETag": self.origin_etag(sas)}
        self.assertEqual(self.via_cache(f"/example.com{sas.path}", etag)[0], 403)
        self.assertEqual(self.via_cache(through, etag, method="POST")[0], 403)
        for headers in ({}, {**etag, "Authorization": "Bearer t"}):
            for _ in range(2):
                status, cache = self.via_cache(through, headers)
                self.assertEqual((status, cache), (200, "BYPASS"), headers)
        self.assertEqual(self.via_cache(through, etag)[1], "MISS")
        self.assertEqual(self.via_cache(through, etag)[1], "HIT")

    # MARK: helpers

    def via_cache(self, path: str, headers: dict, method: str = "GET") -> tuple[int, str | None]:
        connection = http.client.HTTPConnection("127.0.0.1", self.nginx.port, timeout=10)
        try:
            connection.request(method, path, headers=headers)
            response = connection.getresponse()
            response.read()
            return response.status, response.getheader("X-Cache-Status")
        finally:
            connection.close()

    def origin_etag(self, sas: urllib.parse.SplitResult) -> str:
        connection = http.client.HTTPConnection(sas.hostname, sas.port, timeout=10)
        try:
            connection.request("HEAD", f"{sas.path}?{sas.query}")
            return connection.getresponse().getheader("ETag")
        finally:
            connection.close()

    def sas_url(self, pid: int) -> str:
        token = self.server.token()
        return self.server.request("GET", f"/v1/contentpackages/{pid}", headers={"Authorization": f"Bearer {token}"})[
            "sas"]

    def wait_for_part(self, home: pathlib.Path, process) -> pathlib.Path:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            parts = [p for p in (home / "cache").glob("*.part") if p.stat().st_size > 0]
            if parts:
                return parts[0]
            if process.poll() is not None:
                self.fail(f"sync ended before the stall: {process.stdout.read()[-500:]}")
            time.sleep(0.02)
        process.kill()
        self.fail("no part file appeared")

    def revision_of(self, pid: int) -> int:
        token = self.server.token()
        return self.server.request("GET", f"/v1/presentations/{pid}", headers={"Authorization": f"Bearer {token}"})[
            "revision"]

    def sas_path(self, pid: int) -> str:
        return urllib.parse.urlsplit(self.sas_url(pid)).path


if __name__ == "__main__":
    unittest.main()
