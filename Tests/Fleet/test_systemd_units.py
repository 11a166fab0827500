"""contrib/systemd: the units pass `systemd-analyze verify` with no warning (the binary path pointed at the
built `sclm`, since verify checks that it exists), are locked down (`systemd-analyze security` exposure at
most 2.5 for the sync unit and 4.0 for the player), install for other distributions (`make install-systemd
PREFIX=/usr/local` into a DESTDIR, the binary path set to the prefix's; the sysusers.d and tmpfiles.d files
applied to a scratch root), and say what a fleet and a kiosk rely on. Tests/Debian runs them under systemd."""
import configparser
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import unittest

import fleet

UNITS = fleet.ROOT / "contrib/systemd"
UNIT_NAMES = ("sclm-sync.service", "sclm-sync.timer", "sclm-play.service")
SCLM = pathlib.Path(os.environ.get("SCLM_BINARY", fleet.ROOT / ".build/debug/sclm"))
# The most exposure `systemd-analyze security` may report for each service (docs/fleet.md lists the figures).
EXPOSURE_LIMITS = {"sclm-sync.service": 2.5, "sclm-play.service": 4.0}
HAS_ANALYZE = shutil.which("systemd-analyze") is not None


def read_unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read(UNITS / name)
    return parser


def unit_lines(name: str, key: str) -> list[str]:
    """Every value of `key=` in the unit (a key may repeat, which configparser would fold)."""
    return [line.split("=", 1)[1] for line in (UNITS / name).read_text().splitlines() if line.startswith(f"{key}=")]


def exposure(unit: pathlib.Path) -> float:
    """The overall exposure `systemd-analyze security --offline=true` reports for the unit file."""
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
                            capture_output=True, text=True, cwd=unit.parent)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    if match is None:
        raise AssertionError(f"no exposure figure: {result.stdout[-500:]} {result.stderr[-500:]}")
    return float(match.group(1))


