"""The Prometheus textfile `sclm sync` writes (`metrics.textfile`) and `sclm status --format prometheus`
prints, read back after a sync with one failed package by a strict reader of the text exposition format
(written here, as node_exporter's textfile collector is strict), and by `promtool check metrics` where
Debian's `prometheus` package is installed.

Run: `python3 -m unittest discover -s Tests/Fleet -v` (needs the built `sclm`).
"""
import math
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import unittest

import fleet

SCLM = pathlib.Path(os.environ.get("SCLM_BINARY", fleet.ROOT / ".build/debug/sclm"))
PRESENTATIONS = (10001, 10002, 10003)
BROKEN = 10002
CLIENT = 1001  # the synthetic client of the dev-server

_NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
_LABEL = r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"'
_SAMPLE = re.compile(rf"^({_NAME})(?:\{{({_LABEL}(?:,{_LABEL})*)?\}})? (\S+)$")


def parse_exposition(text: str) -> dict[str, dict]:
    """Families by name ({"help", "type", "samples": {labels tuple: value}}) of a text-format document.
    Strict: ends in a line break, no blank lines, HELP and TYPE once each and before the family's samples,
    a family's samples together, no duplicate series, no timestamps, values that parse as floats."""
    if not text.endswith("\n"):
        raise ValueError("the document does not end with a line break")
    families, current, closed = {}, None, set()
    for number, line in enumerate(text[:-1].split("\n"), 1):
        if match := re.fullmatch(rf"# (HELP|TYPE) ({_NAME}) (.*)", line):
            kind, name, rest = match.groups()
            if name in closed or (current != name and name in families):
                raise ValueError(f"line {number}: {name} appears in two places")
            if current is not None and current != name:
                closed.add(current)
            family = families.setdefault(name, {"help": None, "type": None, "samples": {}})
            if family["samples"] or family[kind.lower()] is not None:
                raise ValueError(f"line {number}: {kind} of {name} repeated or after its samples")
            if kind == "TYPE" and rest not in ("counter", "gauge", "histogram", "summary", "untyped"):
                raise ValueError(f"line {number}: unknown type {rest}")
            family[kind.lower()] = rest
            current = name
            continue
        if line.startswith("#") or not line:
            raise ValueError(f"line {number}: {'a blank line' if not line else 'a stray comment'}")
        match = _SAMPLE.fullmatch(line)
        if match is None:
            raise ValueError(f"line {number}: not a sample without a timestamp: {line!r}")
        name, labels_text, value = match.group(1), match.group(2) or "", match.group(match.lastindex)
        if name != current or families[name]["type"] is None:
            raise ValueError(f"line {number}: sample of {name} outside its family")
        labels = tuple(re.findall(_LABEL, labels_text))
        if len({key for key, _ in labels}) != len(labels):
            raise ValueError(f"line {number}: a label repeated")
        if labels in families[name]["samples"]:
            raise ValueError(f"line {number}: duplicate series")
        families[name]["samples"][labels] = float(value)  # ValueError for a bad value
    return families


def value(families: dict, name: str, **labels) -> float:
    for series, number in families[name]["samples"].items():
        if dict(series) == {key: str(value) for key, value in labels.items()}:
            return number
    raise AssertionError(f"no {name}{labels}: {families[name]['samples']}")


class ExpositionReaderTests(unittest.TestCase):
    def test_the_reader_refuses_what_node_exporter_refuses(self):
        good = '# HELP a_b Help.\n# TYPE a_b gauge\na_b{x="1",y="q\\"z"} 2.5\n'
        self.assertEqual(parse_exposition(good)["a_b"]["samples"], {(("x", "1"), ("y", 'q\\"z')): 2.5})
        for bad in ("# TYPE a gauge\na 1 1700000000000\n", "# TYPE a gauge\na 1", "# TYPE a gauge\n\na 1\n",
                    "a 1\n", "# TYPE a gauge\na{x=\"1\"} 1\na{x=\"1\"} 2\n", "# TYPE a gauge\na one\n",
                    "# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\n# HELP a late\n", "# TYPE a gauge\na{x=1} 1\n"):
            with self.subTest(bad=bad), self.assertRaises(ValueError):
                parse_exposition(bad)


