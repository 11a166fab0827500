"""Every /_control fault and data action, and the command-line flags that mirror them."""
import http.client
import io
import shutil
import socket
import tempfile
import threading
import time
import zipfile
from pathlib import Path

from devserver import cli

from .support import ServerTestCase


class FailTests(ServerTestCase):
    def test_fail_answers_status_with_retry_after_for_count_requests(self):
        self.bearer()
        self.control("fail", status=503, count=2, retryAfter=3)
        for _ in range(2):
            response = self.get("/v1/clients")
            self.assertEqual(response.status, 503)
            self.assertEqual(response.headers["Retry-After"], "3")
        self.assertEqual(self.get("/v1/clients").status, 200)

    def test_fail_without_retry_after_and_with_a_path_filter(self):
        self.bearer()
        self.control("fail", status=500, path="/v1/presentations/")
        self.assertEqual(self.get("/v1/clients").status, 200)
        response = self.get("/v1/presentations/101")
        self.assertEqual(response.status, 500)
        self.assertIsNone(response.headers["Retry-After"])
        self.assertEqual(self.get("/v1/presentations/101").status, 200)

    def test_fail_applies_to_token_requests_too(self):
        self.control("fail", status=503)
        response = self.post_form("/connect/token", {"grant_type": "password"})
        self.assertEqual(response.status, 503)
        self.assertEqual(self.token()["token_type"], "Bearer")

    def test_unlimited_count_lasts_until_reset(self):
        self.bearer()
        self.control("fail", status=503, count=-1, path="/v1/clients")
        for _ in range(3):
            self.assertEqual(self.get("/v1/clients").status, 503)
        pending = self.request("GET", "/_control").json()["pendingFaults"]
        self.assertEqual(pending, [{"kind": "fail", "count": -1, "path": "/v1/clients"}])
        self.control("reset")
        self.assertEqual(self.get("/v1/clients").status, 200)

    def test_control_requests_are_never_faulted(self):
        self.control("fail", status=503, count=-1)
        self.assertEqual(self.request("GET", "/_control/stats").status, 200)
        self.control("reset")


class DropTests(ServerTestCase):
    def test_drop_sends_headers_and_after_bytes_then_closes(self):
        sas = self.package_sas(101)
        size = self.get_json("/v1/contentpackages/101")["fileSize"]
        self.control("drop", afterBytes=1000, path="/blobs/")
        connection = self.connection()
        connection.request("GET", sas.split(self.base)[1])
        response = connection.getresponse()
        self.assertEqual(response.status, 200)
        self.assertEqual(int(response.headers["Content-Length"]), size)
        with self.assertRaises(http.client.IncompleteRead) as caught:
            response.read()
        self.assertEqual(len(caught.exception.partial), 1000)
        blob_id = sas.split("/")[-1].split("?")[0]
        self.assertEqual(self.stats()["blobBytes"][blob_id], 1000)
        self.assertEqual(len(self.request("GET", sas).body), size)

    def test_drop_after_zero_bytes_of_a_json_response(self):
        self.bearer()
        self.control("drop", afterBytes=0, path="/v1/clients")
        connection = self.connection()
        connection.request("GET", "/v1/clients", headers=self.bearer())
        response = connection.getresponse()
        with self.assertRaises(http.client.IncompleteRead):
            response.read()
        self.assertEqual(self.get("/v1/clients").status, 200)


class PadTests(ServerTestCase):
    def test_pad_sends_extra_bytes_after_the_blob_without_content_length(self):
        sas = self.package_sas(101)
        size = self.get_json("/v1/contentpackages/101")["fileSize"]
        plain = self.request("GET", sas).body
        self.control("pad", bytes=5000, path="/blobs/packages/")
        response = self.request("GET", sas)
        self.assertEqual(response.status, 200)
        self.assertIsNone(response.headers["Content-Length"])
        self.assertEqual(response.headers["Connection"], "close")
        self.assertEqual(response.body, plain + bytes(5000))
        blob_id = sas.split("/")[-1].split("?")[0]
        self.assertEqual(self.stats()["blobBytes"][blob_id], 2 * size + 5000)
        self.assertEqual(self.request("GET", sas).body, plain, "the fault lasts count requests")

    def test_pad_leaves_json_routes_alone(self):
        self.bearer()
        self.control("pad", bytes=10, path="/v1/clients")
        response = self.get("/v1/clients")
        self.assertEqual(int(response.headers["Content-Length"]), len(response.body))


