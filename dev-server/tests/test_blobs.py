"""Blob downloads: sas signature and expiry, ETag, Range / If-Range / 206 / 200 / 416, HEAD, keep-alive."""
import re
import urllib.parse

from devserver.app import Options

from .support import ServerTestCase


class SasTests(ServerTestCase):
    def assert_refused(self, url: str, detail: str):
        response = self.request("GET", url)
        self.assertEqual(response.status, 403)
        self.assertEqual(response.headers["Content-Type"], "application/xml")
        self.assertEqual(response.headers["x-ms-error-code"], "AuthenticationFailed")
        text = response.body.decode()
        self.assertIn("<Code>AuthenticationFailed</Code>", text)
        self.assertIn(detail, text)

    def test_blob_needs_the_signature_not_a_bearer_token(self):
        sas = self.package_sas(101)
        self.assertEqual(self.request("GET", sas).status, 200)
        bare = sas.split("?")[0]
        self.assert_refused(bare, "Signature not valid")
        self.assertEqual(self.request("GET", bare, headers=self.bearer()).status, 403)

    def test_tampered_signatures_are_refused(self):
        sas = self.package_sas(101)
        parts = urllib.parse.urlsplit(sas)
        query = dict(urllib.parse.parse_qsl(parts.query))
        flipped = query["sig"][:-1] + ("0" if query["sig"][-1] != "0" else "1")
        self.assert_refused(f"{parts.path}?se={query['se']}&sig={flipped}", "Signature not valid")
        self.assert_refused(f"{parts.path}?se={int(query['se']) + 60}&sig={query['sig']}", "Signature not valid")
        other = self.get_json("/v1/contentpackages/102")["blobId"]
        self.assert_refused(f"/blobs/packages/{other}?{parts.query}", "Signature not valid")
        self.assert_refused(f"/blobs/mediafiles/{parts.path.rsplit('/', 1)[1]}?{parts.query}", "Signature not valid")

    def test_expire_sas_expires_every_issued_sas(self):
        package_sas = self.package_sas(101)
        media_sas = self.get_json("/v1/mediafiles/1011")["sas"]
        self.control("expireSas")
        self.assert_refused(package_sas, "has to be after signed start time")
        self.assert_refused(media_sas, "Signed expiry time")
        self.assertEqual(self.request("GET", self.package_sas(101)).status, 200)

    def test_deleted_presentation_blob_is_not_found(self):
        sas = self.package_sas(103)
        self.control("deletePresentation", presentationId=103)
        response = self.request("GET", sas)
        self.assertEqual(response.status, 404)
        self.assertIn(b"<Code>BlobNotFound</Code>", response.body)


class ExpiredSasTests(ServerTestCase):
    def options(self):
        return Options(quiet=True, sas_lifetime=0)

    def test_sas_past_its_lifetime_is_refused(self):
        response = self.request("GET", self.package_sas(101))
        self.assertEqual(response.status, 403)
        self.assertIn(b"has to be after signed start time", response.body)


