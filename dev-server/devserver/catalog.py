"""The content model (clients, presentations, slides, media files, packages), its StoryCLM JSON
shapes (the StoryCLM content API) and the mutations the control endpoint drives."""
import base64
import hashlib
import pathlib
import threading
import time
from dataclasses import dataclass, field

from . import zips
from .auth import DEMO_SUB
from .blobs import Blob, BlobStore
from .packages import FileSource, stored_blob
from .util import wire_date

DEFAULT_CREATED = "2024-01-15T09:30:00.000"


def blob_id_for(kind: str, record_id: int) -> str:
    """A stable, hex blob name per package or media file (like Azure blob names)."""
    return hashlib.sha256(f"sclm-dev {kind} {record_id}".encode()).hexdigest()[:32]


@dataclass
class Slide:
    id: int
    name: str
    html: bytes
    swipe_next: str
    swipe_previous: str
    linked: str
    revision: int = 0
    created: str = DEFAULT_CREATED
    updated: str = DEFAULT_CREATED

    def to_json(self) -> dict:
        return {"id": self.id, "revision": self.revision, "name": self.name,
                "pageSource": base64.b64encode(self.html).decode("ascii"), "linkedSlides": self.linked,
                "swipeNext": self.swipe_next, "swipePrevious": self.swipe_previous,
                "created": self.created, "updated": self.updated}


@dataclass
class MediaFile:
    id: int
    file_name: str
    title: str
    blob_id: str
    revision: int = 0
    sharing: bool = True
    created: str = DEFAULT_CREATED
    updated: str = DEFAULT_CREATED


@dataclass
class Package:
    id: int
    revision: int
    blob_id: str
    source: object  # FolderSource | FileSource | SyntheticSource
    created: str = DEFAULT_CREATED
    updated: str = DEFAULT_CREATED


@dataclass
class Presentation:
    id: int
    client_id: int
    name: str
    revision: int
    package: Package
    slides: list[Slide]
    media: list[MediaFile]
    fields: dict = field(default_factory=dict)  # the remaining wire fields (order, skip, needConfirmation, …)
    created: str = DEFAULT_CREATED
    updated: str = DEFAULT_CREATED


@dataclass
class Client:
    id: int
    name: str
    fields: dict = field(default_factory=dict)
    presentation_ids: list[int] = field(default_factory=list)
    created: str = DEFAULT_CREATED
    updated: str = DEFAULT_CREATED


PRESENTATION_DEFAULTS = {
    "shortDescription": None, "longDescription": None, "thumbImgId": "", "imgId": "", "order": 0,
    "debugModeEnabled": False, "skip": False, "mapEnabled": True, "mapType": 0, "needConfirmation": False,
    "previewMode": 0, "map": None, "visibility": True,
}
CLIENT_DEFAULTS = {
    "lockoutEnabled": False, "shortDescription": None, "longDescription": None, "thumbImgId": "", "imgId": "",
    "url": None, "email": None, "deviceLogTable": None, "baseStatisticsTable": None, "geolocationTable": None,
}


class NotFound(LookupError):
    """An unknown or deleted id."""


