"""Fault switches: each applies to the next `count` requests whose path starts with `path`."""
import threading
from dataclasses import dataclass, field

KINDS = ("fail", "drop", "stall", "tokensInsteadOfContent", "pad")
UNLIMITED = -1


@dataclass
class Fault:
    kind: str
    count: int = 1  # UNLIMITED (-1) = until reset
    path: str | None = None
    status: int = 503
    retry_after: float | None = None
    after_bytes: int | None = None
    seconds: float = 0.0
    extra_bytes: int = 0  # pad: bytes sent after a blob's body, without Content-Length

    def matches(self, path: str, has_body: bool = True) -> bool:
        """Whether the fault applies to a request for `path`; one that acts after body bytes (`afterBytes`, `pad`)
        never applies to a request answered without a body (HEAD), so a probe does not use it up."""
        acts_on_body = self.after_bytes is not None or self.kind == "pad"
        return self.count != 0 and (self.path is None or path.startswith(self.path)) and (has_body or not acts_on_body)


@dataclass
class RequestFaults:
    """The faults one request drew (at most one of each kind)."""
    faults: dict[str, Fault] = field(default_factory=dict)

    def get(self, kind: str) -> Fault | None:
        return self.faults.get(kind)


class FaultBook:
    """Pending faults in the order they were added. Thread-safe."""

    def __init__(self):
        self._faults: list[Fault] = []
        self._lock = threading.Lock()

    def add(self, fault: Fault) -> None:
        if fault.kind not in KINDS:
            raise ValueError(f"unknown fault {fault.kind!r}")
        if fault.count == 0 or fault.count < UNLIMITED:
            raise ValueError("count must be a positive number of requests, or -1 for every request until reset")
        with self._lock:
            self._faults.append(fault)

    def draw(self, path: str, has_body: bool = True) -> RequestFaults:
        """Consumes the first matching pending fault of each kind for a request to `path` (`has_body`: see
        ``Fault.matches``)."""
        drawn = RequestFaults()
        with self._lock:
            for fault in self._faults:
                if fault.kind not in drawn.faults and fault.matches(path, has_body):
                    drawn.faults[fault.kind] = fault
                    if fault.count > 0:
                        fault.count -= 1
            self._faults = [fault for fault in self._faults if fault.count != 0]
        return drawn

    def clear(self) -> None:
        with self._lock:
            self._faults.clear()

    def pending(self) -> list[dict]:
        with self._lock:
            return [{"kind": f.kind, "count": f.count, "path": f.path} for f in self._faults]
