"""docs/fleet.md's recipe and the units, in a Debian 12 root booted with a real systemd (one boot).

In name order: the package's timer fires before anything is configured (a drop-in makes it fire one second
after it starts instead of 1–21 min after boot) and the sync ends with one "not configured yet" line, not a
failed unit; then every ```` ```sh fleet-cache ````, ```` ```sh fleet-step ```` and ```` ```sh fleet-metrics
```` block of docs/fleet.md runs as written in one root bash, with only the placeholders replaced (the
dev-server runs inside the container on 127.0.0.1:8000: --private-network has no route to the host, and a
server inside needs no veth set-up on the host; `editor` sets the cache config's ADJUST lines for it): a synced
home through the cache, `nginx -t`, node_exporter serving sclm's metrics. Then the timer's next run is a no-op;
the sync unit's sandbox is probed from inside it; the kiosk plays on Xvfb under its unit's syscall filter and
namespaces, comes back when its browser is killed, and fails with a deliberately narrowed filter; neither
journal has a warning; last, the player's textfile shows the slide and its age, and a frozen page (its renderer
stopped) gets the kiosk restarted by systemd's watchdog.
"""
import pathlib
import re
import subprocess
import sys
import time
import unittest

import container
import packages

sys.path.insert(0, str(container.REPO / "Tests/Fleet"))
import fleet  # noqa: E402

REASON = container.unavailable()
FLEET_DOC = container.REPO / "docs/fleet.md"
PRESENTATION = 10001
SERVER = "http://127.0.0.1:8000"
PLAY_METRICS = "/var/lib/prometheus/node-exporter/sclm-play.prom"
EXPOSURE = {"sclm-sync.service": "1.1", "sclm-play.service": "2.4"}  # docs/fleet.md's table
TIMER_AT_ONCE = "[Timer]\nOnBootSec=\nOnCalendar=\nRandomizedDelaySec=0\nOnActiveSec=1s\nAccuracySec=1s\n"
# The syscall filter of sclm-play.service without `@mount seccomp`, which Chromium's sandbox needs.
NARROWED = "[Service]\nSystemCallFilter=\nSystemCallFilter=@system-service\n"
PROBE = r"""#!/bin/sh
# Run as sclm-sync.service's ExecStart: what may this process do?
for path in /var/lib/sclm /var/lib/prometheus/node-exporter /etc /usr /var/lib /srv/shared /home /root; do
    if touch "$path/probe" 2>/dev/null; then echo "probe: write $path ok"; rm -f "$path/probe"; else echo "probe: write $path denied"; fi
done
echo "probe: $(grep -E '^(CapEff|CapBnd|NoNewPrivs|Seccomp):' /proc/self/status | tr -s '\t\n' '  ')"
python3 -c 'import ctypes, os; libc = ctypes.CDLL(None, use_errno=True); r = libc.ptrace(16, os.getppid(), 0, 0); print("probe: ptrace", r, os.strerror(ctypes.get_errno()))'
"""


def blocks(kind: str) -> list[str]:
    """The bodies of docs/fleet.md's fenced blocks whose info string is `sh <kind>`, dedented, in order."""
    found = re.finditer(rf"^( *)```sh {kind}\n(.*?)^\1```$", FLEET_DOC.read_text(), re.S | re.M)
    return ["\n".join(line[len(block.group(1)):] for line in block.group(2).splitlines()) for block in found]


