"""The Debian package, built from this tree with the test build's binary (`make test`'s build links the Swift
runtime in statically, as the release does), the way `make deb` builds it: debian/rules through
`dpkg-buildpackage -b`, in a scratch copy of the files the build reads, so the tree gets no debian/sclm/ and
nothing lands in its parent folder. A second package of a lower version (the same files, the version in
DEBIAN/control lowered) is the one an upgrade starts from.
"""
import importlib.util
import os
import pathlib
import shutil
import subprocess
import tempfile

from container import REPO, WORK

BINARY = pathlib.Path(os.environ.get("SCLM_BINARY", REPO / ".build/debug/sclm"))
# What debian/rules and the Makefile's install targets read.
SOURCES = ("debian", "contrib", "scripts", "Makefile", "Sources/SCLMCore/Version.swift")


def swift_runtime_libraries(binary: pathlib.Path) -> list[str]:
    """The Swift runtime libraries `binary` loads (none when it links the runtime in)."""
    dynamic = subprocess.run(["readelf", "-d", str(binary)], capture_output=True, text=True, check=True).stdout
    return [line.split("[")[1].rstrip("]") for line in dynamic.splitlines()
            if "(NEEDED)" in line and any(name in line for name in ("libswift", "libFoundation", "libdispatch"))]


def link_statically():
    """Links the debug build's sclm again with the runtime in, as `make test`'s build step does (a plain
    `swift build` had linked it against the toolchain's shared runtime): the flags come from run-tests.py."""
    spec = importlib.util.spec_from_file_location("run_tests", REPO / "scripts/run-tests.py")
    run_tests = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run_tests)
    subprocess.run(["swift", "build", *run_tests.STATIC_SCLM, *run_tests.SWIFT_FLAGS], cwd=REPO, check=True,
                   capture_output=True)


def version() -> str:
    return subprocess.run([str(REPO / "scripts/deb-version.sh")], capture_output=True, text=True,
                          check=True).stdout.strip()


_BUILT = []  # the suite's modules share one build


def build() -> tuple[pathlib.Path, pathlib.Path, str]:
    """(the package, the lower-version package, the build's output) in .build/debian/packages/."""
    if not _BUILT:
        _BUILT.append(_build())
    return _BUILT[0]


def _build() -> tuple[pathlib.Path, pathlib.Path, str]:
    if not BINARY.exists():
        raise AssertionError(f"{BINARY} is not built")
    if swift_runtime_libraries(BINARY) and "SCLM_BINARY" not in os.environ:
        link_statically()
    dynamic = swift_runtime_libraries(BINARY)
    if dynamic:
        raise AssertionError(f"{BINARY} loads {', '.join(dynamic)}: link it with the Swift runtime in "
                             "(--static-swift-stdlib, as scripts/run-tests.py's build step does)")
    out = WORK / "packages"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    scratch = pathlib.Path(tempfile.mkdtemp(dir=out, prefix="src-"))
    tree = scratch / "sclm"
    for name in SOURCES:
        source, target = REPO / name, tree / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns("sclm", ".debhelper", "files", "*.debhelper", "*.substvars"))
        else:
            shutil.copy2(source, target)
    # A fast compression for the test's packages (a debug-built binary is large); `make deb` keeps dpkg's xz.
    env = {**os.environ, "SCLM_BINARY": str(BINARY), "SCLM_DEB_COMPRESSION": "-Zgzip -z1"}
    result = subprocess.run(["dpkg-buildpackage", "-b", "-us", "-uc", "--no-check-builddeps"], cwd=tree, env=env,
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError(f"dpkg-buildpackage failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    current = version()
    package = out / f"sclm_{current}_amd64.deb"
    shutil.move(scratch / package.name, package)
    older = out / f"sclm_{current}~older_amd64.deb"
    unpacked = scratch / "older"
    subprocess.run(["dpkg-deb", "-R", str(package), str(unpacked)], check=True)
    control = unpacked / "DEBIAN/control"
    control.write_text(control.read_text().replace(f"Version: {current}\n", f"Version: {current}~older\n"))
    subprocess.run(["dpkg-deb", "-Zgzip", "-z1", "--root-owner-group", "-b", str(unpacked), str(older)], check=True,
                   capture_output=True)
    shutil.rmtree(scratch)
    return package, older, result.stdout + result.stderr
