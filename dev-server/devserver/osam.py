"""OSAM backend (docs/osam.md): `GET /api/version/{package}/{PLATFORM}/{versionCode}` and
`GET /api/rating/{package}/{PLATFORM}` answered from editable JSON.

The JSON file (`--osam FILE`, re-read whenever it changes) is a list of entries, or an object
`{"basicAuth": "user:pass", "apps": [entries]}`; an entry is
`{"package", "platform", "version": {…}|null, "rating": {…}|null, "basicAuth"?: "user:pass"|null, "raw"?: bool}`.
The `osam` control action changes entries on top of the file. Answers are `{"data": …}` (with
`serverDate` filled in with the server clock when the record has none) unless `raw` is true, in
which case the object is served as it is (e.g. the ALVersionControl shape `{message, status, url}`).
"""
import json
import pathlib
import threading
import time
from .util import Answer, basic_credentials

FIELDS = ("version", "rating", "basicAuth", "raw")


class OsamStore:
    """Entries keyed by (package, PLATFORM). Thread-safe."""

    def __init__(self, file: pathlib.Path | None = None, clock=time.time):
        self._file = file
        self._clock = clock
        self._lock = threading.Lock()
        self._file_entries: dict[tuple[str, str], dict] = {}
        self._file_error: str | None = None
        self._file_stamp = None
        self._overrides: dict[tuple[str, str], dict] = {}
        if file is not None:
            self._reload()
            if self._file_error:
                raise ValueError(self._file_error)

    def configure(self, package: str, platform: str, changes: dict) -> None:
        """Sets fields of one entry (`version`, `rating`, `basicAuth`, `raw`); null clears a field."""
        if not package or not platform:
            raise ValueError("osam needs package and platform")
        unknown = set(changes) - set(FIELDS)
        if unknown:
            raise ValueError(f"unknown osam fields: {', '.join(sorted(unknown))}")
        entry = _checked_entry({"package": package, "platform": platform, **changes})
        with self._lock:
            self._overrides.setdefault((package, platform.upper()), {}).update(
                {key: entry.get(key) for key in changes})

    def version(self, package: str, platform: str, version_code: str, authorization: str | None) -> Answer:
        if not version_code.lstrip("-").isdigit():
            return Answer(400, {"error": f"versionCode {version_code!r} is not an integer"})
        return self._answer("version", package, platform, authorization)

    def rating(self, package: str, platform: str, authorization: str | None) -> Answer:
        return self._answer("rating", package, platform, authorization)

    def _answer(self, kind: str, package: str, platform: str, authorization: str | None) -> Answer:
        with self._lock:
            self._reload()
            if self._file_error:
                return Answer(500, {"error": self._file_error})
            key = (package, platform.upper())
            entry = {**self._file_entries.get(key, {}), **self._overrides.get(key, {})}
        credentials = entry.get("basicAuth")
        if credentials and not _basic_matches(authorization, credentials):
            return Answer(401, {"error": "Basic authentication required"},
                              {"WWW-Authenticate": 'Basic realm="OSAM"'})
        record = entry.get(kind)
        if record is None:
            return Answer(404, {"error": f"no {kind} record for {package} on {platform.upper()}"})
        if entry.get("raw"):
            return Answer(200, record)
        if kind == "version" and "serverDate" not in record:
            record = {**record, "serverDate": int(self._clock() * 1000)}
        return Answer(200, {"data": record})

    def _reload(self) -> None:
        """Re-reads the file when its size or mtime changed (callers hold the lock)."""
        if self._file is None:
            return
        try:
            stat = self._file.stat()
            stamp = (stat.st_mtime_ns, stat.st_size)
            if stamp == self._file_stamp:
                return
            self._file_stamp = stamp
            self._file_entries = _parse_file(json.loads(self._file.read_text(encoding="utf-8")))
            self._file_error = None
        except (OSError, ValueError) as error:
            self._file_error = f"OSAM file {self._file} is not usable: {error}"


def _parse_file(document) -> dict[tuple[str, str], dict]:
    default_auth = None
    if isinstance(document, dict):
        default_auth = document.get("basicAuth")
        document = document.get("apps")
    if not isinstance(document, list):
        raise ValueError('expected a list of entries or {"apps": [...]}')
    entries = {}
    for raw_entry in document:
        entry = _checked_entry(raw_entry)
        entry.setdefault("basicAuth", default_auth)
        entries[(entry["package"], entry["platform"].upper())] = entry
    return entries


def _checked_entry(entry) -> dict:
    if not isinstance(entry, dict) or not isinstance(entry.get("package"), str) \
            or not isinstance(entry.get("platform"), str):
        raise ValueError("every OSAM entry needs package and platform strings")
    for kind in ("version", "rating"):
        if entry.get(kind) is not None and not isinstance(entry[kind], dict):
            raise ValueError(f"{kind} must be a JSON object or null")
    credentials = entry.get("basicAuth")
    if credentials is not None and (not isinstance(credentials, str) or ":" not in credentials):
        raise ValueError('basicAuth must be "user:password"')
    return dict(entry)


def _basic_matches(authorization: str | None, credentials: str) -> bool:
    try:
        return basic_credentials(authorization) == credentials
    except ValueError:
        return False
