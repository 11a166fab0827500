"""A fleet of sclm homes syncing through the shipped nginx site cache, on loopback.

Shared by `test_fleet.py` (in `make test`) and `bench/bench_fleet.py`. `Nginx` runs Debian's nginx with
`contrib/nginx/sclm-cache.conf`, whose ADJUST lines are rewritten for the test: a private prefix and cache
folder, `listen 127.0.0.1:PORT`, the dev-server as the only allowed origin, over http (the dev-server's
`sas` URLs are `http://127.0.0.1:PORT/blobs/…`). `Fleet` prepares N homes (logged in with client
credentials, `sync.blobProxy` set when a cache is given) and runs `sclm sync` in all of them at once.
"""
import concurrent.futures
import hashlib
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from dev_backend import DevServer, sclm_env  # noqa: E402

SHIPPED_CONFIG = ROOT / "contrib/nginx/sclm-cache.conf"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def render_config(shipped: str, listen: str, origin: str, cache_dir: pathlib.Path) -> str:
    """The shipped config with its ADJUST lines set for a test: cache folder, listen address, one origin
    host over http. Fails loudly when a line to adjust is missing, so the test follows the shipped file."""
    replacements = [
        (r"proxy_cache_path \S+", f"proxy_cache_path {cache_dir}"),
        (r"listen \S+;", f"listen {listen};"),
        (r"~\^\[a-z0-9\]\+\\\.blob\\\.core\\\.windows\\\.net\$ 1;", f'"{origin}" 1;'),
        (r"set \$sclm_origin_scheme https;", "set $sclm_origin_scheme http;"),
    ]
    text = shipped
    for pattern, replacement in replacements:
        text, count = re.subn(pattern, lambda _: replacement, text, count=1)
        if count != 1:
            raise AssertionError(f"contrib/nginx/sclm-cache.conf has no line matching {pattern!r}")
    return text


class Nginx:
    """nginx in the foreground with the shipped cache config (or `config`, a variant of it) in front of
    `origin` (host:port)."""

    def __init__(self, work: pathlib.Path, origin: str, config: str | None = None):
        self.prefix = work / "nginx"
        shutil.rmtree(self.prefix, ignore_errors=True)
        (self.prefix / "cache").mkdir(parents=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        site = render_config(config or SHIPPED_CONFIG.read_text(), f"127.0.0.1:{self.port}", origin,
                             self.prefix / "cache")
        (self.prefix / "sclm-cache.conf").write_text(site)
        temp = "".join(f"    {kind}_temp_path {self.prefix}/{kind}_temp;\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        # As root, workers would drop to `nobody`, who cannot write in a private temporary folder.
        user = "user root;\n" if os.geteuid() == 0 else ""
        (self.prefix / "nginx.conf").write_text(
            f"{user}daemon off;\nworker_processes 2;\npid {self.prefix}/nginx.pid;\nerror_log {self.prefix}/error.log warn;\n"
            f"events {{ worker_connections 1024; }}\n"
            f"http {{\n    access_log {self.prefix}/access.log;\n{temp}    include {self.prefix}/sclm-cache.conf;\n}}\n")
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        command = [nginx, "-p", f"{self.prefix}/", "-c", f"{self.prefix}/nginx.conf", "-e", f"{self.prefix}/error.log"]
        check = subprocess.run([*command, "-t"], capture_output=True, text=True)
        if check.returncode != 0:
            raise RuntimeError(f"nginx -t failed: {check.stderr}")
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._wait_listening()

    def _wait_listening(self):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited: {(self.prefix / 'error.log').read_text()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start listening")

    def cache_statuses(self) -> list[str]:
        return (self.prefix / "access.log").read_text().splitlines()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: finish requests, then exit
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Fleet:
    """`count` sclm homes under `root`, logged in to `server`, fetching blobs through `blob_proxy` if given."""

    def __init__(self, sclm: str, server: DevServer, root: pathlib.Path, count: int, blob_proxy: str | None = None):
        self.sclm, self.server = sclm, server
        shutil.rmtree(root, ignore_errors=True)
        self.homes = [root / f"host{index:02d}" for index in range(count)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(lambda home: self._prepare(home, blob_proxy), self.homes))

    def env(self, home: pathlib.Path) -> dict:
        return sclm_env(self.server, home)

    def run(self, home: pathlib.Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        result = subprocess.run([self.sclm, *args], env=self.env(home), capture_output=True, text=True,
                                stdin=subprocess.DEVNULL)
        if check and result.returncode != 0:
            raise AssertionError(f"sclm {' '.join(args)} in {home.name} exited {result.returncode}: {result.stderr}")
        return result

    def _prepare(self, home: pathlib.Path, blob_proxy: str | None):
        if blob_proxy:
            self.run(home, "config", "set", "sync.blobProxy", blob_proxy)
        self.run(home, "login", "--service")

    def sync_all(self, *args: str) -> tuple[float, list[subprocess.CompletedProcess]]:
        """`sclm sync ARGS` in every home at once: wall time, and each run's result."""
        started = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(max_workers=len(self.homes)) as pool:
            results = list(pool.map(lambda home: self.run(home, "sync", *args), self.homes))
        return time.perf_counter() - started, results

    def start_sync(self, home: pathlib.Path, *args: str) -> subprocess.Popen:
        return subprocess.Popen([self.sclm, "sync", *args], env=self.env(home), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)


def content_digest(home: pathlib.Path) -> str:
    """One SHA-256 over every file under the home's `content/` (relative path and bytes, in path order)."""
    digest = hashlib.sha256()
    content = home / "content"
    for path in sorted(p for p in content.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(content)).encode() + b"\0")
        with open(path, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
    return digest.hexdigest()


def package_sizes(server: DevServer, ids) -> dict[str, int]:
    """blobId → fileSize of each presentation's package, from the content API."""
    token = server.token()
    sizes = {}
    for pid in ids:
        package = server.request("GET", f"/v1/contentpackages/{pid}", headers={"Authorization": f"Bearer {token}"})
        sizes[package["blobId"]] = package["fileSize"]
    return sizes


def origin_blob_bytes(server: DevServer) -> dict[str, int]:
    """Blob bytes the origin has sent since the last `resetStats`, by blob id."""
    return server.stats()["blobBytes"]
