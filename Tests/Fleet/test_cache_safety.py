"""The site cache cannot be poisoned, and a host still syncs when it is down.

`SeedingAttackTests`: with a valid signed link, an attacker on the site network asks Debian's nginx (the
shipped `contrib/nginx/sclm-cache.conf`) to store today's bytes under other ETags, even the exact ETag of the
version the server will publish next; the server then publishes that version at the same blob path with the
same size, and a host syncing through the cache installs the origin's current bytes. `FallbackTests`: with the
cache unreachable, sync fetches from the origin (said once per run), or with `sync.blobProxyFallback false`
fails with an error naming `sync.blobProxy`.

Run: `python3 -m unittest discover -s Tests/Fleet -v` (needs nginx and the built `sclm`).
"""
import http.client
import io
import json
import os
import pathlib
import shutil
import sys
import tempfile
import unittest
import urllib.parse
import zipfile

import fleet

sys.path.insert(0, str(fleet.ROOT / "dev-server"))
from devserver import zips  # noqa: E402
from devserver.packages import package_comment  # noqa: E402

PRESENTATION = 10001
SCLM = pathlib.Path(os.environ.get("SCLM_BINARY", fleet.ROOT / ".build/debug/sclm"))
HAS_NGINX = bool(shutil.which("nginx")) or pathlib.Path("/usr/sbin/nginx").exists()


def same_size_versions(package: bytes) -> tuple[bytes, bytes]:
    """Two versions of a package zip of exactly the same size: every entry stored (not deflated) with a
    fixed date, plus `revision.txt` holding `A` in one and `B` in the other."""
    source = zipfile.ZipFile(io.BytesIO(package))
    versions = []
    for marker in (b"A", b"B"):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as target:
            for info in source.infolist():
                if not info.is_dir():
                    target.writestr(zipfile.ZipInfo(info.filename, (2020, 1, 1, 0, 0, 0)), source.read(info))
            target.writestr(zipfile.ZipInfo("revision.txt", (2020, 1, 1, 0, 0, 0)), marker)
        versions.append(buffer.getvalue())
    assert len(versions[0]) == len(versions[1])
    return versions[0], versions[1]


def predicted_etag(upload: pathlib.Path, revision: int) -> str:
    """The ETag the dev-server will give `upload` published as `revision` of the presentation: the SHA-256
    prefix of the zip with its revision comment (what an attacker who knows the next version can work out)."""
    served = upload.with_suffix(f".r{revision}")
    zips.copy_with_comment(upload, served, package_comment(PRESENTATION, revision))
    return f'"{zips.sha256_file(served)[:32]}"'


