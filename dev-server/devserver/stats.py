"""Request and blob byte counters for `GET /_control/stats`."""
import threading
from collections import Counter


class Stats:
    """Thread-safe counters: requests by `METHOD path` key, responses by status, blob bytes sent,
    session cookies issued and presented back."""

    def __init__(self):
        self._lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        with self._lock:
            self._requests: Counter[str] = Counter()
            self._statuses: Counter[str] = Counter()
            self._blob_bytes: Counter[str] = Counter()
            self._cookies: Counter[str] = Counter()

    def request(self, key: str) -> None:
        with self._lock:
            self._requests[key] += 1

    def status(self, status: int) -> None:
        with self._lock:
            self._statuses[str(status)] += 1

    def cookie_issued(self) -> None:
        with self._lock:
            self._cookies["issued"] += 1

    def cookie_presented(self, known: bool) -> None:
        """A request carried the session cookie (known = one this server issued)."""
        with self._lock:
            self._cookies["presented" if known else "unknown"] += 1

    def blob_bytes(self, blob_id: str, count: int) -> None:
        with self._lock:
            self._blob_bytes[blob_id] += count

    def snapshot(self) -> dict:
        with self._lock:
            return {"requests": dict(self._requests), "statuses": dict(self._statuses),
                    "blobBytes": dict(self._blob_bytes), "totalBlobBytes": sum(self._blob_bytes.values()),
                    "sessionCookies": {"issued": 0, "presented": 0, "unknown": 0, **self._cookies}}
