"""A Debian 12 root booted with a real systemd, for the package's tests.

`scripts/debian-root.sh` builds (once, cached) a debootstrap minbase root with systemd, dbus and everything the
package and the tests need; it is unpacked once per clone into .build/debian/ and booted with
`systemd-nspawn -D ROOT -b --register=no --keep-unit --private-network --volatile=overlay`: every boot starts
from the same pristine root (the overlay's upper layer is a tmpfs), without a network (the dev-server runs
inside), with this repository read-only at /src and a folder shared with the host at /srv/shared.
Commands run inside with nsenter into the container's init (there is no machined: --register=no).
"""
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

REPO = pathlib.Path(__file__).resolve().parents[2]
WORK = REPO / ".build" / "debian"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def unavailable() -> str | None:
    """Why no container can boot here, or None."""
    if os.geteuid() != 0:
        return "booting a container needs root"
    for tool in ("systemd-nspawn", "debootstrap", "nsenter", "zstd"):
        if not shutil.which(tool):
            return f"{tool} is not installed (scripts/ensure-deps.sh systemd-container debootstrap zstd)"
    if not pathlib.Path("/sys/fs/cgroup").is_dir():
        return "no cgroup file system at /sys/fs/cgroup"
    return None


def root() -> pathlib.Path:
    """The unpacked root (made once from the cached archive, named after it)."""
    archive = subprocess.run([str(REPO / "scripts/debian-root.sh")], check=True, capture_output=True,
                             text=True).stdout.strip().splitlines()[-1]
    target = WORK / pathlib.Path(archive).name.removesuffix(".tar.zst")
    if (target / "etc/os-release").exists():
        return target
    WORK.mkdir(parents=True, exist_ok=True)
    for old in WORK.glob("debian-root-*"):
        shutil.rmtree(old, ignore_errors=True)
    scratch = pathlib.Path(tempfile.mkdtemp(dir=WORK, prefix="unpack-"))
    subprocess.run(["tar", "-C", str(scratch), "--numeric-owner", "-I", "zstd", "-xf", archive], check=True)
    scratch.rename(target)
    return target


class Container:
    """One boot of the root; `run` executes a bash script inside as root. Use as a context manager."""

    def __init__(self, name: str, binds: tuple = ()):
        self.name = name
        self.shared = pathlib.Path(tempfile.mkdtemp(prefix=f"sclm-{name}-"))
        self.shared.chmod(0o755)  # the units' users read it too
        self.log = WORK / f"{name}.console.log"
        WORK.mkdir(parents=True, exist_ok=True)
        # The machine name is unique per run: nspawn keeps per-machine state under /run/systemd/nspawn/.
        command = ["systemd-nspawn", "-D", str(root()), "-b", "--register=no", "--keep-unit", "--private-network",
                   "--volatile=overlay", f"--machine=sclm-{name}-{os.getpid()}", "--console=read-only",
                   f"--bind-ro={REPO}:/src", f"--bind={self.shared}:/srv/shared", *binds]
        self.started = time.monotonic()
        with open(self.log, "wb") as sink:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT,
                                            start_new_session=True, env={**os.environ, "TERM": "dumb"})
        self.leader = self._leader()
        deadline = time.monotonic() + 60
        while True:  # "offline" until systemd runs as the container's init and listens
            state = self.run("systemctl is-system-running --wait", check=False, timeout=60).stdout.strip()
            if state not in ("offline", "") or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        if state not in ("running", "degraded"):
            self.close()
            raise AssertionError(f"the container did not boot ({state}): {self.log.read_text()[-2000:]}")
        self.boot_seconds = time.monotonic() - self.started

    def _leader(self) -> int:
        """The container's init: the first process below nspawn in another pid namespace."""
        own = os.readlink("/proc/self/ns/pid")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"systemd-nspawn exited {self.process.returncode}: {self.log.read_text()[-2000:]}")
            pending = [self.process.pid]
            while pending:
                pid = pending.pop()
                try:
                    if pid != self.process.pid and os.readlink(f"/proc/{pid}/ns/pid") != own:
                        return pid
                    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
                        pending += [int(child) for child in (task / "children").read_text().split()]
                except (FileNotFoundError, ProcessLookupError):
                    continue
            time.sleep(0.05)
        raise AssertionError("no container init appeared within 30 s")

    def run(self, script: str, check: bool = True, timeout: float = 120, user: str | None = None,
            input: str | None = None) -> subprocess.CompletedProcess:
        """Runs `script` in bash inside the container (as root, or `user` through runuser)."""
        shell = ["bash", "-euo", "pipefail", "-c", script]
        if user:
            shell = ["runuser", "-u", user, "--"] + shell
        command = ["nsenter", "-t", str(self.leader), "-a", "-r", "-w", "env", "-i", f"PATH={PATH}", "LANG=C.UTF-8",
                   "HOME=/root", "NO_COLOR=1"] + shell
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, input=input,
                                stdin=None if input is not None else subprocess.DEVNULL)
        if check and result.returncode != 0:
            raise AssertionError(f"exit {result.returncode} in the container: {script}\n"
                                 f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
        return result

    def journal(self, unit: str) -> str:
        return self.run(f"journalctl -q -o cat --no-pager -u {unit}", check=False).stdout

    def wait_for(self, script: str, timeout: float = 30, what: str = "") -> str:
        """Runs `script` until it exits 0; returns its output."""
        deadline = time.monotonic() + timeout
        while True:
            result = self.run(script, check=False)
            if result.returncode == 0:
                return result.stdout
            if time.monotonic() > deadline:
                raise AssertionError(f"{what or script}: not within {timeout} s: {result.stdout[-1500:]}"
                                     f"{result.stderr[-1500:]}")
            time.sleep(0.3)

    def close(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # nspawn asks the container's systemd to power off
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        shutil.rmtree(self.shared, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class ContainerTestCase(unittest.TestCase):
    """Tests sharing one booted container, `cls.box` (set by the subclass's `setUpClass`, closed after the
    last test); each test prints its time."""

    box: Container

    @classmethod
    def tearDownClass(cls):
        cls.box.close()

    def setUp(self):
        self.test_started = time.monotonic()

    def tearDown(self):
        print(f"\n  {self._testMethodName}: {time.monotonic() - self.test_started:.1f} s", flush=True)
