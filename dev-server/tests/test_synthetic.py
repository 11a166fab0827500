"""Synthetic clients × presentations with exact-size, deterministic, incompressible packages."""
import hashlib
import io
import pathlib
import shutil
import tempfile
import zipfile
import zlib

from devserver.app import DevServer, Options
from devserver.synthetic import SyntheticSpec

from .support import ServerTestCase

SIZE = 3 * 1024 * 1024 + 12345


class SyntheticTests(ServerTestCase):
    def options(self):
        self.blob_dir = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.blob_dir, True)
        return Options(quiet=True, blob_dir=self.blob_dir, synthetic=SyntheticSpec(2, 3, SIZE, 4))

    def test_clients_and_presentations(self):
        clients = self.get_json("/v1/clients")
        self.assertEqual([c["id"] for c in clients], [1001, 1002])
        self.assertEqual([s["id"] for s in clients[1]["presentations"]], [10004, 10005, 10006])
        p = self.get_json("/v1/presentations/10004")
        self.assertEqual((p["clientId"], p["sourcesFolder"]["fileSize"]), (1002, SIZE))
        self.assertEqual([s["id"] for s in p["slides"]], [1000401, 1000402, 1000403, 1000404])
        slide = self.get_json("/v1/slides/1000402")
        self.assertEqual((slide["name"], slide["swipeNext"], slide["swipePrevious"], slide["linkedSlides"]),
                         ("slide2.html", "slide3.html", "index.html", "index.html,slide3.html"))

    def test_package_has_the_exact_size_slides_and_incompressible_payload(self):
        body = self.request("GET", self.package_sas(10001)).body
        self.assertEqual(len(body), SIZE)
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            self.assertIsNone(archive.testzip())
            names = archive.namelist()
            self.assertEqual(names[:4], ["index.html", "slide2.html", "slide3.html", "slide4.html"])
            self.assertEqual(names[4:], ["assets/payload-01.bin", "assets/payload-02.bin", "assets/payload-03.bin"])
            slide = self.get_json("/v1/slides/1000101")
            self.assertEqual(archive.read("index.html").decode(), __import__("base64").b64decode(
                slide["pageSource"]).decode())
            payload = archive.read("assets/payload-01.bin")
        self.assertGreater(len(zlib.compress(payload, 6)), 0.99 * len(payload))

    def test_head_does_not_generate_and_get_caches_on_disk(self):
        sas = self.package_sas(10002)
        head = self.request("HEAD", sas)
        self.assertEqual(int(head.headers["Content-Length"]), SIZE)
        self.assertEqual(list((self.blob_dir / "packages").glob("*.zip")), [])
        self.assertEqual(self.request("GET", sas, headers={"Range": f"bytes={SIZE - 10}-"}).status, 206)
        cached = list((self.blob_dir / "packages").glob("*.zip"))
        self.assertEqual(len(cached), 1)
        self.assertEqual(cached[0].stat().st_size, SIZE)

    def test_generation_is_deterministic_and_reused_from_a_persistent_blob_dir(self):
        first = self.request("GET", self.package_sas(10003))
        cached = next((self.blob_dir / "packages").glob("*.zip"))
        stamp = cached.stat().st_mtime_ns
        other = DevServer(Options(quiet=True, blob_dir=self.blob_dir, synthetic=SyntheticSpec(2, 3, SIZE, 4)))
        other.start_background()
        self.addCleanup(other.stop)
        try:
            self.base, self.port, saved = other.base_url, other.server_address[1], self.__dict__.pop("_access_token")
            second = self.request("GET", self.package_sas(10003))
        finally:
            self._access_token = saved
        self.assertEqual(second.headers["ETag"], first.headers["ETag"])
        self.assertEqual(hashlib.sha256(second.body).digest(), hashlib.sha256(first.body).digest())
        self.assertEqual(cached.stat().st_mtime_ns, stamp)

    def test_bump_revision_regenerates_with_the_same_size(self):
        before = self.request("GET", self.package_sas(10001))
        self.control("bumpRevision", presentationId=10001)
        after = self.request("GET", self.package_sas(10001))
        self.assertEqual(len(after.body), SIZE)
        self.assertNotEqual(after.headers["ETag"], before.headers["ETag"])
        self.assertNotEqual(after.body[-200:], before.body[-200:])

    def test_corrupting_a_lazy_package_generates_it_first(self):
        self.control("corruptPackage", presentationId=10005, mode="truncate")
        self.assertEqual(len(self.request("GET", self.package_sas(10005)).body), SIZE // 2)


class SyntheticSpecTests(ServerTestCase):
    def test_impossible_specs_are_refused(self):
        for spec in (SyntheticSpec(1, 1, 100, 3), SyntheticSpec(0, 1, 1 << 20), SyntheticSpec(1, 1, 1 << 20, 0),
                     SyntheticSpec(1, 1, 5 << 30)):
            with self.subTest(spec=spec):
                with self.assertRaises(ValueError):
                    DevServer(Options(quiet=True, synthetic=spec))

    def test_sample_content_and_synthetic_together(self):
        from .support import SAMPLE
        server = DevServer(Options(quiet=True, content=SAMPLE, synthetic=SyntheticSpec(1, 2, 65536)))
        self.addCleanup(server.stop)
        self.assertEqual(server.state.catalog.counts(), (3, 7))
