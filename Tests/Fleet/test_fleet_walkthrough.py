"""docs/fleet.md's "A fleet host, step by step", run as far as this machine allows without systemd as PID 1:
every fenced block marked ```` ```sh fleet-step ````, in order, in one bash with `set -euo pipefail`, against
the dev-server behind Debian's nginx with the shipped cache config.

What the test changes, and only that: the paths the steps use (`/etc/sclm`, `/var/lib/sclm`, `/var/lib/sclm-
metrics`, `/usr/local/…`) live under a scratch root; the placeholders (API and auth URLs, client id and secret,
the cache, the presentation) name the test's servers; `apt-get` does nothing; `make` installs the units with
`DESTDIR` and applies their sysusers.d and tmpfiles.d files to the scratch root; `runuser -u sclm --` runs the
command as the test's user; `systemctl`, `systemd-run` and `journalctl` are played by `unit_stub.py`, which
runs each unit's `ExecStart=` with its environment and credentials (the kiosk headless, as there is no
display). Then: offline, the sync fails and the kiosk still plays; with nothing installed, the kiosk waits.
"""
import json
import os
import pathlib
import re
import select
import shutil
import subprocess
import tempfile
import time
import unittest
import urllib.parse

import fleet

SCLM = pathlib.Path(os.environ.get("SCLM_BINARY", fleet.ROOT / ".build/debug/sclm"))
FLEET_DOC = fleet.ROOT / "docs/fleet.md"
STUB = pathlib.Path(__file__).with_name("unit_stub.py")
PRESENTATION = 10001
HAS_TOOLS = all(shutil.which(tool) for tool in ("systemd-sysusers", "systemd-tmpfiles", "chromium"))


def fleet_steps(text: str) -> list[str]:
    """The bodies of the fenced blocks whose info string is `sh fleet-step`, dedented, in order."""
    blocks = re.finditer(r"^( *)```sh fleet-step\n(.*?)^\1```$", text, re.S | re.M)
    return ["\n".join(line[len(block.group(1)):] for line in block.group(2).splitlines()) for block in blocks]


