"""GET /_control/stats: request keys, grant types, failed requests, blob bytes, resetStats."""
import urllib.parse

from .support import DEMO_FORM, ServerTestCase


class StatsTests(ServerTestCase):
    def test_requests_are_counted_by_method_path_and_grant(self):
        answer = self.token()
        self.post_form("/connect/token", {"grant_type": "refresh_token", "refresh_token": answer["refresh_token"],
                                          "client_id": "sclm-demo", "client_secret": "demo-secret"})
        self.post_form("/connect/token", {**DEMO_FORM, "grant_type": "client_credentials"})
        self.post_form("/connect/token", {**DEMO_FORM, "password": "wrong"})
        self.get("/v1/clients")
        self.get("/v1/clients?cache=no")
        self.get("/v1/presentations/101")
        self.control("fail", status=503, path="/v1/presentations/")
        self.get("/v1/presentations/101")
        self.request("GET", "/v1/clients")  # 401, still counted
        stats = self.stats()
        self.assertEqual(stats["requests"], {
            "POST /connect/token password": 3, "POST /connect/token refresh_token": 1,
            "POST /connect/token client_credentials": 1, "GET /v1/clients": 3, "GET /v1/presentations/101": 2})
        self.assertEqual(stats["statuses"], {"200": 7, "400": 1, "503": 1, "401": 1})

    def test_blob_bytes_per_blob_and_total(self):
        package = self.get_json("/v1/contentpackages/101")
        media = self.get_json("/v1/mediafiles/1011")
        self.request("GET", package["sas"])
        self.request("GET", package["sas"], headers={"Range": "bytes=100-"})
        self.request("HEAD", package["sas"])
        self.request("GET", media["sas"])
        stats = self.stats()
        expected = {package["blobId"]: 2 * package["fileSize"] - 100, media["blobId"]: media["fileSize"]}
        self.assertEqual(stats["blobBytes"], expected)
        self.assertEqual(stats["totalBlobBytes"], sum(expected.values()))
        self.assertEqual(stats["requests"][f"GET /blobs/packages/{package['blobId']}"], 2)
        self.assertEqual(stats["requests"][f"HEAD /blobs/packages/{package['blobId']}"], 1)

    def test_reset_stats_zeroes_every_counter(self):
        self.get("/v1/clients")
        self.request("GET", self.package_sas(101))
        self.control("resetStats")
        self.assertEqual(self.stats(), {"requests": {}, "statuses": {}, "blobBytes": {}, "totalBlobBytes": 0,
                                        "sessionCookies": {"issued": 0, "presented": 0, "unknown": 0}})


class RevisionBumpAtTheSamePathTests(ServerTestCase):
    """What a site cache in front of the blobs relies on: a bumped package keeps its blob path (so only a
    key with the revision tells the versions apart), and the bytes sent are counted per blob."""

    def test_a_bumped_package_keeps_its_blob_path_with_new_bytes_and_both_downloads_are_counted(self):
        before = self.get_json("/v1/contentpackages/101")
        first = self.request("GET", before["sas"])
        self.control("bumpRevision", presentationId=101)
        after = self.get_json("/v1/contentpackages/101")
        second = self.request("GET", after["sas"])
        self.assertEqual(after["revision"], before["revision"] + 1)
        self.assertEqual(urllib.parse.urlsplit(after["sas"]).path, urllib.parse.urlsplit(before["sas"]).path)
        self.assertEqual(after["blobId"], before["blobId"])
        self.assertNotEqual(first.body, second.body)
        self.assertNotEqual(first.headers["ETag"], second.headers["ETag"])
        self.assertEqual(self.stats()["blobBytes"], {before["blobId"]: len(first.body) + len(second.body)})