@unittest.skipIf(REASON, REASON)
class RecipeTests(container.ContainerTestCase):
    @classmethod
    def setUpClass(cls):
        cls.started = time.monotonic()
        cls.package = packages.build()[0]
        cls.box = container.Container("recipe")
        box = cls.box
        subprocess.run(["cp", str(cls.package), str(box.shared)], check=True)
        (box.shared / "probe.sh").write_text(PROBE)
        config = fleet.render_config(fleet.SHIPPED_CONFIG.read_text(), "127.0.0.1:8080", "127.0.0.1:8000",
                                     pathlib.Path("/var/cache/nginx/sclm"))
        (box.shared / "sclm-cache.conf").write_text(config)
        box.run("mkdir -p /etc/systemd/system/sclm-sync.timer.d && "
                f"printf '{TIMER_AT_ONCE}' > /etc/systemd/system/sclm-sync.timer.d/at-once.conf")
        box.run("systemd-run --unit=devserver --setenv=PYTHONDONTWRITEBYTECODE=1 python3 /src/dev-server/server.py "
                "--port 8000 --synthetic-clients 1 --synthetic-presentations 2 --synthetic-size 256K --quiet")
        box.run("systemd-run --unit=xvfb Xvfb :0 -screen 0 1280x800x24 -nolisten tcp")

    def script(self) -> str:
        steps, cache, metrics = blocks("fleet-step"), blocks("fleet-cache"), blocks("fleet-metrics")
        self.assertEqual((len(steps), len(cache), len(metrics)), (4, 1, 1), "docs/fleet.md lost a block")
        body = "\n".join(steps)
        self.assertFalse(re.search(r"\bsudo\b", body), "a step needs sudo")
        placeholders = {"https://api.storyclm.com": SERVER, "https://auth.storyclm.com": SERVER,
                        "CLIENT-ID-FROM-STORYCLM": "sclm-demo", "CLIENT-SECRET-FROM-STORYCLM": "demo-secret",
                        "http://cache.site.lan:8080": "http://127.0.0.1:8080",
                        "SCLM_PRESENTATION=101": f"SCLM_PRESENTATION={PRESENTATION}"}
        for placeholder, value in placeholders.items():
            self.assertIn(placeholder, body, f"docs/fleet.md no longer names {placeholder}")
            body = body.replace(placeholder, value)
        editor = 'editor() { cp /srv/shared/sclm-cache.conf "$1"; }\n'
        # The package first (the cache's config is one of its conffiles), then the cache; the host's other steps
        # and the metrics once the timer's first run (before any set-up) has ended.
        rest = body.split("\n", 1)[1]
        return "cd /srv/shared\n" + editor + steps[0] + "\n" + cache[0], rest + "\n" + metrics[0]

    def sync_runs(self) -> list[str]:
        return [line for line in self.box.journal("sclm-sync.service").splitlines() if line.startswith("Finished")]

    def test_1_the_recipe_runs_as_written_and_the_first_timer_run_was_not_a_failure(self):
        box = self.box
        started = time.monotonic()
        install, rest = self.script()
        first = box.run(install, check=False, timeout=120)
        self.assertEqual(first.returncode, 0, first.stdout[-3000:] + first.stderr[-3000:])
        box.wait_for("journalctl -q -o cat -u sclm-sync.service | grep '^Finished' >/dev/null", timeout=30,
                     what="the timer's first run")
        result = box.run(rest, check=False, timeout=240)
        print(f"\nrecipe: {time.monotonic() - started:.0f} s", flush=True)
        self.assertEqual(result.returncode, 0, result.stdout[-3000:] + result.stderr[-3000:])
        result.stderr = first.stderr + result.stderr
        journal = box.journal("sclm-sync.service")
        self.assertIn("sclm is not configured yet (auth.clientId is not set): nothing to sync", journal)
        self.assertEqual(box.run("systemctl show -P Result sclm-sync.service").stdout.strip(), "success")
        self.assertEqual(box.run("systemctl --failed --no-legend --plain | grep sclm || true").stdout, "")
        home = box.run("ls -d /var/lib/sclm/content/*/*/sources | wc -l").stdout.strip()
        self.assertEqual(home, "2", result.stdout[-2000:])
        self.assertIn("sclm_sync_last_success 1", result.stdout, "node_exporter did not serve sclm's metrics")
        self.assertIn("syntax is ok", result.stderr, "nginx -t")
        self.assertNotIn("demo-secret", box.run("cat /var/lib/sclm/config.json").stdout)
        self.assertRegex(box.run("tail -c 20000 /var/log/nginx/access.log 2>/dev/null || true").stdout + "x", "x")
        metrics = box.run("cat /var/lib/prometheus/node-exporter/sclm.prom").stdout
        self.assertIn('sclm_presentation_installed_revision{client="1001",presentation="10001"}', metrics)
        self.assertIn("sclm_sync_last_blob_proxy_fallback 0", metrics)

    def test_2_the_timers_next_run_is_a_no_op(self):
        box = self.box
        runs = len(self.sync_runs())
        box.run("systemctl restart sclm-sync.timer")
        box.wait_for(f"test $(journalctl -q -o cat -u sclm-sync.service | grep -c '^Finished') -gt {runs}",
                     timeout=60, what="the timer's run")
        self.assertEqual(box.run("systemctl show -P Result sclm-sync.service").stdout.strip(), "success")
        metrics = box.run("cat /var/lib/prometheus/node-exporter/sclm.prom").stdout
        self.assertIn("sclm_sync_last_downloaded_bytes 0\n", metrics)

    def test_3_the_sync_units_sandbox_applies(self):
        box = self.box
        box.run("mkdir -p /etc/systemd/system/sclm-sync.service.d && printf '[Service]\\nExecStart=\\n"
                "ExecStart=/bin/sh /srv/shared/probe.sh\\n' > /etc/systemd/system/sclm-sync.service.d/probe.conf "
                "&& systemctl daemon-reload && systemctl start sclm-sync.service")
        probe = "\n".join(line for line in box.journal("sclm-sync.service").splitlines() if line.startswith("probe:"))
        box.run("rm -r /etc/systemd/system/sclm-sync.service.d && systemctl daemon-reload")
        for path in ("/var/lib/sclm", "/var/lib/prometheus/node-exporter"):
            self.assertIn(f"probe: write {path} ok", probe)
        for path in ("/etc", "/usr", "/var/lib", "/srv/shared", "/home", "/root"):
            self.assertNotIn(f"probe: write {path} ok", probe)
        self.assertRegex(probe, r"CapEff: 0+\b")
        self.assertRegex(probe, r"CapBnd: 0+\b")
        self.assertRegex(probe, r"NoNewPrivs: 1\b")
        self.assertRegex(probe, r"Seccomp: 2\b")
        self.assertRegex(probe, r"probe: ptrace -1 Operation not permitted")
        for unit, figure in EXPOSURE.items():
            security = box.run(f"systemd-analyze security --no-pager {unit}").stdout
            self.assertRegex(security, rf"Overall exposure level for {unit}: {figure} ", security[-400:])

    def slide_lines(self) -> int:
        return sum(1 for line in self.box.journal("sclm-play.service").splitlines() if line.startswith("slide:"))

    def plays(self, after: int, seconds: float) -> bool:
        """Whether the kiosk shows a slide (a new `slide:` line in its journal) within `seconds`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.slide_lines() > after:
                return True
            time.sleep(0.5)
        return False

    def test_4_the_kiosk_plays_under_its_sandbox_and_its_browser_comes_back(self):
        box = self.box
        self.assertTrue(self.plays(0, 60), box.journal("sclm-play.service")[-3000:])
        self.assertEqual(box.run("systemctl show -P NRestarts sclm-play.service").stdout.strip(), "0")
        shown = self.slide_lines()
        box.run("pkill -KILL -x chromium")
        self.assertTrue(self.plays(shown, 60), box.journal("sclm-play.service")[-3000:])
        self.assertEqual(box.run("systemctl show -P NRestarts sclm-play.service").stdout.strip(), "0",
                         "sclm itself restarted")

    def test_5_with_a_narrowed_syscall_filter_the_kiosk_fails(self):
        box = self.box
        box.run("mkdir -p /etc/systemd/system/sclm-play.service.d && "
                f"printf '{NARROWED}' > /etc/systemd/system/sclm-play.service.d/narrow.conf && "
                "systemctl daemon-reload")
        # Type=notify: the start itself fails, the first slide (READY=1) never coming.
        box.run("systemctl restart sclm-play.service", check=False)
        shown = self.slide_lines()
        try:
            self.assertFalse(self.plays(shown, 15), "the kiosk played without @mount and seccomp")
        finally:
            box.run("rm -r /etc/systemd/system/sclm-play.service.d && systemctl daemon-reload && "
                    "systemctl restart sclm-play.service")

    def restarts(self) -> int:
        return int(self.box.run("systemctl show -P NRestarts sclm-play.service").stdout.strip())

    def test_7_the_players_textfile_shows_the_slide_and_a_frozen_page_gets_it_restarted(self):
        box = self.box
        slide = rf'\nsclm_play_slide_info{{presentation="{PRESENTATION}",slide="[^"]+"}} 1\n'
        prom = box.wait_for(f"grep -qx 'sclm_play_up 1' {PLAY_METRICS} && grep -q '^sclm_play_slide_info{{' {PLAY_METRICS} && "
                            f"cat {PLAY_METRICS}", timeout=60, what="the player's textfile")
        self.assertRegex(prom, slide)
        self.assertRegex(prom, rf'\nsclm_play_slide_age_seconds{{presentation="{PRESENTATION}"}} [0-9.]+\n')
        before, shown = self.restarts(), self.slide_lines()
        # A stopped renderer answers nothing, as a page stuck in a script: sclm withholds WATCHDOG=1 and
        # systemd (WatchdogSec=30) kills and restarts it.
        box.run("pkill -STOP -f -- --type=renderer")
        deadline = time.monotonic() + 120
        while self.restarts() == before and time.monotonic() < deadline:
            time.sleep(1)
        journal = box.journal("sclm-play.service")
        self.assertGreater(self.restarts(), before, journal[-3000:])
        self.assertIn("the page does not answer; withholding WATCHDOG=1", journal)
        self.assertTrue(self.plays(shown, 90), "the restarted kiosk plays again")

    def test_6_neither_journal_has_a_warning(self):
        for unit in ("sclm-sync.service", "sclm-play.service"):
            lines = self.box.run(f"journalctl -q -o cat --no-pager -p warning -u {unit}", check=False).stdout
            sclm = [line for line in lines.splitlines() if re.match(r"(warning|error):", line)]
            self.assertEqual(sclm, [], unit)
        print(f"recipe and units: {time.monotonic() - self.started:.0f} s", flush=True)


if __name__ == "__main__":
    unittest.main()