class PatchTests(ServerTestCase):
    def test_patch_lays_fields_over_one_content_route(self):
        self.bearer()
        self.control("patch", path="/v1/contentpackages/101", fields={"fileSize": "abc"})
        self.control("patch", path="/v1/contentpackages/101/", fields={"mimeType": None})
        package = self.get_json("/v1/contentpackages/101")
        self.assertEqual((package["fileSize"], package["mimeType"]), ("abc", None))
        self.assertEqual(package["revision"], self.get_json("/v1/presentations/101")["sourcesFolder"]["revision"])
        self.assertIsInstance(self.get_json("/v1/contentpackages/102")["fileSize"], int)
        self.control("patch", path="/v1/presentations/103", fields={"id": 105, "clientId": 9})
        presentation = self.get_json("/v1/presentations/103")
        self.assertEqual((presentation["id"], presentation["clientId"]), (105, 9))
        self.control("patch", path="/v1/presentations/103", fields=None)
        self.assertEqual(self.get_json("/v1/presentations/103")["id"], 103)

    def test_patch_needs_a_content_route_and_an_object(self):
        for fields in ({"path": "/blobs/x", "fields": {}}, {"path": "/v1/clients", "fields": [1]}, {"fields": {}}):
            with self.subTest(fields=fields):
                self.control("patch", expect=400, **fields)