@unittest.skipUnless(SCLM.exists(), f"{SCLM} is not built")
class SyncMetricsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = pathlib.Path(tempfile.mkdtemp(prefix="sclm-metrics-"))
        cls.server = fleet.DevServer(len(PRESENTATIONS), size="64K")
        cls.server.control({"action": "corruptPackage", "presentationId": BROKEN, "mode": "crc"})
        cls.hosts = fleet.Fleet(str(SCLM), cls.server, cls.work / "homes", 1)
        cls.home = cls.hosts.homes[0]
        cls.folder = cls.work / "textfile"
        cls.folder.mkdir()
        cls.hosts.run(cls.home, "config", "set", "metrics.textfile", str(cls.folder / "sclm.prom"))
        cls.result = cls.hosts.run(cls.home, "sync", check=False)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_after_a_sync_with_one_failure_the_textfile_says_what_an_operator_alerts_on(self):
        self.assertEqual(self.result.returncode, 1, self.result.stderr)
        self.assertEqual(sorted(path.name for path in self.folder.iterdir()), ["sclm.prom"], "a temporary file left")
        self.assertEqual((self.folder / "sclm.prom").stat().st_mode & 0o777, 0o644)
        families = parse_exposition((self.folder / "sclm.prom").read_text())
        self.assertTrue(all(family["type"] == "gauge" and family["help"] for family in families.values()))
        self.assertEqual(value(families, "sclm_sync_last_success"), 0)
        self.assertEqual(value(families, "sclm_sync_last_result", result="failed"), 1)
        self.assertEqual(value(families, "sclm_sync_last_failed_presentations"), 1)
        self.assertEqual(value(families, "sclm_presentation_sync_failed", client=CLIENT, presentation=BROKEN), 1)
        self.assertEqual(value(families, "sclm_sync_last_blob_proxy_fallback"), 0)
        start, end = value(families, "sclm_sync_last_start_time_seconds"), value(families, "sclm_sync_last_end_time_seconds")
        self.assertTrue(1.7e9 < start <= end, (start, end))
        self.assertGreater(value(families, "sclm_sync_last_downloaded_bytes"), 0)
        for pid in PRESENTATIONS:
            self.assertEqual(value(families, "sclm_presentation_server_revision", client=CLIENT, presentation=pid),
                             self.revision(pid))
            state = "installed" if pid != BROKEN else "ready to download"
            self.assertEqual(value(families, "sclm_presentation_state", client=CLIENT, presentation=pid, state=state), 1)
        installed = families["sclm_presentation_installed_revision"]["samples"]
        self.assertEqual(sorted(int(dict(series)["presentation"]) for series in installed),
                         [pid for pid in PRESENTATIONS if pid != BROKEN])
        self.assertTrue(math.isfinite(value(families, "sclm_analytics_outbox_entries")))
        self.assertEqual(set(dict(series)["severity"] for series in families["sclm_package_findings"]["samples"]),
                         {"error", "warning"})

    def test_status_prints_the_same_metrics_on_demand(self):
        status = self.hosts.run(self.home, "status", "--format", "prometheus")
        self.assertEqual(status.stdout, (self.folder / "sclm.prom").read_text())
        refused = self.hosts.run(self.home, "status", "--format", "yaml", check=False)
        self.assertEqual(refused.returncode, 64, refused.stderr)

    @unittest.skipUnless(shutil.which("promtool"), "promtool is not installed (Debian package prometheus)")
    def test_promtool_accepts_the_textfile(self):
        with open(self.folder / "sclm.prom", "rb") as textfile:
            result = subprocess.run(["promtool", "check", "metrics"], stdin=textfile, capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def revision(self, pid: int) -> int:
        token = self.server.token()
        return self.server.request("GET", f"/v1/presentations/{pid}", headers={"Authorization": f"Bearer {token}"})[
            "revision"]


if __name__ == "__main__":
    unittest.main()
