"""Blob storage (package zips and media files on disk) and Azure-style signed, expiring `sas` URLs."""
import hashlib
import hmac
import pathlib
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .util import http_date


@dataclass
class Blob:
    """One servable version of a blob. `producer`, when set, writes the file on first use (lazy)."""
    blob_id: str
    kind: str
    path: pathlib.Path
    size: int
    etag: str
    mime: str
    modified: float
    producer: Callable[[pathlib.Path], None] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def open(self):
        """The file opened for reading, produced first if it is lazy and not on disk yet."""
        if self.producer is not None:
            with self._lock:
                if not (self.path.is_file() and self.path.stat().st_size == self.size):
                    self.producer(self.path)
        return open(self.path, "rb")


class SasError(Exception):
    """A refused blob signature: the Azure error detail to report."""


class BlobStore:
    """Current blob per (kind, blob id), plus sas signing. Thread-safe."""

    def __init__(self, root: pathlib.Path, sas_lifetime: float, clock=time.time):
        self.root = root
        self.sas_lifetime = sas_lifetime
        self._clock = clock
        self._key = secrets.token_bytes(32)
        self._blobs: dict[tuple[str, str], Blob] = {}
        self._issued: dict[str, int] = {}
        self._generation = 0
        self._lock = threading.Lock()

    def put(self, blob: Blob) -> None:
        with self._lock:
            self._blobs[(blob.kind, blob.blob_id)] = blob

    def get(self, kind: str, blob_id: str) -> Blob | None:
        with self._lock:
            return self._blobs.get((kind, blob_id))

    def remove(self, kind: str, blob_id: str) -> None:
        with self._lock:
            self._blobs.pop((kind, blob_id), None)

    def sas_url(self, base_url: str, kind: str, blob_id: str) -> str:
        """`<base>/blobs/<kind>/<blobId>?se=<unix expiry>&sig=<hex hmac>`, valid for the sas lifetime."""
        expiry = int(self._clock() + self.sas_lifetime)
        with self._lock:
            generation = self._generation
            signature = self._sign(kind, blob_id, expiry, generation)
            self._issued[signature] = generation
        return f"{base_url}/blobs/{kind}/{blob_id}?se={expiry}&sig={signature}"

    def check(self, kind: str, blob_id: str, expiry: str, signature: str) -> None:
        """Raises SasError unless (se, sig) is a sas this server issued for this blob and it is still valid."""
        if not expiry.isdigit() or not signature:
            raise SasError("Signature not valid: the se and sig query parameters are required")
        with self._lock:
            generation = self._issued.get(signature)
            current = self._generation
        if generation is None or not hmac.compare_digest(signature, self._sign(kind, blob_id, int(expiry), generation)):
            raise SasError("Signature not valid for this resource")
        if generation < current or int(expiry) <= self._clock():
            raise SasError(f"Signed expiry time [{http_date(int(expiry))}] has to be after signed start time "
                           f"[{http_date(self._clock())}]")

    def expire_all(self) -> None:
        """Every sas issued so far becomes expired."""
        with self._lock:
            self._generation += 1

    def _sign(self, kind: str, blob_id: str, expiry: int, generation: int) -> str:
        message = f"{kind}\n{blob_id}\n{expiry}\n{generation}".encode()
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()