class OriginMixin:
    """A dev-server (and any nginx started in front of it) for the class, with helpers over its content API
    and blobs."""

    server: fleet.DevServer
    caches: list

    @classmethod
    def start_origin(cls, prefix: str, presentations: int, size: str):
        cls.work = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
        cls.server = fleet.DevServer(presentations, size=size)
        cls.origin_host = urllib.parse.urlsplit(cls.server.url).netloc
        cls.caches = []

    @classmethod
    def tearDownClass(cls):
        for cache in cls.caches:
            cache.stop()
        cls.server.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def package(self, pid: int = PRESENTATION) -> dict:
        token = self.server.token()
        return self.server.request("GET", f"/v1/contentpackages/{pid}", headers={"Authorization": f"Bearer {token}"})

    def fetch(self, host: str, port: int, path: str, headers: dict | None = None, method: str = "GET"):
        connection = http.client.HTTPConnection(host, port, timeout=30)
        try:
            connection.request(method, path, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def origin(self, sas: str, method: str = "GET"):
        parts = urllib.parse.urlsplit(sas)
        return self.fetch(parts.hostname, parts.port, f"{parts.path}?{parts.query}", method=method)


@unittest.skipUnless(HAS_NGINX, "nginx is not installed")
@unittest.skipUnless(SCLM.exists(), f"{SCLM} is not built")
class SeedingAttackTests(OriginMixin, unittest.TestCase):
    """Tests build on each other in name order: publish A, seed, publish B, sync a victim."""

    @classmethod
    def setUpClass(cls):
        cls.start_origin("sclm-seed-", 1, "3M")
        cls.nginx = fleet.Nginx(cls.work, cls.origin_host)
        cls.caches.append(cls.nginx)

    def via_cache(self, nginx: fleet.Nginx, sas: str, etag: str):
        parts = urllib.parse.urlsplit(sas)
        status, headers, body = self.fetch("127.0.0.1", nginx.port, f"/{self.origin_host}{parts.path}?{parts.query}",
                                           {"X-SCLM-ETag": etag})
        return status, headers.get("X-Cache-Status"), headers.get("ETag"), body

    def publish(self, upload: pathlib.Path) -> dict:
        self.server.control({"action": "setPackage", "presentationId": PRESENTATION, "path": str(upload)})
        return self.package()

    def revision(self) -> int:
        token = self.server.token()
        return self.server.request("GET", f"/v1/presentations/{PRESENTATION}",
                                   headers={"Authorization": f"Bearer {token}"})["revision"]

    def test_the_seeded_cache_gives_a_victim_the_origins_current_bytes(self):
        _, _, current = self.origin(self.package()["sas"])
        uploads = [self.work / "a.zip", self.work / "b.zip"]
        for upload, version in zip(uploads, same_size_versions(current)):
            upload.write_bytes(version)
        package_a = self.publish(uploads[0])  # "revision 4": the attacker holds a valid link to it
        sas = package_a["sas"]
        status, headers, version_a = self.origin(sas)
        etag_a = headers["ETag"]
        self.assertEqual((status, etag_a), (200, predicted_etag(uploads[0], self.revision())))
        etag_b = predicted_etag(uploads[1], self.revision() + 1)  # even the exact ETag of the next version
        for claim in (etag_b, '"0x8DC0FFEE"', "*", etag_a.replace('"', "")):
            for _ in range(2):
                status, cache, _, _ = self.via_cache(self.nginx, sas, claim)
                self.assertNotEqual(cache, "HIT", f"a claim of {claim} was served from the cache")
                # If-Match: * matches any version: the origin answers, and the map keeps it out of the cache.
                self.assertEqual(status, 200 if claim == "*" else 412, f"a claim of {claim}")
        self.assertEqual(self.via_cache(self.nginx, sas, etag_a)[:3], (200, "MISS", etag_a))
        status, cache, etag, body = self.via_cache(self.nginx, sas, etag_a)
        self.assertEqual((status, cache, etag, body), (200, "HIT", etag_a, version_a))
        # "Revision 5" at the same blob path with the same size.
        package_b = self.publish(uploads[1])
        self.assertEqual((package_b["blobId"], package_b["fileSize"]), (package_a["blobId"], package_a["fileSize"]))
        self.assertEqual(urllib.parse.urlsplit(package_b["sas"]).path, urllib.parse.urlsplit(sas).path)
        self.assertEqual(self.origin(package_b["sas"], method="HEAD")[1]["ETag"], etag_b)
        victim = fleet.Fleet(str(SCLM), self.server, self.work / "victim", 1, blob_proxy=self.nginx.url)
        home = victim.homes[0]
        result = victim.run(home, "sync", "--json")
        self.assertTrue(json.loads(result.stdout.splitlines()[-1])["ok"], result.stdout[-800:])
        installed = list((home / "content").rglob("revision.txt"))
        self.assertEqual([path.read_bytes() for path in installed], [b"B"], "the seeded bytes were installed")

    def test_a_slice_is_stored_only_when_the_origins_etag_is_the_claimed_one(self):
        """Without the If-Match the config sends (an origin that ignores it), the volatile map alone keeps a
        mismatched answer out of the cache, for every 1 MiB slice subrequest."""
        shipped = fleet.SHIPPED_CONFIG.read_text()
        line = "        proxy_set_header If-Match $http_x_sclm_etag;\n"
        self.assertIn(line, shipped)
        nginx = fleet.Nginx(self.work / "no-if-match", self.origin_host, config=shipped.replace(line, ""))
        try:
            package = self.package()
            self.assertGreater(package["fileSize"], 2 << 20, "the package must span several slices")
            etag = self.origin(package["sas"], method="HEAD")[1]["ETag"]
            for _ in range(2):
                status, cache, served, _ = self.via_cache(nginx, package["sas"], '"0xFORGED"')
                self.assertEqual((status, cache, served), (200, "MISS", etag), "a mismatched answer was stored")
            self.assertEqual(self.via_cache(nginx, package["sas"], etag)[1], "MISS")
            status, cache, served, body = self.via_cache(nginx, package["sas"], etag)
            self.assertEqual((status, cache, served, len(body)), (200, "HIT", etag, package["fileSize"]))
        finally:
            nginx.stop()


    def test_the_cache_marks_its_own_failures_and_passes_the_origins_through(self):
        sas = self.package()["sas"]
        etag = self.origin(sas, method="HEAD")[1]["ETag"]
        self.server.control({"action": "fail", "status": 502, "count": 1, "path": urllib.parse.urlsplit(sas).path})
        status, _, _, body = self.via_cache(self.nginx, sas, etag)
        self.assertEqual(status, 502)
        self.assertNotIn(b"SclmCacheOriginUnreachable", body, "the origin's 502 was dressed as the cache's")
        unreachable = fleet.Nginx(self.work / "unreachable", self.origin_host, config=self.closed_origin_config())
        self.caches.append(unreachable)
        status, _, _, body = self.via_cache(unreachable, sas, etag)
        self.assertEqual((status, json.loads(body)), (502, {"error": "SclmCacheOriginUnreachable"}))

    @staticmethod
    def closed_origin_config() -> str:
        """The shipped config with the origin it proxies to replaced by a closed port."""
        shipped = fleet.SHIPPED_CONFIG.read_text()
        line = "proxy_pass $sclm_origin_scheme://$sclm_blob_host$sclm_blob_path$is_args$args;"
        if line not in shipped:
            raise AssertionError(f"contrib/nginx/sclm-cache.conf has no line {line!r}")
        return shipped.replace(line, f"proxy_pass http://127.0.0.1:{fleet.free_port()}$sclm_blob_path$is_args$args;")


@unittest.skipUnless(SCLM.exists(), f"{SCLM} is not built")
class FallbackTests(OriginMixin, unittest.TestCase):
    """A cache that refuses connections (a closed port on loopback)."""

    @classmethod
    def setUpClass(cls):
        cls.start_origin("sclm-fallback-", 3, "64K")
        cls.down = f"http://127.0.0.1:{fleet.free_port()}"

    def host(self, name: str, fallback: str) -> tuple[fleet.Fleet, pathlib.Path]:
        hosts = fleet.Fleet(str(SCLM), self.server, self.work / name, 1, blob_proxy=self.down)
        home = hosts.homes[0]
        hosts.run(home, "config", "set", "sync.blobProxyFallbackDelay", "0")
        hosts.run(home, "config", "set", "sync.blobProxyFallback", fallback)
        return hosts, home

    def test_a_cache_that_is_down_sends_the_host_to_the_origin_and_says_so_once(self):
        hosts, home = self.host("json", "true")
        result = hosts.run(home, "sync", "--json")
        summary = json.loads(result.stdout.splitlines()[-1])
        self.assertTrue(summary["ok"], result.stdout[-800:])
        self.assertEqual(len(summary["content"]["installed"]), 3)
        notice = summary["content"]["blobProxyFallback"]
        self.assertIn("sync.blobProxy", notice)
        self.assertIn(urllib.parse.urlsplit(self.down).netloc, notice)
        self.assertEqual(result.stdout.count("could not be reached"), 1, result.stdout)
        metrics = hosts.run(home, "status", "--format", "prometheus").stdout
        self.assertIn("\nsclm_sync_last_blob_proxy_fallback 1\n", metrics)
        hosts, home = self.host("text", "true")
        hosts.run(home, "config", "set", "sync.blobProxyFallbackDelay", "1")
        result = hosts.run(home, "sync")
        self.assertEqual((result.stdout + result.stderr).count("could not be reached"), 1, result.stdout)

    @unittest.skipUnless(HAS_NGINX, "nginx is not installed")
    def test_the_caches_own_502_sends_the_host_to_the_origin(self):
        cache = fleet.Nginx(self.work / "nginx", self.origin_host, config=SeedingAttackTests.closed_origin_config())
        self.caches.append(cache)
        hosts = fleet.Fleet(str(SCLM), self.server, self.work / "own-502", 1, blob_proxy=cache.url)
        home = hosts.homes[0]
        hosts.run(home, "config", "set", "sync.blobProxyFallbackDelay", "0")
        summary = json.loads(hosts.run(home, "sync", "--json").stdout.splitlines()[-1])
        self.assertTrue(summary["ok"])
        self.assertIn("HTTP 502", summary["content"]["blobProxyFallback"])

    def test_with_the_fallback_forbidden_the_error_names_the_setting(self):
        hosts, home = self.host("forbidden", "false")
        result = hosts.run(home, "sync", check=False)
        self.assertEqual(result.returncode, 1, result.stderr)
        output = result.stdout + result.stderr
        self.assertIn("sync.blobProxy (", output)
        self.assertIn("sync.blobProxyFallback is false", output)
        self.assertFalse(list((home / "content").rglob("*.html")), "something was installed from the origin")


if __name__ == "__main__":
    unittest.main()
