"""Small helpers shared by the dev-server modules: wire dates, base64url, Basic auth, JSON bytes, sizes."""
import base64
import datetime
import json
import re
from dataclasses import dataclass, field

_SIZE = re.compile(r"^\s*(\d+)\s*([kmgt]?)(i?b?)\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def wire_date(epoch: float) -> str:
    """StoryCLM date: `yyyy-MM-ddTHH:mm:ss.fff`, UTC, no zone suffix."""
    moment = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}"


def http_date(epoch: float) -> str:
    """RFC 7231 date for Last-Modified and error bodies."""
    moment = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc)
    return moment.strftime("%a, %d %b %Y %H:%M:%S GMT")


def parse_iso8601(text: str) -> float:
    """Epoch seconds of an ISO-8601 date-time; a missing zone means UTC. Raises ValueError."""
    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    match = re.match(r"^(.*T\d{2}:\d{2}:\d{2})\.(\d+)(.*)$", value)
    if match:  # fromisoformat takes at most 6 fraction digits (.NET sends 7)
        value = f"{match.group(1)}.{match.group(2)[:6].ljust(6, '0')}{match.group(3)}"
    moment = datetime.datetime.fromisoformat(value)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.timestamp()


@dataclass
class Answer:
    """A JSON answer of a service to the HTTP handler: status, body, extra headers."""
    status: int
    body: dict
    headers: dict = field(default_factory=dict)


def basic_credentials(authorization: str | None) -> str | None:
    """The decoded `user:password` of an `Authorization: Basic …` header; `None` for another scheme or none.

    Raises ValueError when the header says Basic but is not base64 of UTF-8 text.
    """
    if not authorization or authorization[:6].lower() != "basic ":
        return None
    try:
        return base64.b64decode(authorization[6:].strip(), validate=True).decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError("Basic credentials are not UTF-8") from error


def b64url(data: bytes) -> str:
    """base64url without padding (JWT segments)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def json_bytes(value) -> bytes:
    """Compact UTF-8 JSON."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def parse_size(text: str) -> int:
    """Bytes from `123`, `64M`, `64MiB`, `1G`, `1GB` (binary multiples). Raises ValueError."""
    match = _SIZE.match(str(text))
    if not match:
        raise ValueError(f"not a size: {text!r} (use bytes or a K/M/G suffix, e.g. 64M)")
    return int(match.group(1)) * _UNITS[match.group(2).lower()]
