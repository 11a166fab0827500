"""Content API JSON shapes (the StoryCLM content API) served from sample-content/."""
import base64
import io
import json
import re
import zipfile

from devserver import zips

from .support import SAMPLE, ServerTestCase, sample_folder

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$")
CLIENT_KEYS = {"id", "name", "lockoutEnabled", "shortDescription", "longDescription", "thumbImgId", "imgId", "url",
               "email", "created", "updated", "deviceLogTable", "baseStatisticsTable", "geolocationTable",
               "presentations", "users", "groups", "tables"}
PRESENTATION_KEYS = {"id", "name", "shortDescription", "longDescription", "thumbImgId", "imgId", "order", "revision",
                     "created", "updated", "clientId", "debugModeEnabled", "skip", "mapEnabled", "mapType",
                     "needConfirmation", "previewMode", "map", "visibility", "sourcesFolder", "mediaFiles", "slides",
                     "presentations", "users"}
PACKAGE_KEYS = {"id", "revision", "sas", "blobId", "fileSize", "mimeType", "created", "updated"}
SLIDE_KEYS = {"id", "revision", "name", "pageSource", "linkedSlides", "swipeNext", "swipePrevious", "created",
              "updated"}
MEDIA_KEYS = {"id", "revision", "fileName", "title", "blobId", "fileSize", "mimeType", "created", "updated", "sas",
              "isAvailableForSharing"}


class ClientRouteTests(ServerTestCase):
    def test_clients_list_with_presentation_stubs(self):
        clients = self.get_json("/v1/clients")
        self.assertEqual(clients, self.get_json("/v1/clients/"))
        self.assertEqual([client["id"] for client in clients], [1, 2])
        self.assertEqual(clients[0]["name"], "Demo Pharma")
        for client in clients:
            self.assertEqual(set(client), CLIENT_KEYS)
            self.assertRegex(client["created"], DATE)
            for stub in client["presentations"]:
                self.assertEqual(set(stub), {"id", "revision", "debug", "skip", "lockout"})
        stubs = {stub["id"]: stub for client in clients for stub in client["presentations"]}
        self.assertEqual(sorted(stubs), [101, 102, 103, 201, 202])
        self.assertEqual(stubs[101]["revision"], 4)
        self.assertTrue(stubs[202]["skip"])
        self.assertFalse(stubs[101]["skip"])

    def test_single_client_equals_its_list_entry(self):
        self.assertEqual(self.get_json("/v1/clients/2"), self.get_json("/v1/clients")[1])

    def test_head_sends_headers_without_body(self):
        connection = self.connection()
        head = self.request("HEAD", "/v1/clients", headers=self.bearer(), connection=connection)
        self.assertEqual(head.status, 200)
        self.assertEqual(head.body, b"")
        full = self.request("GET", "/v1/clients", headers=self.bearer(), connection=connection)
        self.assertEqual(int(head.headers["Content-Length"]), len(full.body))


class PresentationRouteTests(ServerTestCase):
    def test_presentation_shape(self):
        p = self.get_json("/v1/presentations/101")
        self.assertEqual(set(p), PRESENTATION_KEYS)
        meta = json.loads((sample_folder("cardiora-detail-aid") / "presentation.json").read_text())
        self.assertEqual((p["name"], p["clientId"], p["revision"], p["order"], p["needConfirmation"]),
                         (meta["name"], 1, 4, 3, True))
        self.assertEqual(p["slides"], [{"id": 10100 + index, "revision": 0} for index in range(1, 6)])
        self.assertEqual(p["mediaFiles"], [{"fileSize": (sample_folder("cardiora-detail-aid") / "mediafiles" /
                                                         "cardiora-smpc.pdf").stat().st_size, "id": 1011,
                                            "revision": 0}])
        folder = p["sourcesFolder"]
        self.assertEqual(set(folder), {"id", "blobId", "fileSize", "mimeType", "revision", "created", "updated"})
        self.assertEqual(folder["mimeType"], "application/zip")
        self.assertRegex(folder["blobId"], r"^[0-9a-f]{32}$")
        for key in ("created", "updated"):
            self.assertRegex(p[key], DATE)
            self.assertRegex(folder[key], DATE)

    def test_content_package_matches_sources_folder_and_downloads(self):
        folder = self.get_json("/v1/presentations/102")["sourcesFolder"]
        package = self.get_json("/v1/contentpackages/102")
        self.assertEqual(set(package), PACKAGE_KEYS)
        for key in ("id", "revision", "blobId", "fileSize", "mimeType"):
            self.assertEqual(package[key], folder[key])
        self.assertRegex(package["sas"], rf"^{self.base}/blobs/packages/{package['blobId']}\?se=\d+&sig=[0-9a-f]+$")
        blob = self.request("GET", package["sas"])
        self.assertEqual(blob.status, 200)
        self.assertEqual(len(blob.body), package["fileSize"])
        source = sample_folder("respira-inhaler-training")
        with zipfile.ZipFile(io.BytesIO(blob.body)) as archive:
            self.assertIsNone(archive.testzip())
            names = archive.namelist()
            expected = [name for name, _ in zips.source_files(source, exclude=["presentation.json"])]
            self.assertEqual(names, expected)
            self.assertIn("mediafiles/respira-steps.png", names)
            self.assertNotIn("presentation.json", names)
            for name in names:
                self.assertEqual(archive.read(name), (source / name).read_bytes(), name)
            self.assertTrue(all(info.compress_type == zipfile.ZIP_DEFLATED for info in archive.infolist()))

    def test_every_sample_presentation_is_served(self):
        for client in self.get_json("/v1/clients"):
            for stub in client["presentations"]:
                with self.subTest(presentation=stub["id"]):
                    p = self.get_json(f"/v1/presentations/{stub['id']}")
                    self.assertEqual((p["revision"], p["clientId"]), (stub["revision"], client["id"]))
                    self.assertEqual(self.get_json(f"/v1/contentpackages/{stub['id']}")["fileSize"],
                                     p["sourcesFolder"]["fileSize"])