class RangeTests(ServerTestCase):
    def setUp(self):
        super().setUp()
        self.sas = self.package_sas(102)
        full = self.request("GET", self.sas)
        self.full, self.etag, self.size = full.body, full.headers["ETag"], len(full.body)

    def ranged(self, value: str, **headers) -> "Response":
        return self.request("GET", self.sas, headers={"Range": value, **headers})

    def test_full_download_headers(self):
        response = self.request("GET", self.sas)
        self.assertEqual(response.status, 200)
        self.assertEqual(int(response.headers["Content-Length"]), self.size)
        self.assertEqual(response.headers["Accept-Ranges"], "bytes")
        self.assertRegex(self.etag, r'^"[0-9a-f]{32}"$')
        self.assertEqual(response.headers["ETag"], self.etag)
        self.assertIsNotNone(response.headers["Last-Modified"])

    def test_open_ended_range(self):
        response = self.ranged("bytes=1000-")
        self.assertEqual(response.status, 206)
        self.assertEqual(response.headers["Content-Range"], f"bytes 1000-{self.size - 1}/{self.size}")
        self.assertEqual(response.body, self.full[1000:])
        self.assertEqual(int(response.headers["Content-Length"]), self.size - 1000)

    def test_closed_suffix_and_clamped_ranges(self):
        cases = {"bytes=10-19": (10, 19), "bytes=-100": (self.size - 100, self.size - 1),
                 f"bytes=5-{self.size + 500}": (5, self.size - 1), "bytes=0-0": (0, 0)}
        for header, (first, last) in cases.items():
            with self.subTest(header=header):
                response = self.ranged(header)
                self.assertEqual(response.status, 206)
                self.assertEqual(response.headers["Content-Range"], f"bytes {first}-{last}/{self.size}")
                self.assertEqual(response.body, self.full[first:last + 1])

    def test_unsatisfiable_range_is_416(self):
        for header in (f"bytes={self.size}-", f"bytes={self.size + 10}-{self.size + 20}", "bytes=-0"):
            with self.subTest(header=header):
                response = self.ranged(header)
                self.assertEqual(response.status, 416)
                self.assertEqual(response.headers["Content-Range"], f"bytes */{self.size}")
                self.assertEqual(response.body, b"")

    def test_if_range_with_matching_etag_gives_206_and_stale_etag_gives_200(self):
        self.assertEqual(self.ranged("bytes=100-", **{"If-Range": self.etag}).status, 206)
        stale = self.ranged("bytes=100-", **{"If-Range": '"0123456789abcdef0123456789abcdef"'})
        self.assertEqual(stale.status, 200)
        self.assertEqual(stale.body, self.full)
        self.assertIsNone(stale.headers["Content-Range"])

    def test_invalid_and_multiple_ranges_are_ignored(self):
        for header in ("bytes=20-10", "bytes=0-5,10-15", "items=0-5", "bytes=-"):
            with self.subTest(header=header):
                response = self.ranged(header)
                self.assertEqual(response.status, 200)
                self.assertEqual(response.body, self.full)

    def test_head_reports_size_without_body(self):
        response = self.request("HEAD", self.sas)
        self.assertEqual(response.status, 200)
        self.assertEqual(int(response.headers["Content-Length"]), self.size)
        self.assertEqual(response.body, b"")
        ranged = self.request("HEAD", self.sas, headers={"Range": "bytes=10-"})
        self.assertEqual((ranged.status, int(ranged.headers["Content-Length"])), (206, self.size - 10))

    def test_keep_alive_serves_many_requests_on_one_connection(self):
        connection = self.connection()
        for first in (0, 100, 2000):
            response = self.request("GET", self.sas, headers={"Range": f"bytes={first}-"}, connection=connection)
            self.assertEqual(response.body, self.full[first:])
        self.assertEqual(self.request("GET", "/v1/clients", headers=self.bearer(), connection=connection).status,
                         200)

    def test_bump_revision_changes_etag_and_if_range_then_gives_full_body(self):
        self.control("bumpRevision", presentationId=102)
        response = self.ranged("bytes=100-", **{"If-Range": self.etag})
        self.assertEqual(response.status, 200)
        self.assertNotEqual(response.headers["ETag"], self.etag)
        self.assertRegex(response.headers["ETag"], re.compile(r'^"[0-9a-f]{32}"$'))


class ConditionalTests(ServerTestCase):
    """Conditional GET and HEAD as Azure Blob Storage answers them: 304 for a current `If-None-Match` or an
    `If-Modified-Since` not older than the blob, 412 for an `If-Match` that names another ETag."""

    def setUp(self):
        super().setUp()
        self.sas = self.package_sas(103)
        full = self.request("GET", self.sas)
        self.etag, self.modified = full.headers["ETag"], full.headers["Last-Modified"]

    def test_if_none_match_with_the_current_etag_is_304_without_a_body(self):
        for method in ("GET", "HEAD"):
            for header in (self.etag, f'"other", {self.etag}', f"W/{self.etag}", "*"):
                with self.subTest(method=method, header=header):
                    response = self.request(method, self.sas, headers={"If-None-Match": header})
                    self.assertEqual(response.status, 304)
                    self.assertEqual(response.headers["ETag"], self.etag)
                    self.assertEqual(response.body, b"")
        self.assertEqual(self.request("GET", self.sas, headers={"If-None-Match": '"other"'}).status, 200)

    def test_if_modified_since_is_304_unless_the_blob_is_newer_and_yields_to_if_none_match(self):
        self.assertEqual(self.request("GET", self.sas, headers={"If-Modified-Since": self.modified}).status, 304)
        older = "Mon, 01 Jan 2001 00:00:00 GMT"
        self.assertEqual(self.request("GET", self.sas, headers={"If-Modified-Since": older}).status, 200)
        self.assertEqual(self.request("GET", self.sas, headers={"If-Modified-Since": "not a date"}).status, 200)
        both = {"If-Modified-Since": self.modified, "If-None-Match": '"other"'}
        self.assertEqual(self.request("GET", self.sas, headers=both).status, 200)

    def test_if_match_with_another_etag_is_412_and_with_the_current_one_answers(self):
        refused = self.request("GET", self.sas, headers={"If-Match": '"other"'})
        self.assertEqual(refused.status, 412)
        self.assertEqual(refused.headers["x-ms-error-code"], "ConditionNotMet")
        self.assertEqual(self.request("GET", self.sas, headers={"If-Match": self.etag}).status, 200)
        ranged = self.request("GET", self.sas, headers={"If-Match": self.etag, "Range": "bytes=0-0"})
        self.assertEqual(ranged.status, 206)

    def test_a_bumped_revision_no_longer_matches_the_old_etag(self):
        self.control("bumpRevision", presentationId=103)
        self.assertEqual(self.request("GET", self.sas, headers={"If-None-Match": self.etag}).status, 200)
        self.assertEqual(self.request("GET", self.sas, headers={"If-Match": self.etag}).status, 412)
