"""The real entry point: `python3 dev-server/server.py` prints its URL first, obeys flags, stops on SIGTERM."""
import json
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

SERVER = pathlib.Path(__file__).resolve().parent.parent / "server.py"


def running(pid: str) -> bool:
    """True while the process exists and is not a zombie waiting to be reaped."""
    try:
        return pathlib.Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


class CommandLineTests(unittest.TestCase):
    def start(self, *args: str) -> tuple[subprocess.Popen, str]:
        process = subprocess.Popen([sys.executable, str(SERVER), *args], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        self.addCleanup(self.finish, process)
        url = process.stdout.readline().strip()
        return process, url

    @staticmethod
    def finish(process: subprocess.Popen) -> None:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
        process.stderr.close()

    def test_first_line_is_the_url_and_sigterm_stops_cleanly(self):
        process, url = self.start("--port", "0")
        self.assertRegex(url, r"^http://127\.0\.0\.1:\d+$")
        with urllib.request.urlopen(f"{url}/_control/stats", timeout=5) as response:
            self.assertEqual(json.load(response)["requests"], {})
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{url}/v1/clients", timeout=5)
        self.assertEqual(refused.exception.code, 401)
        process.send_signal(signal.SIGTERM)
        self.assertEqual(process.wait(timeout=10), 0)
        stderr = process.stderr.read()
        self.assertIn("GET /v1/clients 401", stderr)
        blob_dir = re.search(r"blobs in (\S+);", stderr).group(1)
        self.assertFalse(pathlib.Path(blob_dir).exists(), "the temporary blob dir is removed at exit")
        self.assertEqual(process.stdout.read(), "", "nothing but the URL goes to stdout")

    def test_fault_flags_apply_from_the_start(self):
        process, url = self.start("--quiet", "--fail", "503:1:2@/connect/token")
        request = urllib.request.Request(f"{url}/connect/token", data=b"grant_type=password")
        with self.assertRaises(urllib.error.HTTPError) as failed:
            urllib.request.urlopen(request, timeout=5)
        self.assertEqual((failed.exception.code, failed.exception.headers["Retry-After"]), (503, "2"))
        process.send_signal(signal.SIGINT)
        self.assertEqual(process.wait(timeout=10), 0)

    def test_exit_with_parent(self):
        script = (f"import subprocess, sys; p = subprocess.Popen([sys.executable, {str(SERVER)!r}, '--quiet', "
                  "'--exit-with-parent'], stdout=subprocess.PIPE, text=True); print(p.pid); "
                  "print(p.stdout.readline().strip(), flush=True)")
        parent = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=10)
        pid, url = parent.stdout.split()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and running(pid):
            time.sleep(0.1)
        self.assertFalse(running(pid), "the server outlived its parent")
        with self.assertRaises(OSError):
            urllib.request.urlopen(f"{url}/_control", timeout=2)

    def test_help_names_the_demo_credentials(self):
        output = subprocess.run([sys.executable, str(SERVER), "--help"], capture_output=True, text=True,
                                check=True).stdout
        for text in ("sclm-demo", "demo-secret", "demo@storyclm.test", "demo-pass", "sclm-demo-hub",
                     "demo-iot-key", "demo-iot-secret", "--synthetic-size", "--drop-after-bytes"):
            self.assertIn(text, output)

    def test_bad_content_folder_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as empty:
            result = subprocess.run([sys.executable, str(SERVER), "--content", empty], capture_output=True,
                                    text=True, timeout=10)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout, "")
        self.assertIn("clients.json is missing", result.stderr)

    def test_bad_option_values_are_usage_errors(self):
        for argv in (["--synthetic-clients", "1", "--synthetic-size", "ten"], ["--fail", "abc"], ["--port", "-3"]):
            with self.subTest(argv=argv):
                result = subprocess.run([sys.executable, str(SERVER), *argv], capture_output=True, text=True,
                                        timeout=10)
                self.assertEqual(result.returncode, 2)
                self.assertIn("error", result.stderr)
