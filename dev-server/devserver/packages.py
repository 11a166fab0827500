"""Where a presentation's package bytes come from, and how one revision of them becomes a blob.

A source folder is zipped (deflate, deterministic), a zip handed over by `setPackage` is copied,
synthetic packages are generated lazily on first download. The zip comment carries the revision,
so every revision has different bytes and therefore a different ETag.
"""
import hashlib
import os
import pathlib
import random
import secrets
import threading
import time
from collections.abc import Callable

from . import zips
from .blobs import Blob

PACKAGE_MIME = "application/zip"


def package_comment(presentation_id: int, revision: int) -> str:
    return f"sclm dev-server package presentation={presentation_id} revision={revision}"


def stored_blob(root: pathlib.Path, blob_id: str, kind: str, mime: str, suffix: str,
                write: Callable[[pathlib.Path], None], modified: float | None = None) -> Blob:
    """Writes a blob file with write(path), names it by its SHA-256 and returns the Blob (ETag = hash)."""
    folder = root / kind
    folder.mkdir(parents=True, exist_ok=True)
    building = folder / f".{blob_id}-{secrets.token_hex(6)}.building"
    try:
        write(building)
        digest = zips.sha256_file(building)
        final = folder / f"{blob_id}-{digest[:16]}{suffix}"
        os.replace(building, final)
    finally:
        building.unlink(missing_ok=True)
    return Blob(blob_id, kind, final, final.stat().st_size, f'"{digest[:32]}"', mime,
                modified if modified is not None else time.time())


class FolderSource:
    """A presentation source folder; `presentation.json` and dot-files stay out of the zip."""

    def __init__(self, folder: pathlib.Path):
        self.folder = folder

    def materialize(self, root: pathlib.Path, blob_id: str, presentation_id: int, revision: int) -> Blob:
        comment = package_comment(presentation_id, revision)
        return stored_blob(root, blob_id, "packages", PACKAGE_MIME, ".zip",
                           lambda path: zips.zip_folder(self.folder, path, comment, exclude=["presentation.json"]))


class FileSource:
    """A zip given by `setPackage`, copied once so later edits of the original do not matter."""

    def __init__(self, root: pathlib.Path, original: pathlib.Path, blob_id: str):
        if not original.is_file():
            raise ValueError(f"{original} is not a readable file")
        copy = stored_blob(root, blob_id, "uploads", PACKAGE_MIME, ".zip",
                           lambda path: zips.copy_file(original, path))
        self.path = copy.path

    def materialize(self, root: pathlib.Path, blob_id: str, presentation_id: int, revision: int) -> Blob:
        comment = package_comment(presentation_id, revision)
        return stored_blob(root, blob_id, "packages", PACKAGE_MIME, ".zip",
                           lambda path: zips.copy_with_comment(self.path, path, comment))


class SyntheticSource:
    """A generated package of an exact size: K small HTML slides plus up to 8 incompressible payload files.

    Nothing is written until the blob is first downloaded; the file is then cached in the blob dir
    (named by its parameters, so a persistent `--blob-dir` reuses it across runs).
    """

    GENERATOR = "synthetic-v1"

    def __init__(self, presentation_id: int, size: int, slides: list[tuple[str, bytes]]):
        self.presentation_id = presentation_id
        self.size = size
        self.slides = slides
        payload_files = max(1, min(8, size // (1 << 20)))
        self.payload_names = [f"assets/payload-{index:02d}.bin" for index in range(1, payload_files + 1)]

    def layout(self, revision: int) -> list[tuple[str, int]]:
        """(name, size) of every entry so that the zip is exactly `size` bytes. Raises ValueError."""
        comment = package_comment(self.presentation_id, revision)
        fixed = [(name, len(html)) for name, html in self.slides]
        overhead = zips.stored_zip_size(fixed + [(name, 0) for name in self.payload_names], comment)
        payload = self.size - overhead
        if payload < 0:
            raise ValueError(f"a synthetic package with {len(self.slides)} slides needs at least {overhead} bytes")
        count = len(self.payload_names)
        sizes = [payload // count] * (count - 1) + [payload - payload // count * (count - 1)]
        return fixed + list(zip(self.payload_names, sizes))

    def materialize(self, root: pathlib.Path, blob_id: str, presentation_id: int, revision: int) -> Blob:
        layout = self.layout(revision)
        comment = package_comment(presentation_id, revision)
        identity = f"{self.GENERATOR}:{presentation_id}:{revision}:{self.size}:{layout}"
        digest = hashlib.sha256(identity.encode()).hexdigest()
        html = dict(self.slides)

        def chunks_for(name: str, size: int, index: int):
            if name in html:
                return lambda: [html[name]]
            return lambda: _pseudo_random_chunks(f"{presentation_id}:{revision}:{index}", size)

        entries = [(name, size, chunks_for(name, size, index)) for index, (name, size) in enumerate(layout)]
        path = root / "packages" / f"{blob_id}-{digest[:16]}.zip"
        return Blob(blob_id, "packages", path, self.size, f'"{digest[:32]}"', PACKAGE_MIME, time.time(),
                    producer=lambda target: zips.write_stored_zip(target, entries, comment))


_POOL_SIZE = 16 << 20
_pool: bytes | None = None
_pool_lock = threading.Lock()


def _pseudo_random_chunks(seed: str, size: int):
    """Deterministic, incompressible bytes: 1 MiB windows of a fixed 16 MiB random pool at seeded offsets
    (far beyond deflate's 32 KiB window, so packages keep their size when compressed)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = random.Random(0x5C1D).randbytes(_POOL_SIZE)
        pool = memoryview(_pool)
    generator = random.Random(seed)
    remaining = size
    while remaining > 0:
        length = min(zips.CHUNK, remaining)
        offset = generator.randrange(_POOL_SIZE - length + 1)
        yield pool[offset:offset + length]
        remaining -= length
