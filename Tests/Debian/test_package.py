"""The package in a clean Debian 12 root under a real systemd: lintian, its contents, install, upgrade (from a
lower version built from the same tree), remove and purge.

One boot, in name order: install the lower version (`apt install ./…`, its dependencies already in the root,
which has no network); set the kiosk's presentation in the conffile /etc/sclm/play.env and start the kiosk
(it waits for its first sync: nothing is installed), leave a file in the home; upgrade (the edit, the home
and the running kiosk stay); remove (the units stop, the conffiles stay); purge (nothing of the package is
left but the sclm system user, which stays as Debian leaves system users: its uid may own files elsewhere).
"""
import subprocess
import time
import unittest

import container
import packages

REASON = container.unavailable()
# What the system itself changes while the package comes and goes (logs, dpkg's and apt's records, the
# account files' backups): a purge may leave these, and nothing else new.
SYSTEM_PATHS = ("/var/log/", "/var/lib/dpkg/", "/var/cache/apt/", "/var/lib/apt/", "/var/cache/debconf/",
                "/var/cache/ldconfig/", "/var/lib/systemd/", "/etc/passwd-", "/etc/group-", "/etc/shadow-",
                "/etc/gshadow-", "/etc/.pwd.lock", "/var/cache/man/", "/etc/systemd/system/timers.target.wants",
                "/etc/ld.so.cache")
SNAPSHOT = ("find / -xdev \\( -path /proc -o -path /sys -o -path /run -o -path /tmp -o -path /dev "
            "-o -path /srv/shared -o -path /src \\) -prune -o -print | sort")