class StallTests(ServerTestCase):
    def test_stall_before_answering(self):
        self.bearer()
        self.control("stall", seconds=0.3, path="/v1/clients")
        started = time.monotonic()
        self.assertEqual(self.get("/v1/clients").status, 200)
        self.assertGreaterEqual(time.monotonic() - started, 0.29)

    def test_stall_mid_body_after_bytes(self):
        sas = self.package_sas(101)
        self.control("stall", seconds=0.3, afterBytes=500, path="/blobs/")
        connection = self.connection()
        connection.request("GET", sas.split(self.base)[1])
        response = connection.getresponse()
        head = response.read(500)
        started = time.monotonic()
        rest = response.read()
        self.assertGreaterEqual(time.monotonic() - started, 0.25)
        self.assertEqual(len(head) + len(rest), int(response.headers["Content-Length"]))

    def test_a_head_request_does_not_use_up_a_stall_after_bytes(self):
        sas = self.package_sas(101)
        self.control("stall", seconds=0.3, afterBytes=500, path="/blobs/")
        connection = self.connection()
        connection.request("HEAD", sas.split(self.base)[1])
        connection.getresponse().read()
        self.assertEqual([fault["kind"] for fault in self.get_json("/_control")["pendingFaults"]], ["stall"])

    def test_release_lets_stalled_requests_go_and_a_new_stall_holds_again(self):
        self.bearer()
        self.control("stall", seconds=60, count=2, path="/v1/clients")
        answers = []
        threads = [threading.Thread(target=lambda: answers.append(self.get("/v1/clients").status)) for _ in range(2)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 30  # a hang guard
        while self.stats()["requests"].get("GET /v1/clients", 0) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        self.assertEqual(answers, [], "held until released")
        self.control("release")
        for thread in threads:
            thread.join(timeout=30)
        self.assertEqual(answers, [200, 200])
        self.control("stall", seconds=0.2, path="/v1/clients")
        started = time.monotonic()
        self.get("/v1/clients")
        self.assertGreaterEqual(time.monotonic() - started, 0.2, "a stall added after a release holds again")

    def test_stopping_the_server_wakes_a_stalled_request(self):
        self.control("stall", seconds=30, path="/v1/")
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as sock:
            sock.sendall(b"GET /v1/clients HTTP/1.1\r\nHost: x\r\n\r\n")
            time.sleep(0.05)
            started = time.monotonic()
            self.server.stop()
            self.assertLess(time.monotonic() - started, 5)


class TokensInsteadOfContentTests(ServerTestCase):
    def test_answers_a_fresh_token_once_instead_of_the_resource(self):
        self.bearer()
        self.control("tokensInsteadOfContent", path="/v1/presentations/")
        answer = self.get("/v1/presentations/101")
        self.assertEqual(answer.status, 200)
        tokens = answer.json()
        self.assertEqual(set(tokens), {"access_token", "expires_in", "token_type", "refresh_token"})
        fresh = {"Authorization": f"Bearer {tokens['access_token']}"}
        self.assertEqual(self.request("GET", "/v1/presentations/101", headers=fresh).json()["id"], 101)


class RevisionActionTests(ServerTestCase):
    def test_bump_revision_moves_presentation_stub_and_package(self):
        before = self.get_json("/v1/contentpackages/101")
        old = self.request("GET", before["sas"])
        answer = self.control("bumpRevision", presentationId=101)
        self.assertEqual(answer, {"ok": True, "revision": 5})
        p = self.get_json("/v1/presentations/101")
        stub = next(s for s in self.get_json("/v1/clients/1")["presentations"] if s["id"] == 101)
        package = self.get_json("/v1/contentpackages/101")
        self.assertEqual((p["revision"], stub["revision"]), (5, 5))
        self.assertEqual(package["revision"], before["revision"] + 1)
        self.assertEqual(p["sourcesFolder"]["revision"], package["revision"])
        new = self.request("GET", package["sas"])
        self.assertNotEqual(new.headers["ETag"], old.headers["ETag"])
        self.assertNotEqual(new.body, old.body)
        with zipfile.ZipFile(io.BytesIO(old.body)) as a, zipfile.ZipFile(io.BytesIO(new.body)) as b:
            self.assertEqual({n: a.read(n) for n in a.namelist()}, {n: b.read(n) for n in b.namelist()})
            self.assertIn(b"revision=2", b.comment)
        other = self.get_json("/v1/presentations/102")
        self.assertEqual(other["revision"], 2)

    def test_delete_presentation_removes_it_everywhere(self):
        media_sas = self.get_json("/v1/mediafiles/1031")["sas"]
        self.control("deletePresentation", presentationId=103)
        stubs = [s["id"] for c in self.get_json("/v1/clients") for s in c["presentations"]]
        self.assertNotIn(103, stubs)
        self.assertNotIn(103, [s["id"] for s in self.get_json("/v1/clients/1")["presentations"]])
        for path in ("/v1/presentations/103", "/v1/contentpackages/103", "/v1/slides/10301", "/v1/mediafiles/1031"):
            self.assertEqual(self.get(path).status, 404, path)
        self.assertEqual(self.request("GET", media_sas).status, 404)
        self.control("deletePresentation", expect=404, presentationId=103)

    def make_zip(self, entries: dict[str, bytes]) -> Path:
        folder = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, folder, True)
        path = folder / "custom.zip"
        with zipfile.ZipFile(path, "w") as archive:
            for name, data in entries.items():
                archive.writestr(name, data)
        return path

    def test_set_package_serves_the_given_zip(self):
        path = self.make_zip({"index.html": b"<html>custom</html>", "../evil.txt": b"x"})
        self.assertEqual(self.control("setPackage", presentationId=102, path=str(path))["revision"], 3)
        package = self.get_json("/v1/contentpackages/102")
        body = self.request("GET", package["sas"]).body
        self.assertEqual(len(body), package["fileSize"])
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            self.assertEqual(archive.namelist(), ["index.html", "../evil.txt"])
            self.assertEqual(archive.read("index.html"), b"<html>custom</html>")
        path.unlink()  # the server kept its own copy
        self.control("bumpRevision", presentationId=102)
        with zipfile.ZipFile(io.BytesIO(self.request("GET", self.package_sas(102)).body)) as archive:
            self.assertEqual(archive.read("index.html"), b"<html>custom</html>")

    def test_set_package_with_a_missing_file_is_refused(self):
        answer = self.control("setPackage", expect=400, presentationId=102, path="/nonexistent/package.zip")
        self.assertFalse(answer["ok"])
        self.assertEqual(self.get_json("/v1/presentations/102")["revision"], 2)

    def test_corrupt_package_crc(self):
        self.assertEqual(self.control("corruptPackage", presentationId=101, mode="crc")["revision"], 5)
        body = self.request("GET", self.package_sas(101)).body
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            with self.assertRaises(zipfile.BadZipFile):
                for name in archive.namelist():
                    archive.read(name)
        self.control("bumpRevision", presentationId=101)
        with zipfile.ZipFile(io.BytesIO(self.request("GET", self.package_sas(101)).body)) as archive:
            self.assertIsNone(archive.testzip())

    def test_corrupt_package_truncate(self):
        size = self.get_json("/v1/contentpackages/103")["fileSize"]
        self.control("corruptPackage", presentationId=103, mode="truncate")
        package = self.get_json("/v1/contentpackages/103")
        self.assertEqual(package["fileSize"], size // 2)
        body = self.request("GET", package["sas"]).body
        self.assertEqual(len(body), size // 2)
        with self.assertRaises(zipfile.BadZipFile):
            zipfile.ZipFile(io.BytesIO(body))

    def test_invalid_actions(self):
        self.assertIn("unknown action", self.control("explode", expect=400)["error"])
        self.control("corruptPackage", expect=400, presentationId=101, mode="melt")
        self.control("bumpRevision", expect=404, presentationId=999)
        self.control("bumpRevision", expect=400)
        self.control("fail", expect=400, status=200)
        self.control("drop", expect=400)
        self.control("stall", expect=400, seconds="long")
        self.control("fail", expect=400, count=0)
        self.control("fail", expect=400, path="v1")
        response = self.request("POST", "/_control", b"{not json")
        self.assertEqual(response.status, 400)


class CommandLineFaultTests(ServerTestCase):
    def test_flags_build_control_actions(self):
        args = cli.parser().parse_args([
            "--fail", "503:2:1.5@/v1/", "--drop-after-bytes", "1000@/blobs/", "--stall", "2:1:300",
            "--tokens-instead-of-content", "1", "--iot-fail-ratio", "0.5:502",
            "--control", '{"action":"expireSas"}'])
        self.assertEqual(cli.fault_actions(args), [
            {"action": "fail", "status": 503, "count": 2, "retryAfter": 1.5, "path": "/v1/"},
            {"action": "drop", "afterBytes": 1000, "path": "/blobs/"},
            {"action": "stall", "seconds": 2.0, "count": 1, "afterBytes": 300},
            {"action": "tokensInsteadOfContent", "count": 1},
            {"action": "iotFail", "ratio": 0.5, "status": 502},
            {"action": "expireSas"},
        ])

    def test_malformed_flags_are_errors(self):
        for argv in (["--fail", "x"], ["--stall", "1:2:3:4"], ["--control", "{"], ["--fail", ""]):
            with self.subTest(argv=argv):
                with self.assertRaises(ValueError):
                    cli.fault_actions(cli.parser().parse_args(argv))