class SlideAndMediaRouteTests(ServerTestCase):
    def test_slide_from_html_meta_tags(self):
        slide = self.get_json("/v1/slides/10103")
        self.assertEqual(set(slide), SLIDE_KEYS)
        self.assertEqual(slide["name"], "dosage.html")
        self.assertEqual(base64.b64decode(slide["pageSource"]),
                         (sample_folder("cardiora-detail-aid") / "dosage.html").read_bytes())
        self.assertEqual((slide["swipeNext"], slide["swipePrevious"]), ("safety.html", "efficacy.html"))
        self.assertEqual(slide["linkedSlides"], "efficacy.html,safety.html")

    def test_start_and_end_slides(self):
        first, last = self.get_json("/v1/slides/10101"), self.get_json("/v1/slides/10105")
        self.assertEqual((first["name"], first["swipePrevious"], first["linkedSlides"]),
                         ("index.html", "", "efficacy.html"))
        self.assertEqual((last["name"], last["swipeNext"]), ("references.html", ""))

    def test_media_file_with_sas(self):
        media = self.get_json("/v1/mediafiles/1011")
        self.assertEqual(set(media), MEDIA_KEYS)
        self.assertEqual((media["fileName"], media["mimeType"]), ("cardiora-smpc.pdf", "application/pdf"))
        self.assertRegex(media["sas"], rf"^{self.base}/blobs/mediafiles/{media['blobId']}\?se=\d+&sig=[0-9a-f]+$")
        blob = self.request("GET", media["sas"])
        self.assertEqual(blob.status, 200)
        self.assertEqual(blob.headers["Content-Type"], "application/pdf")
        source = (sample_folder("cardiora-detail-aid") / "mediafiles" / "cardiora-smpc.pdf").read_bytes()
        self.assertEqual((blob.body, media["fileSize"]), (source, len(source)))
        png = self.get_json("/v1/mediafiles/1021")
        self.assertEqual((png["mimeType"], png["isAvailableForSharing"]), ("image/png", True))
        self.assertFalse(self.get_json("/v1/mediafiles/1031")["isAvailableForSharing"])


class NotFoundTests(ServerTestCase):
    def test_unknown_ids_are_404_json(self):
        for path in ("/v1/clients/99", "/v1/presentations/999", "/v1/slides/12345", "/v1/mediafiles/7",
                     "/v1/contentpackages/999", "/v1/presentations/abc", "/v1/unknown"):
            with self.subTest(path=path):
                response = self.get(path)
                self.assertEqual(response.status, 404)
                self.assertEqual(response.json()["error"], "not_found")

    def test_wrong_method_is_405(self):
        response = self.request("POST", "/v1/clients", b"{}", self.bearer())
        self.assertEqual(response.status, 405)
        self.assertEqual(response.headers["Allow"], "GET, HEAD")
        self.assertEqual(self.request("GET", "/connect/token").status, 405)

    def test_unknown_route_is_404(self):
        self.assertEqual(self.request("GET", "/nothing/here").status, 404)


class SampleFolderTests(ServerTestCase):
    def test_sample_folder_is_the_default(self):
        self.assertTrue((SAMPLE / "clients.json").is_file())
        self.assertEqual(self.server.state.catalog.counts(), (2, 5))
