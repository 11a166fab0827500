"""contrib/systemd: the units pass `systemd-analyze verify` with no warning (the binary path pointed at the
built `sclm`, since verify checks that it exists), and say what the fleet relies on."""
import configparser
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

import fleet

UNITS = fleet.ROOT / "contrib/systemd"
SCLM = pathlib.Path(os.environ.get("SCLM_BINARY", fleet.ROOT / ".build/debug/sclm"))


def read_unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read(UNITS / name)
    return parser


class SystemdUnitTests(unittest.TestCase):
    @unittest.skipUnless(shutil.which("systemd-analyze"), "systemd-analyze is not installed (package systemd)")
    @unittest.skipUnless(SCLM.exists(), f"{SCLM} is not built")
    def test_the_units_verify_without_warnings(self):
        with tempfile.TemporaryDirectory() as folder:
            for unit in UNITS.iterdir():
                text = unit.read_text().replace("/usr/local/bin/sclm", str(SCLM))
                (pathlib.Path(folder) / unit.name).write_text(text)
            units = sorted(str(path) for path in pathlib.Path(folder).iterdir())
            result = subprocess.run(["systemd-analyze", "verify", *units], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr.strip(), "", "systemd-analyze verify warned")

    def test_the_timer_spreads_a_fleet_with_a_random_delay(self):
        timer = read_unit("sclm-sync.timer")["Timer"]
        self.assertIn("RandomizedDelaySec", timer)
        self.assertIn("OnCalendar", timer)

    def test_the_units_name_their_home_and_a_failed_sync_fails_the_run(self):
        for name in ("sclm-sync.service", "sclm-play.service"):
            self.assertIn("\nEnvironment=SCLM_HOME=/var/lib/sclm\n", (UNITS / name).read_text(), name)
            self.assertEqual(read_unit(name)["Service"]["User"], "sclm", name)
        sync = read_unit("sclm-sync.service")["Service"]
        self.assertEqual(sync["Type"], "oneshot")
        self.assertNotIn("1", sync.get("SuccessExitStatus", "").split(), "exit 1 must fail the run")
        play = read_unit("sclm-play.service")["Service"]
        self.assertIn("play --kiosk --presentation", play["ExecStart"])


if __name__ == "__main__":
    unittest.main()
