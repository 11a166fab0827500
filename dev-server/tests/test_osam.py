"""OSAM endpoints from the `osam` control action and from an editable JSON file."""
import base64
import json
import os
import pathlib
import shutil
import tempfile

from devserver.app import DevServer, Options

from .support import ServerTestCase

VERSION = {"id": 1, "appId": 2, "packageName": "cat.test.app", "versionCode": 20, "versionName": "2.0",
           "platform": "IOS", "comparisonMode": "FORCE", "title": {"es": "t", "en": "t", "ca": "t"},
           "message": {"es": "m", "en": "m", "ca": "m"}, "ok": {"es": "o", "en": "o", "ca": "o"},
           "cancel": {"es": "c", "en": "c", "ca": "c"}, "url": "https://example.test/app",
           "checkBoxDontShowAgain": True, "dialogDisplayDuration": 3600}
RATING = {"id": 3, "appId": 2, "packageName": "cat.test.app", "platform": "IOS", "minutes": 10, "numAperture": 2,
          "message": {"es": "r", "en": "r", "ca": "r"}}


def basic(credentials: str) -> dict:
    return {"Authorization": "Basic " + base64.b64encode(credentials.encode()).decode()}


class OsamControlTests(ServerTestCase):
    def test_nothing_configured_is_404(self):
        self.assertEqual(self.request("GET", "/api/version/cat.test.app/IOS/10").status, 404)
        self.assertEqual(self.request("GET", "/api/rating/cat.test.app/IOS").status, 404)

    def test_version_and_rating_are_wrapped_in_data(self):
        self.control("osam", package="cat.test.app", platform="IOS", version=VERSION, rating=RATING)
        version = self.request("GET", "/api/version/cat.test.app/IOS/10").json()["data"]
        server_date = version.pop("serverDate")
        self.assertIsInstance(server_date, int)
        self.assertEqual(version, VERSION)
        self.assertEqual(self.request("GET", "/api/rating/cat.test.app/ios").json(), {"data": RATING})
        self.assertEqual(self.request("GET", "/api/version/cat.test.app/ANDROID/10").status, 404)

    def test_server_date_from_the_record_is_kept(self):
        self.control("osam", package="cat.test.app", platform="IOS", version={**VERSION, "serverDate": 1234})
        self.assertEqual(self.request("GET", "/api/version/cat.test.app/IOS/1").json()["data"]["serverDate"], 1234)

    def test_null_clears_and_absent_fields_stay(self):
        self.control("osam", package="cat.test.app", platform="IOS", version=VERSION, rating=RATING)
        self.control("osam", package="cat.test.app", platform="IOS", version=None)
        self.assertEqual(self.request("GET", "/api/version/cat.test.app/IOS/10").status, 404)
        self.assertEqual(self.request("GET", "/api/rating/cat.test.app/IOS").status, 200)

    def test_basic_auth(self):
        self.control("osam", package="cat.test.app", platform="IOS", rating=RATING, basicAuth="osam:osam")
        refused = self.request("GET", "/api/rating/cat.test.app/IOS")
        self.assertEqual(refused.status, 401)
        self.assertEqual(refused.headers["WWW-Authenticate"], 'Basic realm="OSAM"')
        self.assertEqual(self.request("GET", "/api/rating/cat.test.app/IOS", headers=basic("osam:wrong")).status, 401)
        self.assertEqual(self.request("GET", "/api/rating/cat.test.app/IOS", headers=basic("osam:osam")).status, 200)

    def test_raw_answers_are_served_as_they_are(self):
        legacy = {"message": "Please update", "status": 2, "url": "https://example.test/app"}
        self.control("osam", package="cat.test.app", platform="ANDROID", version=legacy, raw=True)
        self.assertEqual(self.request("GET", "/api/version/cat.test.app/ANDROID/3").json(), legacy)

    def test_version_code_must_be_an_integer(self):
        self.control("osam", package="cat.test.app", platform="IOS", version=VERSION)
        self.assertEqual(self.request("GET", "/api/version/cat.test.app/IOS/1.2.3").status, 400)

    def test_invalid_osam_actions(self):
        self.control("osam", expect=400, package="cat.test.app", platform="IOS", version="FORCE")
        self.control("osam", expect=400, package="", platform="IOS")
        self.control("osam", expect=400, package="p", platform="IOS", basicAuth="nocolon")
        self.control("osam", expect=400, package="p", platform="IOS", colour="red")


class OsamFileTests(ServerTestCase):
    def options(self):
        folder = pathlib.Path(tempfile.mkdtemp())
        self.file = folder / "osam.json"
        self.addCleanup(shutil.rmtree, folder, True)
        self.write({"basicAuth": "osam:osam", "apps": [{"package": "cat.test.app", "platform": "IOS",
                                                        "version": VERSION, "rating": None}]})
        return Options(quiet=True, osam_file=self.file)

    def write(self, document) -> None:
        text = document if isinstance(document, str) else json.dumps(document)
        self.file.write_text(text)
        stamp = self.file.stat().st_mtime_ns + getattr(self, "_bump", 0)
        os.utime(self.file, ns=(stamp, stamp))
        self._bump = getattr(self, "_bump", 0) + 1_000_000_000

    def test_file_entries_are_served_and_edits_are_picked_up(self):
        auth = basic("osam:osam")
        self.assertEqual(self.request("GET", "/api/version/cat.test.app/IOS/5").status, 401)
        answer = self.request("GET", "/api/version/cat.test.app/IOS/5", headers=auth).json()["data"]
        self.assertEqual(answer["comparisonMode"], "FORCE")
        self.assertEqual(self.request("GET", "/api/rating/cat.test.app/IOS", headers=auth).status, 404)
        self.write([{"package": "cat.test.app", "platform": "IOS", "version": {**VERSION, "comparisonMode": "LAZY"},
                     "rating": RATING}])
        self.assertEqual(self.request("GET", "/api/version/cat.test.app/IOS/5").json()["data"]["comparisonMode"],
                         "LAZY")
        self.assertEqual(self.request("GET", "/api/rating/cat.test.app/IOS").json(), {"data": RATING})

    def test_control_overrides_the_file(self):
        self.control("osam", package="cat.test.app", platform="IOS", basicAuth=None, rating=RATING)
        self.assertEqual(self.request("GET", "/api/rating/cat.test.app/IOS").status, 200)
        self.assertEqual(self.request("GET", "/api/version/cat.test.app/IOS/1").json()["data"]["versionCode"], 20)

    def test_a_broken_edit_is_reported(self):
        self.write("{ not json")
        response = self.request("GET", "/api/version/cat.test.app/IOS/5")
        self.assertEqual(response.status, 500)
        self.assertIn("not usable", response.json()["error"])

    def test_a_broken_file_at_start_is_an_error(self):
        self.write([{"platform": "IOS"}])
        with self.assertRaises(ValueError):
            DevServer(Options(quiet=True, osam_file=self.file))
