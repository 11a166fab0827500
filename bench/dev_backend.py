"""The dev-server as a benchmark backend: start it with synthetic content, drive `sclm` against it.

Shared by `bench_metadata.py`, `bench_sync.py` and `bench_analytics.py`.
"""
import http.client
import json
import os
import subprocess
import sys
import threading
import time
import urllib.parse

from run import ROOT

CLIENT_ID, CLIENT_SECRET = "sclm-demo", "demo-secret"


class DevServer:
    """dev-server/server.py with `presentations` synthetic packages of `size` (one client), on a free port."""

    def __init__(self, presentations, size="64K", blob_dir=None):
        command = [sys.executable, str(ROOT / "dev-server/server.py"), "--port", "0", "--quiet", "--exit-with-parent",
                   "--synthetic-clients", "1", "--synthetic-presentations", str(presentations),
                   "--synthetic-size", str(size)]
        if blob_dir:
            command += ["--blob-dir", str(blob_dir)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()
        parts = urllib.parse.urlsplit(self.url)
        self.host, self.port = parts.hostname, parts.port

    def control(self, action):
        return self.request("POST", "/_control", json.dumps(action).encode(), {"Content-Type": "application/json"})

    def stats(self):
        return self.request("GET", "/_control/stats")

    def request(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection(self.host, self.port)
        connection.request(method, path, body=body, headers=headers or {})
        data = connection.getresponse().read()
        connection.close()
        return json.loads(data)

    def token(self):
        form = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": CLIENT_ID,
                                       "client_secret": CLIENT_SECRET}).encode()
        return self.request("POST", "/connect/token", form,
                            {"Content-Type": "application/x-www-form-urlencoded"})["access_token"]

    def package_urls(self, ids):
        """The signed download URL (`sas`) of each presentation's package."""
        token = self.token()
        return [self.request("GET", f"/v1/contentpackages/{pid}", headers={"Authorization": f"Bearer {token}"})["sas"]
                for pid in ids]

    def stop(self):
        self.process.terminate()
        self.process.wait()


class ThreadConnections:
    """One keep-alive HTTP connection to `server` per thread, as a script with a thread pool would keep."""

    def __init__(self, server):
        self.server = server
        self.local = threading.local()

    def get(self):
        if not hasattr(self.local, "connection"):
            self.local.connection = http.client.HTTPConnection(self.server.host, self.server.port)
        return self.local.connection


def timed(command, env=None):
    start = time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {result.stderr}")
    return elapsed


def sclm_env(server, home):
    return dict(os.environ, SCLM_HOME=str(home), SCLM_API_URL=server.url, SCLM_AUTH_URL=server.url,
                SCLM_CLIENT_ID=CLIENT_ID, SCLM_CLIENT_SECRET=CLIENT_SECRET, NO_COLOR="1")
