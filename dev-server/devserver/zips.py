"""Package files: deterministic zips of source folders, stored zips of generated data, damage.

Every writer goes to a temporary file beside the target and renames it into place, so a crash or a
concurrent reader never sees half a package. Nothing here holds a whole package in memory.
"""
import hashlib
import os
import pathlib
import shutil
import struct
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterable

FIXED_DATE = (2024, 1, 1, 0, 0, 0)
_DOS_TIME, _DOS_DATE = 0, ((2024 - 1980) << 9) | (1 << 5) | 1
_LOCAL = struct.Struct("<IHHHHHIIIHH")
_CENTRAL = struct.Struct("<IHHHHHHIIIHHHHHII")
_END = struct.Struct("<IHHHHIIH")
_ZIP32_LIMIT = 0xFFFFFFFF
CHUNK = 1 << 20


def atomic_write(target: pathlib.Path, write: Callable[[object], None]) -> None:
    """Calls write(file) on a temporary file beside target, then renames it to target."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w+b") as handle:
            write(handle)
        os.replace(tmp, target)
    except BaseException:
        pathlib.Path(tmp).unlink(missing_ok=True)
        raise


def copy_file(source: pathlib.Path, target: pathlib.Path) -> None:
    """Copies source to target atomically."""
    def write(handle):
        with open(source, "rb") as origin:
            shutil.copyfileobj(origin, handle, CHUNK)
    atomic_write(target, write)


def sha256_file(path: pathlib.Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def source_files(folder: pathlib.Path, exclude: Iterable[str] = ()) -> list[tuple[str, pathlib.Path]]:
    """(archive name, path) of every regular file under folder, sorted; dot-files and `exclude` skipped."""
    skipped = set(exclude)
    found = []
    for path in folder.rglob("*"):
        name = path.relative_to(folder).as_posix()
        if name in skipped or any(part.startswith(".") for part in pathlib.PurePosixPath(name).parts):
            continue
        if path.is_file() and not path.is_symlink():
            found.append((name, path))
    return sorted(found)


def zip_folder(folder: pathlib.Path, target: pathlib.Path, comment: str, exclude: Iterable[str] = ()) -> None:
    """Deterministic deflate zip of folder: sorted entries, fixed timestamps and modes, a comment."""
    def write(handle):
        with zipfile.ZipFile(handle, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.comment = comment.encode("utf-8")
            for name, path in source_files(folder, exclude):
                info = zipfile.ZipInfo(name, FIXED_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.create_system = 3
                info.external_attr = 0o100644 << 16
                with open(path, "rb") as source, archive.open(info, "w") as sink:
                    shutil.copyfileobj(source, sink, CHUNK)
    atomic_write(target, write)


def stored_zip_size(entries: list[tuple[str, int]], comment: str) -> int:
    """Exact byte size of `write_stored_zip` output for (name, size) entries and comment."""
    names = sum(len(name.encode("utf-8")) for name, _ in entries)
    data = sum(size for _, size in entries)
    return data + 2 * names + (_LOCAL.size + _CENTRAL.size) * len(entries) + _END.size + len(comment.encode("utf-8"))


def write_stored_zip(target: pathlib.Path, entries: list[tuple[str, int, Callable[[], Iterable[bytes]]]],
                     comment: str) -> None:
    """A zip of uncompressed entries streamed from chunk generators (name, size, chunks()).

    Local headers are written first and patched with the CRC afterwards, so the output is a plain,
    seekable zip without data descriptors. Limited to 4 GiB (no zip64).
    """
    total = stored_zip_size([(name, size) for name, size, _ in entries], comment)
    if total > _ZIP32_LIMIT or len(entries) > 0xFFFF:
        raise ValueError("stored zips are limited to 4 GiB and 65535 entries")

    def write(handle):
        central = []
        for name, size, chunks in entries:
            encoded = name.encode("utf-8")
            offset = handle.tell()
            handle.write(_local_header(encoded, 0, size))
            crc, written = 0, 0
            for chunk in chunks():
                crc = zlib.crc32(chunk, crc)
                written += len(chunk)
                handle.write(chunk)
            if written != size:
                raise ValueError(f"entry {name} produced {written} bytes, expected {size}")
            end = handle.tell()
            handle.seek(offset)
            handle.write(_local_header(encoded, crc, size))
            handle.seek(end)
            central.append(_CENTRAL.pack(0x02014B50, 0x031E, 20, 0x0800, 0, _DOS_TIME, _DOS_DATE, crc, size, size,
                                         len(encoded), 0, 0, 0, 0, 0o100644 << 16, offset) + encoded)
        start = handle.tell()
        directory = b"".join(central)
        handle.write(directory)
        note = comment.encode("utf-8")
        handle.write(_END.pack(0x06054B50, 0, 0, len(entries), len(entries), len(directory), start, len(note)) + note)
    atomic_write(target, write)


def _local_header(name: bytes, crc: int, size: int) -> bytes:
    return _LOCAL.pack(0x04034B50, 20, 0x0800, 0, _DOS_TIME, _DOS_DATE, crc, size, size, len(name), 0) + name


def copy_with_comment(source: pathlib.Path, target: pathlib.Path, comment: str) -> None:
    """Copies a zip, replacing its archive comment (so the bytes change); a non-zip gets the note appended."""
    note = comment.encode("utf-8")

    def write(handle):
        with open(source, "rb") as origin:
            shutil.copyfileobj(origin, handle, CHUNK)
        end = _find_end_record(handle)
        if end is None:
            handle.write(b"\n" + note)
            return
        handle.seek(end + 20)
        handle.write(struct.pack("<H", len(note)) + note)
        handle.truncate()
    atomic_write(target, write)


def damage(source: pathlib.Path, target: pathlib.Path, mode: str) -> None:
    """Writes a damaged copy: `crc` flips the recorded CRC-32 of the first non-empty entry
    (local header, data descriptor and central directory, so every reader sees a mismatch);
    `truncate` keeps the first half of the bytes (the central directory is lost)."""
    if mode == "truncate":
        keep = os.path.getsize(source) // 2

        def truncate(handle):
            with open(source, "rb") as origin:
                remaining = keep
                while remaining and (block := origin.read(min(CHUNK, remaining))):
                    handle.write(block)
                    remaining -= len(block)
        atomic_write(target, truncate)
        return
    if mode != "crc":
        raise ValueError("mode must be crc or truncate")
    with zipfile.ZipFile(source) as archive:
        victims = [info for info in archive.infolist() if info.file_size > 0 and not info.is_dir()]
        if not victims:
            raise ValueError("the package has no non-empty entry whose CRC could be damaged")
        victim, directory_start = victims[0], archive.start_dir

    def flip(handle):
        with open(source, "rb") as origin:
            shutil.copyfileobj(origin, handle, CHUNK)
        for position in _crc_positions(handle, victim, directory_start):
            handle.seek(position)
            (crc,) = struct.unpack("<I", handle.read(4))
            handle.seek(position)
            handle.write(struct.pack("<I", crc ^ 0xFFFFFFFF))
    atomic_write(target, flip)


def _crc_positions(handle, victim: zipfile.ZipInfo, directory_start: int) -> list[int]:
    offset = victim.header_offset
    handle.seek(offset)
    local = handle.read(30)
    name_length, extra_length = struct.unpack("<HH", local[26:30])
    positions = [offset + 14]
    if victim.flag_bits & 0x08:
        descriptor = offset + 30 + name_length + extra_length + victim.compress_size
        handle.seek(descriptor)
        positions.append(descriptor + 4 if handle.read(4) == b"PK\x07\x08" else descriptor)
    position = directory_start
    while True:
        handle.seek(position)
        header = handle.read(46)
        if len(header) < 46 or header[:4] != b"PK\x01\x02":
            break
        sizes = struct.unpack("<HHH", header[28:34])
        if handle.read(sizes[0]).decode("utf-8", "replace") == victim.orig_filename:
            positions.append(position + 16)
            break
        position += 46 + sum(sizes)
    return positions


def _find_end_record(handle) -> int | None:
    """Offset of the end-of-central-directory record, or None."""
    size = handle.seek(0, os.SEEK_END)
    window = min(size, 0xFFFF + 22)
    handle.seek(size - window)
    tail = handle.read(window)
    index = tail.rfind(b"PK\x05\x06")
    return None if index < 0 else size - window + index
