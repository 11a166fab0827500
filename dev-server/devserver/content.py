"""Loads a content folder (`sample-content/` layout) into the catalog.

`clients.json` lists the clients; every sub-folder with a `presentation.json` is a presentation
source: root `*.html` files are its slides (ids presentationId*100 + 1, 2, … in slide order),
`mediafiles/<fileName>` its media files, and the whole folder (minus presentation.json) its package.
"""
import json
import mimetypes
import pathlib

from . import zips
from .blobs import Blob
from .catalog import (CLIENT_DEFAULTS, DEFAULT_CREATED, PRESENTATION_DEFAULTS, Catalog, Client, MediaFile,
                      Package, Presentation, Slide, blob_id_for)
from .packages import FolderSource, stored_blob
from .slides import START_SLIDE, read_links, slide_order

MAX_SLIDES = 99


class ContentError(Exception):
    """The content folder cannot be served; the message names the file and the problem."""


def load_content(folder: pathlib.Path, catalog: Catalog) -> None:
    if not folder.is_dir():
        raise ContentError(f"content folder {folder} does not exist")
    for entry in _read_json(folder / "clients.json", list):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), int) or not entry.get("name"):
            raise ContentError(f"{folder / 'clients.json'}: every client needs an integer id and a name")
        catalog.add_client(Client(entry["id"], entry["name"], _pick(entry, CLIENT_DEFAULTS),
                                  created=entry.get("created", DEFAULT_CREATED),
                                  updated=entry.get("updated", entry.get("created", DEFAULT_CREATED))))
    for source in sorted(path for path in folder.iterdir() if (path / "presentation.json").is_file()):
        try:
            _load_presentation(source, catalog)
        except (ValueError, OSError) as error:
            raise ContentError(f"{source}: {error}") from error


def _load_presentation(folder: pathlib.Path, catalog: Catalog) -> None:
    meta = _read_json(folder / "presentation.json", dict)
    for key in ("id", "clientId", "revision"):
        if not isinstance(meta.get(key), int):
            raise ValueError(f"presentation.json needs an integer {key!r}")
    if not meta.get("name"):
        raise ValueError("presentation.json needs a name")
    pid = meta["id"]
    created = meta.get("created", DEFAULT_CREATED)
    updated = meta.get("updated", created)
    package = Package(meta.get("packageId", pid * 10), meta.get("packageRevision", 1), blob_id_for("package", pid),
                      FolderSource(folder), created, updated)
    media, media_blobs = _media_files(folder, meta, catalog.root, created, updated)
    catalog.add_presentation(
        Presentation(pid, meta["clientId"], meta["name"], meta["revision"], package, _slides(folder, pid, created),
                     media, _pick(meta, PRESENTATION_DEFAULTS), created, updated),
        media_blobs)


def _slides(folder: pathlib.Path, pid: int, created: str) -> list[Slide]:
    pages = {path.name: path.read_bytes() for path in folder.glob("*.html") if path.is_file()}
    if START_SLIDE not in pages:
        raise ValueError(f"no {START_SLIDE} at the root of the presentation")
    links = {name: read_links(html) for name, html in pages.items()}
    for name, link in links.items():
        for target in (link.swipe_next, link.swipe_previous):
            if target and target not in pages:
                raise ValueError(f"{name}: swipe target {target!r} is not a slide of this presentation")
    order = slide_order(links)
    if len(order) > MAX_SLIDES:
        raise ValueError(f"{len(order)} slides; slide ids allow at most {MAX_SLIDES}")
    return [Slide(pid * 100 + index, name, pages[name], links[name].swipe_next, links[name].swipe_previous,
                  links[name].linked, created=created, updated=created)
            for index, name in enumerate(order, start=1)]


def _media_files(folder: pathlib.Path, meta: dict, root: pathlib.Path, created: str,
                 updated: str) -> tuple[list[MediaFile], list[Blob]]:
    records, blobs = [], []
    for entry in meta.get("mediaFiles", []):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), int) or not entry.get("fileName"):
            raise ValueError("every mediaFiles entry needs an integer id and a fileName")
        path = folder / "mediafiles" / entry["fileName"]
        if not path.is_file():
            raise ValueError(f"media file mediafiles/{entry['fileName']} does not exist")
        blob_id = blob_id_for("mediafile", entry["id"])
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        blobs.append(stored_blob(root, blob_id, "mediafiles", mime, path.suffix,
                                 lambda target, source=path: zips.copy_file(source, target)))
        records.append(MediaFile(entry["id"], entry["fileName"], entry.get("title", entry["fileName"]), blob_id,
                                 entry.get("revision", 0), entry.get("isAvailableForSharing", True), created, updated))
    return records, blobs


def _read_json(path: pathlib.Path, kind: type):
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ContentError(f"{path} is missing") from None
    except (OSError, ValueError) as error:
        raise ContentError(f"{path}: {error}") from None
    if not isinstance(value, kind):
        raise ContentError(f"{path}: expected a JSON {kind.__name__}")
    return value


def _pick(source: dict, defaults: dict) -> dict:
    return {key: source.get(key, default) for key, default in defaults.items()}
