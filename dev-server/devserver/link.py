"""How the blob host answers ranges, and the field link it sits behind: a byte-rate limit shared by every
blob response (all clients are 127.0.0.1, so the server plays one client's link)."""
import threading
import time

RANGE_MODES = ("honour", "ignore", "shift")


class BlobLink:
    """`ranges`: "honour" (Azure: one `bytes=A-B` or `bytes=A-` range; suffix and multi-range forms are
    refused with 416 InvalidRange), "ignore" (every range answered 200 with the whole blob, as a server
    without range support), "shift" (a closed range is answered 206 with the bytes one position later: a
    server or cache that sends other bytes than asked). `bytes_per_second` 0 means no limit."""

    def __init__(self, clock=time.monotonic, sleep=time.sleep):
        self._clock, self._sleep = clock, sleep
        self._lock = threading.Lock()
        self.ranges = "honour"
        self.bytes_per_second = 0
        self._next_free = 0.0

    def configure(self, ranges: str | None = None, bytes_per_second: int | None = None) -> None:
        with self._lock:
            if ranges is not None:
                if ranges not in RANGE_MODES:
                    raise ValueError(f"mode must be one of {', '.join(RANGE_MODES)}")
                self.ranges = ranges
            if bytes_per_second is not None:
                self.bytes_per_second = bytes_per_second
                self._next_free = 0.0

    def pace(self, count: int) -> None:
        """Waits until `count` more bytes fit the rate limit (no wait without one)."""
        with self._lock:
            rate = self.bytes_per_second
            if rate <= 0:
                return
            now = self._clock()
            start = max(now, self._next_free)
            self._next_free = start + count / rate
        if start > now:
            self._sleep(start - now)

    @property
    def chunk(self) -> int:
        """The most bytes to send between two waits: about 1/50 s of the link, at least 16 KiB."""
        rate = self.bytes_per_second
        return max(16 << 10, rate // 50) if rate > 0 else 0
