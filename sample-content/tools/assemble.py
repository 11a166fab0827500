#!/usr/bin/env python3
"""Assembles sample-content/ into complete decks: the one step between the deck sources and everything
that serves, validates or renders them (the dev-server, `make demo`, the Swift, JS and dev-server tests).

A deck folder (one with a presentation.json) holds only what is its own. A file several decks use has
one source, and a deck names the shared files it takes in its presentation.json:

    "shared": ["js/storyclm.js", "js/deck.js"]

    js/storyclm.js  <-  bridge-js/storyclm.js           the content library, also shipped on its own
    PATH            <-  sample-content/shared/PATH      e.g. js/deck.js, the decks' behaviour

The output (default .build/sample-content/) is a content folder in the dev-server's layout: clients.json
and one folder per deck holding its own files and its shared ones, so every package is self-contained.
A deck file at a shared path, an unknown shared name or a shared file with two sources is an error.

Idempotent and fast: a file is copied only when its source changed (size or modification time), files no
source gives any more are removed, and concurrent runs (parallel tests each starting a dev-server) take
turns on the output's `.assembled` file, which also marks the folder as this tool's to rewrite. Prints
the output folder. Python 3 standard library only.

    python3 sample-content/tools/assemble.py [--out DIR]        (or: make samples)
"""
import argparse
import fcntl
import json
import os
import pathlib
import shutil
import sys
from dataclasses import dataclass

SOURCE = pathlib.Path(__file__).resolve().parent.parent
REPOSITORY = SOURCE.parent
LIBRARY = REPOSITORY / "bridge-js" / "storyclm.js"
OUT = REPOSITORY / ".build" / "sample-content"
MARKER = ".assembled"
LIBRARY_PATH = "js/storyclm.js"


class AssemblyError(Exception):
    """The sources cannot be assembled; the message names the file and what to change."""


@dataclass(frozen=True)
class Assembly:
    path: pathlib.Path
    copied: list[str]  # output paths written by this run, relative to `path`
    removed: list[str]  # output paths no source gives any more


def assemble(source: pathlib.Path = SOURCE, library: pathlib.Path = LIBRARY, out: pathlib.Path = OUT) -> Assembly:
    """Brings `out` up to date with `source` (deck folders, clients.json, shared/) and `library`."""
    wanted = planned_files(source, library)
    out.mkdir(parents=True, exist_ok=True)
    marker = out / MARKER
    if not marker.exists() and any(out.iterdir()):
        raise AssemblyError(f"{out} is not empty and was not made by {pathlib.Path(__file__).name}: "
                            "choose an empty or new folder")
    with open(marker, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        copied = [path for path, origin in wanted.items() if _copy_if_changed(origin, out / path)]
        removed = _remove_others(out, set(wanted))
    return Assembly(out, copied, removed)


def planned_files(source: pathlib.Path, library: pathlib.Path) -> dict[str, pathlib.Path]:
    """Every output file (a path relative to the output folder) with the one source it comes from."""
    shared = _shared_sources(source, library)
    files = {"clients.json": source / "clients.json"}
    if not files["clients.json"].is_file():
        raise AssemblyError(f"{files['clients.json']} is missing")
    for deck in sorted(path.parent for path in source.glob("*/presentation.json")):
        own = {path.relative_to(deck).as_posix(): path for path in _files(deck)}
        for name in _shared_names(deck, shared):
            if name in own:
                raise AssemblyError(f"{deck.name}/{name} is a shared file (from {_shown(shared[name], source)}): "
                                    "delete the deck's copy, one source per file")
            own[name] = shared[name]
        files.update({f"{deck.name}/{path}": origin for path, origin in own.items()})
    return files


def _shared_sources(source: pathlib.Path, library: pathlib.Path) -> dict[str, pathlib.Path]:
    shared = {path.relative_to(source / "shared").as_posix(): path for path in _files(source / "shared")}
    if LIBRARY_PATH in shared:
        raise AssemblyError(f"{shared[LIBRARY_PATH]}: {LIBRARY_PATH} comes from {library}, delete this copy")
    if not library.is_file():
        raise AssemblyError(f"{library} is missing")
    shared[LIBRARY_PATH] = library
    return shared


def _shared_names(deck: pathlib.Path, shared: dict[str, pathlib.Path]) -> list[str]:
    try:
        names = json.loads((deck / "presentation.json").read_text(encoding="utf-8")).get("shared", [])
    except (OSError, ValueError, AttributeError) as error:
        raise AssemblyError(f"{deck / 'presentation.json'}: {error}") from None
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise AssemblyError(f"{deck / 'presentation.json'}: \"shared\" must be a list of paths")
    for name in names:
        if name not in shared:
            raise AssemblyError(f"{deck / 'presentation.json'}: no shared file {name!r} "
                                f"(shared files: {', '.join(sorted(shared))})")
    return names


def _files(folder: pathlib.Path) -> list[pathlib.Path]:
    """The regular files under `folder`, without dot-files (which no package carries)."""
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.rglob("*")
                  if path.is_file() and not any(part.startswith(".") for part in path.relative_to(folder).parts))


def _copy_if_changed(origin: pathlib.Path, target: pathlib.Path) -> bool:
    """Copies `origin` (with its modification time) unless `target` already has its size and time."""
    source = origin.stat()
    try:
        present = target.stat()
        if present.st_size == source.st_size and present.st_mtime_ns == source.st_mtime_ns:
            return False
    except FileNotFoundError:
        pass
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    shutil.copy2(origin, partial)
    os.replace(partial, target)  # readers see the old file or the new one, never half of it
    return True


def _remove_others(out: pathlib.Path, keep: set[str]) -> list[str]:
    removed = []
    for folder, directories, files in os.walk(out, topdown=False):
        for name in files:
            relative = pathlib.Path(folder, name).relative_to(out).as_posix()
            if relative != MARKER and relative not in keep:
                os.unlink(os.path.join(folder, name))
                removed.append(relative)
        for name in directories:
            path = os.path.join(folder, name)
            if not os.listdir(path):
                os.rmdir(path)
    return sorted(removed)


def _shown(path: pathlib.Path, source: pathlib.Path) -> str:
    return str(path.relative_to(source.parent)) if path.is_relative_to(source.parent) else str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Assembles sample-content/ into complete, self-contained decks.")
    parser.add_argument("--out", type=pathlib.Path, default=OUT, help=f"output folder (default {OUT})")
    arguments = parser.parse_args(argv)
    try:
        assembly = assemble(out=arguments.out.resolve())
    except (AssemblyError, OSError) as error:
        print(f"assemble.py: error: {error}", file=sys.stderr)
        return 1
    print(assembly.path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
