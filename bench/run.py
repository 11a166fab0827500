#!/usr/bin/env python3
"""Runs every benchmark in bench/ and prints a table of sclm against the tool a user would otherwise use.

Each `bench_*.py` module defines `run(ctx) -> list[Result]`. Timings are best-of-N in the same run, so the
ratios compare like with like on this shared, noisy machine. Usage:

    python3 bench/run.py                 # all benchmarks
    python3 bench/run.py upsert sync     # only modules whose name contains one of the words
    python3 bench/run.py --quick         # smaller inputs (used by CI smoke runs)
    python3 bench/run.py --no-scratch-fs # work in the temporary folder's own file system

Benchmarks work on a fresh journaled ext4 file system (`mkfs.ext4` defaults on a 12 GiB image allocated up
front, loop-mounted, inode tables initialised at once) when the run is root and can make one, else in the temporary folder.
A journal matters: without one (some VM images format their root that way) ext4 skips every inode freed
in the last few minutes when it allocates a new one, so a benchmark that unpacks and deletes thousands of
files run after run measures its own churn (each create scanning past every earlier run's deleted
inodes), not the tool.
"""
import contextlib
import argparse
import importlib.util
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

ROOT = pathlib.Path(__file__).resolve().parent.parent


@dataclass
class Result:
    """One measured comparison. `ratio` is oriented so that bigger is better for sclm."""
    name: str
    sclm: str
    baseline: str
    ratio: float
    budget: str
    ok: bool
    notes: str = ""


@dataclass
class Context:
    root: pathlib.Path
    release_dir: pathlib.Path
    work: pathlib.Path
    quick: bool
    repeat: int = 3
    extra: dict = field(default_factory=dict)

    @property
    def sclm(self) -> str:
        return str(self.release_dir / "sclm")

    @property
    def bench_tool(self) -> str:
        return str(self.release_dir / "sclm-bench")

    def bench_json(self, *args: str) -> dict:
        """Runs `sclm-bench ARGS` and parses its one JSON line."""
        out = subprocess.run([self.bench_tool, *args], check=True, capture_output=True, text=True).stdout
        return json.loads(out.strip().splitlines()[-1])


def fresh_dir(path: pathlib.Path) -> pathlib.Path:
    """`path` as a new empty folder (whatever was there is removed)."""
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def remove_database(path: str):
    """Removes an SQLite database and its WAL files, if they exist."""
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


@contextlib.contextmanager
def work_folder(scratch: bool):
    """Yields (folder, description) for the run's files: a journaled ext4 scratch file system if possible."""
    with tempfile.TemporaryDirectory(prefix="sclm-bench-") as temporary:
        temporary = pathlib.Path(temporary)
        reason = "--no-scratch-fs" if not scratch else None
        if reason is None and (os.geteuid() != 0 or not shutil.which("mkfs.ext4")):
            reason = "not root, or no mkfs.ext4"
        mount = temporary / "fs"
        if reason is None:
            image, device = temporary / "fs.img", ""
            try:
                with open(image, "wb") as file:
                    # Allocated up front: a write into a hole of a sparse image also allocates the backing
                    # file's blocks, which would slow whichever side first writes to a part of the disk.
                    os.posix_fallocate(file.fileno(), 0, 12 << 30)
                # Inode tables and journal written now, not by ext4lazyinit in the background during the
                # runs; no discard, which would punch the allocation back out of the image.
                subprocess.run(["mkfs.ext4", "-q", "-F", "-E", "nodiscard,lazy_itable_init=0,lazy_journal_init=0",
                                str(image)], check=True, capture_output=True)
                mount.mkdir()
                # Direct I/O: the loop device writes straight to the image's blocks, so a flush waits for
                # what this file system wrote, as a disk's would (buffered, it writes back the whole image).
                device = subprocess.run(["losetup", "--direct-io=on", "--find", "--show", str(image)], check=True,
                                        capture_output=True, text=True).stdout.strip()
                subprocess.run(["mount", device, str(mount)], check=True, capture_output=True)
            except (OSError, subprocess.CalledProcessError) as error:
                reason = f"could not make one ({getattr(error, 'stderr', b'') or error})"
                if device:  # attached, but the mount failed
                    subprocess.run(["losetup", "--detach", device], capture_output=True)
        if reason is not None:
            yield temporary, f"the temporary folder's own file system ({reason})"
            return
        try:
            yield mount, "a fresh journaled ext4 file system (mkfs.ext4 defaults, direct-I/O loop device)"
        finally:
            if subprocess.run(["umount", str(mount)], capture_output=True).returncode != 0:
                subprocess.run(["umount", "-l", str(mount)], capture_output=True)
            subprocess.run(["losetup", "--detach", device], capture_output=True)


def build_release() -> pathlib.Path:
    # The same build `make release` and `make install` make.
    for product in ("sclm", "sclm-bench"):
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "-Xswiftc", "-use-ld=lld",
                        "--product", product], cwd=ROOT, check=True)
    out = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    return pathlib.Path(out)


def load_modules(filters):
    for path in sorted(pathlib.Path(__file__).parent.glob("bench_*.py")):
        if filters and not any(word in path.stem for word in filters):
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module
        spec.loader.exec_module(module)
        yield path.stem, module


def print_table(results):
    header = ("benchmark", "sclm", "baseline", "ratio", "budget", "ok")
    rows = [header] + [(r.name, r.sclm, r.baseline, f"{r.ratio:.2f}x", r.budget, "yes" if r.ok else "NO")
                       for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for index, row in enumerate(rows):
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)))
        if index == 0:
            print("  ".join("-" * w for w in widths))
    for r in results:
        if r.notes:
            print(f"- {r.name}: {r.notes}")


def main():
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("filters", nargs="*", help="run only benchmarks whose module name contains a word")
    parser.add_argument("--quick", action="store_true", help="smaller inputs for a fast smoke run")
    parser.add_argument("--json", action="store_true", help="print results as JSON lines too")
    parser.add_argument("--no-scratch-fs", action="store_true",
                        help="work in the temporary folder, not on a fresh journaled ext4 file system")
    args = parser.parse_args()
    release_dir = build_release()
    results = []
    with work_folder(scratch=not args.no_scratch_fs) as (work, description):
        print(f"working on {description}: {work}", file=sys.stderr, flush=True)
        ctx = Context(root=ROOT, release_dir=release_dir, work=work, quick=args.quick)
        for name, module in load_modules(args.filters):
            print(f"== {name}", file=sys.stderr, flush=True)
            results.extend(module.run(ctx))
    print()
    print_table(results)
    if args.json:
        for r in results:
            print(json.dumps(r.__dict__))
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