class SystemdUnitTests(unittest.TestCase):
    @unittest.skipUnless(HAS_ANALYZE, "systemd-analyze is not installed (package systemd)")
    @unittest.skipUnless(SCLM.exists(), f"{SCLM} is not built")
    def test_the_units_verify_without_warnings(self):
        with tempfile.TemporaryDirectory() as folder:
            for name in UNIT_NAMES:
                text = (UNITS / name).read_text().replace("/usr/bin/sclm", str(SCLM))
                (pathlib.Path(folder) / name).write_text(text)
            units = sorted(str(path) for path in pathlib.Path(folder).iterdir())
            result = subprocess.run(["systemd-analyze", "verify", *units], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr.strip(), "", "systemd-analyze verify warned")

    @unittest.skipUnless(HAS_ANALYZE, "systemd-analyze is not installed (package systemd)")
    def test_the_services_are_locked_down(self):
        for name, limit in EXPOSURE_LIMITS.items():
            figure = exposure(UNITS / name)
            print(f"\n{name}: exposure {figure}")
            self.assertLessEqual(figure, limit, name)
            documented = re.search(rf"`{re.escape(name)}` \| (\d+\.\d+)", (fleet.ROOT / "docs/fleet.md").read_text())
            self.assertIsNotNone(documented, f"docs/fleet.md lists no figure for {name}")
            self.assertEqual(float(documented.group(1)), figure, f"docs/fleet.md has another figure for {name}")

    def test_the_player_keeps_what_chromium_needs(self):
        play = read_unit("sclm-play.service")["Service"]
        self.assertNotIn("MemoryDenyWriteExecute", play, "V8 compiles at run time")
        self.assertEqual(set(play["RestrictNamespaces"].split()), {"user", "pid", "net"})
        self.assertIn("-/tmp/.X11-unix", play["BindReadOnlyPaths"].split())
        self.assertEqual(play["PrivateTmp"], "yes")

    @unittest.skipUnless(shutil.which("systemd-sysusers") and shutil.which("systemd-tmpfiles"),
                         "systemd-sysusers or systemd-tmpfiles is not installed (package systemd)")
    def test_make_install_systemd_puts_units_user_and_folders_in_place(self):
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            subprocess.run(["make", "-s", "install-systemd", f"DESTDIR={root}", "PREFIX=/usr/local"], cwd=fleet.ROOT,
                           check=True, capture_output=True)
            for name in UNIT_NAMES:
                installed = (root / "usr/local/lib/systemd/system" / name).read_text()
                self.assertNotIn("/usr/bin/sclm", installed, name)
            service = (root / "usr/local/lib/systemd/system/sclm-sync.service").read_text()
            self.assertIn("ExecStart=/usr/local/bin/sclm sync --skip-unconfigured\n", service)
            # As a postinst would, into the scratch root (which starts with this system's accounts).
            (root / "etc").mkdir()
            for accounts in ("passwd", "group"):
                shutil.copy(f"/etc/{accounts}", root / "etc" / accounts)
            subprocess.run(["systemd-sysusers", f"--root={root}", str(root / "usr/local/lib/sysusers.d/sclm.conf")],
                           check=True, capture_output=True)
            user = [line for line in (root / "etc/passwd").read_text().splitlines() if line.startswith("sclm:")]
            self.assertEqual(len(user), 1)
            self.assertEqual(user[0].split(":")[5:], ["/var/lib/sclm", "/usr/sbin/nologin"])
            subprocess.run(["systemd-tmpfiles", f"--root={root}", "--create",
                            str(root / "usr/local/lib/tmpfiles.d/sclm.conf")], check=True, capture_output=True)
            uid = int(user[0].split(":")[2])
            for path, mode, owner in (("var/lib/sclm", 0o700, uid), ("etc/sclm", 0o755, 0),
                                      ("etc/sclm/credentials", 0o700, 0), ("var/cache/nginx/sclm", 0o700, 33)):
                info = (root / path).stat()
                self.assertEqual((info.st_mode & 0o7777, info.st_uid), (mode, owner), path)

    def test_the_timer_syncs_at_boot_and_spreads_a_fleet_with_a_random_delay(self):
        timer = read_unit("sclm-sync.timer")["Timer"]
        self.assertIn("OnBootSec", timer)
        self.assertIn("RandomizedDelaySec", timer)
        self.assertIn("OnCalendar", timer)

    def test_the_units_name_their_home_and_a_failed_sync_fails_the_run(self):
        for name in ("sclm-sync.service", "sclm-play.service"):
            self.assertIn("\nEnvironment=SCLM_HOME=/var/lib/sclm\n", (UNITS / name).read_text(), name)
            self.assertEqual(read_unit(name)["Service"]["User"], "sclm", name)
        sync = read_unit("sclm-sync.service")["Service"]
        self.assertEqual(sync["Type"], "oneshot")
        self.assertNotIn("1", sync.get("SuccessExitStatus", "").split(), "exit 1 must fail the run")
        self.assertEqual(unit_lines("sclm-sync.service", "LoadCredential"),
                         ["auth.clientSecret:/etc/sclm/credentials/auth.clientSecret"])
        self.assertIn("-/var/lib/prometheus/node-exporter", sync["ReadWritePaths"].split())
        self.assertIn("sync --skip-unconfigured", sync["ExecStart"], "the timer runs before the admin's set-up")

    def test_the_kiosk_never_waits_on_the_network_to_play(self):
        play = read_unit("sclm-play.service")
        self.assertIn("play --kiosk --presentation", play["Service"]["ExecStart"])
        self.assertNotIn("ExecStartPre", play["Service"], "a sync before playing stops the kiosk when offline")
        self.assertNotIn("network-online.target", play["Unit"].get("Wants", "") + play["Unit"].get("Requires", ""))
        self.assertEqual(play["Service"]["Restart"], "always")
        self.assertEqual(play["Service"]["RestartPreventExitStatus"], "64", "a bad presentation id loops forever")
        self.assertEqual(play["Service"]["Type"], "notify", "READY=1 once the first slide shows")
        self.assertEqual(play["Service"]["NotifyAccess"], "main", "only sclm itself, not the browser, may notify")
        self.assertEqual(play["Service"]["WatchdogSec"], "30", "a frozen page gets the player restarted")
        self.assertIn("-/var/lib/prometheus/node-exporter", play["Service"]["ReadWritePaths"].split(),
                      "the player writes sclm-play.prom beside the sync's textfile")


if __name__ == "__main__":
    unittest.main()