@unittest.skipUnless(SCLM.exists(), f"{SCLM} is not built")
@unittest.skipUnless(HAS_TOOLS, "needs systemd-sysusers, systemd-tmpfiles (package systemd) and chromium")
@unittest.skipUnless(shutil.which("nginx") or pathlib.Path("/usr/sbin/nginx").exists(), "nginx is not installed")
class FleetWalkthroughTests(unittest.TestCase):
    """In name order: the walkthrough, then offline, then a kiosk before its first sync."""

    @classmethod
    def setUpClass(cls):
        cls.work = pathlib.Path(tempfile.mkdtemp(prefix="sclm-walkthrough-"))
        cls.root = cls.work / "root"
        cls.server = fleet.DevServer(2, size="256K")
        cls.nginx = fleet.Nginx(cls.work, urllib.parse.urlsplit(cls.server.url).netloc)
        cls.paths = {"/usr/local/bin/sclm": str(SCLM), "/usr/local/": f"{cls.root}/usr/local/",
                     "/etc/sclm": f"{cls.root}/etc/sclm", "/var/lib/sclm": f"{cls.root}/var/lib/sclm"}

    @classmethod
    def tearDownClass(cls):
        cls.nginx.stop()
        cls.server.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def script(self) -> str:
        steps = fleet_steps(FLEET_DOC.read_text())
        self.assertEqual(len(steps), 4, "docs/fleet.md lost a step")
        self.assertFalse([step for step in steps if re.search(r"\bsudo", step)], "a step needs sudo")
        placeholders = {"https://api.storyclm.com": self.server.url, "https://auth.storyclm.com": self.server.url,
                        "CLIENT-ID-FROM-STORYCLM": "sclm-demo", "CLIENT-SECRET-FROM-STORYCLM": "demo-secret",
                        "http://cache.site.lan:8080": self.nginx.url,
                        "SCLM_PRESENTATION=101": f"SCLM_PRESENTATION={PRESENTATION}"}
        body = "\n".join(steps)
        for placeholder, value in placeholders.items():
            self.assertIn(placeholder, body, f"docs/fleet.md no longer names {placeholder}")
            body = body.replace(placeholder, value)
        for path, value in self.paths.items():
            body = body.replace(path, value)
        root, stub = self.root, f"python3 {STUB} {self.root}"
        stand_ins = f"""
apt-get() {{ :; }}
make() {{
    [ "$*" = "release install install-systemd" ] || {{ echo "unexpected make $*" >&2; return 1; }}
    command make -s -C {fleet.ROOT} install-systemd DESTDIR={root} PREFIX=/usr/local
    mkdir -p {root}/etc && cp /etc/passwd /etc/group {root}/etc/
    systemd-sysusers --root={root} {root}/usr/local/lib/sysusers.d/sclm.conf
    systemd-tmpfiles --root={root} --create {root}/usr/local/lib/tmpfiles.d/sclm.conf
}}
runuser() {{ [ "$1 $2 $3" = "-u sclm --" ] || return 1; shift 3; "$@"; }}
systemctl() {{ {stub} systemctl "$@"; }}
systemd-run() {{ {stub} systemd-run "$@"; }}
journalctl() {{ {stub} journalctl "$@"; }}
"""
        return "set -euo pipefail\n" + stand_ins + body

    def environment(self) -> dict:
        env = {key: value for key, value in os.environ.items() if not key.startswith(("SCLM_", "CREDENTIALS_"))}
        env.update(NO_COLOR="1", PATHS=json.dumps(self.paths), HOME=str(self.work))
        return env

    def unit(self, *arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run(["python3", str(STUB), str(self.root), *arguments], env=self.environment(),
                              capture_output=True, text=True, timeout=120)

    def test_1_the_steps_run_from_a_root_shell_and_the_kiosk_plays_what_the_sync_installed(self):
        result = subprocess.run(["bash", "-c", self.script()], env=self.environment(), capture_output=True,
                                text=True, timeout=300)
        self.assertEqual(result.returncode, 0, result.stdout[-2000:] + result.stderr[-2000:])
        home = self.root / "var/lib/sclm"
        self.assertEqual(len(list((home / "content").glob("*/*/sources"))), 2, result.stdout[-1000:])
        self.assertIn("installed", result.stdout, "journalctl showed no sync")
        self.assertIn("sclm-play.service: exit 124", self.journal("sclm-play.service"))
        self.assertEqual((self.root / "etc/sclm/credentials/auth.clientSecret").stat().st_mode & 0o777, 0o600)
        self.assertNotIn("demo-secret", (home / "config.json").read_text(), "the secret reached config.json")
        metrics = (self.root / "var/lib/sclm-metrics/sclm.prom").read_text()
        self.assertIn("sclm_sync_last_success 1\n", metrics)
        self.assertIn("enable --now sclm-sync.timer", (self.root / "systemctl.log").read_text())

    def test_2_offline_the_sync_fails_and_the_kiosk_still_plays(self):
        self.nginx.stop()
        self.server.stop()
        sync = self.unit("systemctl", "start", "sclm-sync.service")
        self.assertNotEqual(sync.returncode, 0, "the sync succeeded without a server")
        play = self.unit("systemctl", "start", "sclm-play.service")
        self.assertEqual(play.returncode, 0, self.journal("sclm-play.service")[-1500:])

    def test_3_a_kiosk_with_nothing_installed_waits_for_its_first_sync(self):
        env = {**self.environment(), "SCLM_HOME": str(self.work / "empty-home")}
        process = subprocess.Popen([str(SCLM), "play", "--kiosk", "--presentation", str(PRESENTATION)], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            line = self.first_line(process)
            self.assertIn(f"waiting for presentation {PRESENTATION} to be installed by `sclm sync`", line)
            self.assertIsNone(process.poll(), "the kiosk exited instead of waiting")
        finally:
            process.terminate()
            process.wait(timeout=10)
            process.stderr.close()

    def journal(self, unit: str) -> str:
        log = self.root / "journal" / f"{unit}.log"
        return log.read_text() if log.exists() else f"{unit} never ran"

    def first_line(self, process: subprocess.Popen) -> str:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            ready, _, _ = select.select([process.stderr], [], [], 0.5)
            if ready:
                return process.stderr.readline()
            if process.poll() is not None:
                self.fail(f"sclm play exited {process.returncode}: {process.stderr.read()}")
        self.fail("sclm play said nothing")


if __name__ == "__main__":
    unittest.main()