class Catalog:
    """All content, thread-safe. `root` is the blob dir; blobs are registered in `blobs`."""

    def __init__(self, root: pathlib.Path, blobs: BlobStore, clock=time.time):
        self.root = root
        self.blobs = blobs
        self._clock = clock
        self._clients: dict[int, Client] = {}
        self._presentations: dict[int, Presentation] = {}
        self._slides: dict[int, tuple[int, Slide]] = {}
        self._media: dict[int, tuple[int, MediaFile]] = {}
        self._lock = threading.RLock()

    # Building

    def add_client(self, client: Client) -> None:
        with self._lock:
            if client.id in self._clients:
                raise ValueError(f"client id {client.id} is used twice")
            self._clients[client.id] = client

    def add_presentation(self, presentation: Presentation, media_blobs: list[Blob]) -> None:
        """Registers a presentation with its package (materialized now or lazily) and media blobs."""
        with self._lock:
            if presentation.id in self._presentations:
                raise ValueError(f"presentation id {presentation.id} is used twice")
            client = self._clients.get(presentation.client_id)
            if client is None:
                raise ValueError(f"presentation {presentation.id} names client {presentation.client_id}, "
                                 "which is not in clients.json")
            for slide in presentation.slides:
                if slide.id in self._slides:
                    raise ValueError(f"slide id {slide.id} is used twice")
                self._slides[slide.id] = (presentation.id, slide)
            for media in presentation.media:
                if media.id in self._media:
                    raise ValueError(f"media file id {media.id} is used twice")
                self._media[media.id] = (presentation.id, media)
            for blob in media_blobs:
                self.blobs.put(blob)
            self._presentations[presentation.id] = presentation
            client.presentation_ids.append(presentation.id)
            self._publish_package(presentation)

    def counts(self) -> tuple[int, int]:
        with self._lock:
            return len(self._clients), len(self._presentations)

    # Wire shapes

    def clients_json(self) -> list[dict]:
        with self._lock:
            return [self._client_json(client) for client in self._clients.values()]

    def client_json(self, client_id: int) -> dict:
        with self._lock:
            client = self._clients.get(client_id)
            if client is None:
                raise NotFound(f"client {client_id}")
            return self._client_json(client)

    def presentation_json(self, presentation_id: int) -> dict:
        with self._lock:
            p = self._presentation(presentation_id)
            package_blob = self._package_blob(p)
            media = [{"fileSize": self._media_blob(m).size, "id": m.id, "revision": m.revision} for m in p.media]
            return {"id": p.id, "name": p.name, **p.fields, "revision": p.revision, "created": p.created,
                    "updated": p.updated, "clientId": p.client_id,
                    "sourcesFolder": {"id": p.package.id, "blobId": p.package.blob_id, "fileSize": package_blob.size,
                                      "mimeType": package_blob.mime, "revision": p.package.revision,
                                      "created": p.package.created, "updated": p.package.updated},
                    "mediaFiles": media, "slides": [{"id": s.id, "revision": s.revision} for s in p.slides],
                    "presentations": [], "users": [{"revision": p.revision, "id": DEMO_SUB, "role": 0}]}

    def slide_json(self, slide_id: int) -> dict:
        with self._lock:
            owner, slide = self._slides.get(slide_id, (None, None))
            if slide is None or owner not in self._presentations:
                raise NotFound(f"slide {slide_id}")
            return slide.to_json()

    def media_json(self, media_id: int, base_url: str) -> dict:
        with self._lock:
            owner, media = self._media.get(media_id, (None, None))
            if media is None or owner not in self._presentations:
                raise NotFound(f"media file {media_id}")
            blob = self._media_blob(media)
            return {"id": media.id, "revision": media.revision, "fileName": media.file_name, "title": media.title,
                    "blobId": media.blob_id, "fileSize": blob.size, "mimeType": blob.mime,
                    "created": media.created, "updated": media.updated,
                    "sas": self.blobs.sas_url(base_url, "mediafiles", media.blob_id),
                    "isAvailableForSharing": media.sharing}

    def package_json(self, presentation_id: int, base_url: str) -> dict:
        with self._lock:
            p = self._presentation(presentation_id)
            blob = self._package_blob(p)
            return {"id": p.package.id, "revision": p.package.revision,
                    "sas": self.blobs.sas_url(base_url, "packages", p.package.blob_id),
                    "blobId": p.package.blob_id, "fileSize": blob.size, "mimeType": blob.mime,
                    "created": p.package.created, "updated": p.package.updated}

    # Mutations (control actions)

    def bump_revision(self, presentation_id: int) -> int:
        """Revision +1 of the presentation and its package; the package is rebuilt from its source."""
        with self._lock:
            p = self._presentation(presentation_id)
            self._advance(p)
            self._publish_package(p)
            return p.revision

    def delete(self, presentation_id: int) -> None:
        """The presentation is no longer listed or served; its slides, media and blobs go with it."""
        with self._lock:
            p = self._presentation(presentation_id)
            del self._presentations[p.id]
            self._clients[p.client_id].presentation_ids.remove(p.id)
            self.blobs.remove("packages", p.package.blob_id)
            for media in p.media:
                self.blobs.remove("mediafiles", media.blob_id)

    def set_package(self, presentation_id: int, path: pathlib.Path) -> int:
        """Serves a copy of this zip as the package from now on (revision +1)."""
        with self._lock:
            p = self._presentation(presentation_id)
            p.package.source = FileSource(self.root, path, p.package.blob_id)
            return self.bump_revision(presentation_id)

    def corrupt_package(self, presentation_id: int, mode: str) -> int:
        """Serves a damaged copy of the current package (`crc` or `truncate`), revision +1.
        The next bumpRevision rebuilds a clean package from the source."""
        if mode not in ("crc", "truncate"):
            raise ValueError("mode must be crc or truncate")
        with self._lock:
            p = self._presentation(presentation_id)
            current = self._package_blob(p)
            current.open().close()  # a lazy synthetic package is generated first
            damaged = stored_blob(self.root, current.blob_id, "packages", current.mime, ".zip",
                                  lambda path: zips.damage(current.path, path, mode), self._clock())
            self._advance(p)
            self.blobs.put(damaged)
            return p.revision

    # Internals (callers hold the lock)

    def _presentation(self, presentation_id: int) -> Presentation:
        p = self._presentations.get(presentation_id)
        if p is None:
            raise NotFound(f"presentation {presentation_id}")
        return p

    def _advance(self, p: Presentation) -> None:
        now = wire_date(self._clock())
        p.revision += 1
        p.package.revision += 1
        p.updated = p.package.updated = now

    def _publish_package(self, p: Presentation) -> None:
        blob = p.package.source.materialize(self.root, p.package.blob_id, p.id, p.package.revision)
        self.blobs.put(blob)

    def _package_blob(self, p: Presentation) -> Blob:
        return self.blobs.get("packages", p.package.blob_id)

    def _media_blob(self, media: MediaFile) -> Blob:
        return self.blobs.get("mediafiles", media.blob_id)

    def _client_json(self, client: Client) -> dict:
        stubs = []
        for presentation_id in client.presentation_ids:
            p = self._presentations[presentation_id]
            stubs.append({"id": p.id, "revision": p.revision, "debug": p.fields["debugModeEnabled"],
                          "skip": p.fields["skip"], "lockout": False})
        return {"id": client.id, "name": client.name, **client.fields, "created": client.created,
                "updated": client.updated, "presentations": stubs,
                "users": [{"id": DEMO_SUB, "role": 0, "revision": 0}], "groups": [], "tables": []}