@unittest.skipIf(REASON, REASON)
class PackageTests(container.ContainerTestCase):
    @classmethod
    def setUpClass(cls):
        started = time.monotonic()
        cls.package, cls.older, cls.build_log = packages.build()
        cls.build_seconds = time.monotonic() - started
        cls.box = container.Container("package")
        print(f"\npackage built in {cls.build_seconds:.0f} s; booted in {cls.box.boot_seconds:.1f} s", flush=True)
        for deb in (cls.package, cls.older):
            subprocess.run(["cp", str(deb), str(cls.box.shared)], check=True)
        cls.before = set(cls.box.run(SNAPSHOT).stdout.splitlines())

    def test_0_lintian_is_clean_and_the_contents_are_where_debian_wants_them(self):
        lintian = subprocess.run(["lintian", "--fail-on", "error,warning", "--no-tag-display-limit",
                                  str(self.package)], capture_output=True, text=True, timeout=300)
        print(f"lintian: {lintian.stdout.strip() or 'clean'}", flush=True)
        self.assertEqual(lintian.returncode, 0, lintian.stdout + lintian.stderr)
        listing = subprocess.run(["dpkg", "-c", str(self.package)], capture_output=True, text=True,
                                 check=True).stdout
        print(f"dpkg -c {self.package.name}:\n{listing}", flush=True)
        paths = {line.split()[-1].removeprefix(".") for line in listing.splitlines()}
        for path in ("/usr/bin/sclm", "/usr/share/man/man1/sclm.1.gz", "/usr/share/bash-completion/completions/sclm",
                     "/usr/share/zsh/vendor-completions/_sclm", "/usr/share/fish/vendor_completions.d/sclm.fish",
                     "/lib/systemd/system/sclm-sync.service", "/lib/systemd/system/sclm-sync.timer",
                     "/lib/systemd/system/sclm-play.service", "/usr/lib/sysusers.d/sclm.conf",
                     "/usr/lib/tmpfiles.d/sclm.conf", "/etc/sclm/play.env", "/etc/sclm/nginx/sclm-cache.conf"):
            self.assertIn(path, paths)
        self.assertFalse([path for path in paths if path.startswith("/usr/local")], "a file in /usr/local")
        fields = subprocess.run(["dpkg-deb", "-f", str(self.package), "Version", "Depends", "Recommends",
                                 "Suggests"], capture_output=True, text=True, check=True).stdout
        self.assertIn(f"Version: {packages.version()}\n", fields)
        self.assertIn("libcurl4", fields)
        self.assertIn("Recommends: chromium", fields)
        conffiles = subprocess.run(["dpkg-deb", "--ctrl-tarfile", str(self.package)], capture_output=True,
                                   check=True).stdout
        self.assertIn(b"conffiles", conffiles)

    def test_1_apt_installs_it_with_its_user_folders_and_timer(self):
        box = self.box
        box.run(f"apt-get install -y -q /srv/shared/{self.older.name}")
        self.assertIn("uid=", box.run("id sclm").stdout)
        self.assertEqual(box.run("stat -c '%a %U' /var/lib/sclm").stdout.strip(), "700 sclm")
        self.assertEqual(box.run("stat -c '%a %U' /etc/sclm/credentials").stdout.strip(), "700 root")
        self.assertEqual(box.run("stat -c '%U' /var/cache/nginx/sclm").stdout.strip(), "www-data")
        box.run("runuser -u sclm -- touch /var/lib/prometheus/node-exporter/sclm-can-write && "
                "rm /var/lib/prometheus/node-exporter/sclm-can-write")
        self.assertEqual(box.run("stat -c '%a %U' /var/lib/prometheus/node-exporter").stdout.strip(), "775 root",
                         "the folder stays root's (the ACL mask shows as group bits)")
        self.assertEqual(box.run("systemctl is-enabled sclm-sync.timer").stdout.strip(), "enabled")
        self.assertEqual(box.run("systemctl is-active sclm-sync.timer").stdout.strip(), "active")
        self.assertEqual(box.run("systemctl is-enabled sclm-play.service", check=False).stdout.strip(), "disabled")
        self.assertEqual(box.run("systemctl is-active sclm-play.service", check=False).stdout.strip(), "inactive")
        self.assertEqual(box.run("sclm --version").stdout.strip().split()[-1], packages.version())

    def test_2_an_upgrade_keeps_the_admins_edit_the_home_and_the_running_kiosk(self):
        box = self.box
        box.run("sed -i 's/^SCLM_PRESENTATION=$/SCLM_PRESENTATION=10001/' /etc/sclm/play.env && "
                "systemctl start sclm-play.service && runuser -u sclm -- touch /var/lib/sclm/kept")
        box.wait_for("journalctl -q -o cat -u sclm-play.service | grep 'waiting for presentation 10001'",
                     what="the kiosk waits for its first sync")
        box.run(f"apt-get install -y -q /srv/shared/{self.package.name}")
        self.assertEqual(box.run("dpkg-query -W -f '${Version}' sclm").stdout, packages.version())
        self.assertIn("SCLM_PRESENTATION=10001", box.run("cat /etc/sclm/play.env").stdout)
        box.run("test -f /var/lib/sclm/kept")
        self.assertEqual(box.run("systemctl is-active sclm-play.service").stdout.strip(), "active")

    def test_3_remove_stops_the_units_and_keeps_the_settings(self):
        box = self.box
        box.run("apt-get remove -y -q sclm")
        for unit in ("sclm-play.service", "sclm-sync.timer"):
            self.assertEqual(box.run(f"systemctl is-active {unit}", check=False).stdout.strip(), "inactive", unit)
        box.run("test -f /etc/sclm/play.env && test -d /var/lib/sclm")
        box.run("! test -e /usr/bin/sclm")

    def test_4_purge_leaves_nothing_of_the_package_but_its_system_user(self):
        box = self.box
        box.run("apt-get purge -y -q sclm")
        after = set(box.run(SNAPSHOT).stdout.splitlines())
        left = sorted(path for path in after - self.before if not path.startswith(SYSTEM_PATHS))
        self.assertEqual(left, [])
        named = sorted(path for path in after if "sclm" in path)
        self.assertEqual(named, [])
        self.assertIn("uid=", box.run("id sclm").stdout, "the system user is kept (Debian's practice)")


if __name__ == "__main__":
    unittest.main()
