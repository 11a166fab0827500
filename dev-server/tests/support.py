"""Shared fixture: a real dev-server on 127.0.0.1 (in-process, background thread) and HTTP helpers."""
import http.client
import json
import pathlib
import unittest
import urllib.parse
from dataclasses import dataclass

from devserver.app import DevServer, Options
from devserver.samples import assembled_samples

SAMPLE = assembled_samples()  # the complete decks the server serves by default
DEMO_FORM = {"grant_type": "password", "username": "demo@storyclm.test", "password": "demo-pass",
             "client_id": "sclm-demo", "client_secret": "demo-secret"}


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self):
        return json.loads(self.body)


class ServerTestCase(unittest.TestCase):
    """Starts a fresh server per test; override `options()` to change its options."""

    def options(self) -> Options:
        return Options(quiet=True)

    def setUp(self):
        self.server = DevServer(self.options())
        self.server.start_background()
        self.addCleanup(self.server.stop)
        self.base = self.server.base_url
        self.port = self.server.server_address[1]

    # HTTP

    def connection(self) -> http.client.HTTPConnection:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        self.addCleanup(connection.close)
        return connection

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                connection: http.client.HTTPConnection | None = None) -> Response:
        """One request; `path` may be a full URL of this server (a sas)."""
        if path.startswith("http://"):
            parts = urllib.parse.urlsplit(path)
            path = parts.path + (f"?{parts.query}" if parts.query else "")
        connection = connection or self.connection()
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return Response(response.status, response.headers, response.read())

    def post_form(self, path: str, form: dict, headers: dict | None = None) -> Response:
        return self.request("POST", path, urllib.parse.urlencode(form).encode(),
                            {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})})

    def token(self, **overrides) -> dict:
        response = self.post_form("/connect/token", {**DEMO_FORM, **overrides})
        self.assertEqual(response.status, 200, response.body)
        return response.json()

    def bearer(self) -> dict:
        if not hasattr(self, "_access_token"):
            self._access_token = self.token()["access_token"]
        return {"Authorization": f"Bearer {self._access_token}"}

    def get(self, path: str, headers: dict | None = None) -> Response:
        return self.request("GET", path, headers={**self.bearer(), **(headers or {})})

    def get_json(self, path: str):
        response = self.get(path)
        self.assertEqual(response.status, 200, response.body)
        return response.json()

    def control(self, action: str, expect: int = 200, **fields) -> dict:
        response = self.request("POST", "/_control", json.dumps({"action": action, **fields}).encode(),
                                {"Content-Type": "application/json"})
        self.assertEqual(response.status, expect, response.body)
        return response.json()

    def stats(self) -> dict:
        return self.request("GET", "/_control/stats").json()

    def package_sas(self, presentation_id: int) -> str:
        return self.get_json(f"/v1/contentpackages/{presentation_id}")["sas"]


def sample_folder(name: str) -> pathlib.Path:
    return SAMPLE / name
