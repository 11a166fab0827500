"""HTTP/1.1 request handling: routing, bearer checks, fault injection, blob streaming with ranges."""
import email.utils
import json
import os
import re
import secrets
import socket
import sys
import time
import traceback
import urllib.parse
import uuid
from http.server import BaseHTTPRequestHandler
from xml.sax.saxutils import escape

from . import __version__, control, tables
from .auth import DEMO_IDENTITY, TokenError
from .blobs import SasError
from .catalog import NotFound
from .faults import RequestFaults
from .util import http_date, json_bytes, wire_date

MAX_REQUEST_BODY = 16 << 20
SEND_CHUNK = 8 << 20
SESSION_COOKIE = "sclm_session"

_CONTENT_ROUTES = [
    (re.compile(r"^/v1/clients/?$"), lambda h, _: h.state.catalog.clients_json()),
    (re.compile(r"^/v1/clients/(\d+)/?$"), lambda h, i: h.state.catalog.client_json(i)),
    (re.compile(r"^/v1/presentations/(\d+)/?$"), lambda h, i: h.state.catalog.presentation_json(i)),
    (re.compile(r"^/v1/slides/(\d+)/?$"), lambda h, i: h.state.catalog.slide_json(i)),
    (re.compile(r"^/v1/mediafiles/(\d+)/?$"), lambda h, i: h.state.catalog.media_json(i, h.server.base_url)),
    (re.compile(r"^/v1/contentpackages/(\d+)/?$"), lambda h, i: h.state.catalog.package_json(i, h.server.base_url)),
]
_TABLES = re.compile(r"^/v1/tables/(\d+)/(tables|find|findbyid/[^/]+|findbyids|insert|insertmany|update|updatemany"
                     r"|count|delete/[^/]+|deletemany)/?$")
_BLOB = re.compile(r"^/blobs/(packages|mediafiles)/([0-9A-Za-z-]+)$")
_PUBLISH = re.compile(r"^/([^/]+)/publish/?$")
_OSAM_VERSION = re.compile(r"^/api/version/([^/]+)/([^/]+)/([^/]+)/?$")
_OSAM_RATING = re.compile(r"^/api/rating/([^/]+)/([^/]+)/?$")
_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")


class ClientGone(Exception):
    """The peer closed the connection while we were writing."""


class RequestBodyError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def parse_query(query: str) -> dict[str, str]:
    """First value per name; `+` stays `+` (StoryIoT expirations carry zone offsets)."""
    values: dict[str, str] = {}
    for part in query.split("&"):
        if part:
            name, _, value = part.partition("=")
            values.setdefault(urllib.parse.unquote(name), urllib.parse.unquote(value))
    return values


def etag_listed(header: str, etag: str) -> bool:
    """Whether an `If-Match`/`If-None-Match` value (`*` or a comma-separated list of entity tags) names
    `etag`; a weak `W/` prefix is ignored, as the weak comparison of `If-None-Match` wants."""
    tags = [tag.strip().removeprefix("W/") for tag in header.split(",")]
    return "*" in tags or etag in tags


def parse_http_date(header: str | None) -> int | None:
    """Epoch seconds of an RFC 9110 date (`Sun, 06 Nov 1994 08:49:37 GMT`); `None` when absent or invalid."""
    try:
        moment = email.utils.parsedate_to_datetime(header) if header else None
    except (TypeError, ValueError):
        return None
    return int(moment.timestamp()) if moment is not None and moment.tzinfo is not None else None


def parse_range(header: str, size: int) -> tuple[int, int] | None | str:
    """(first, last) byte positions, None to ignore the header, "unsatisfiable", or "invalid" for the forms
    Azure Blob Storage refuses (a suffix range `bytes=-N`, several ranges)."""
    text = header.strip().replace(" ", "")
    if "," in text and text.startswith("bytes="):
        return "invalid"
    match = _RANGE.match(text)
    if not match or match.group(1) == match.group(2) == "":
        return None  # not a byte range: serve the whole body
    first, last = match.group(1), match.group(2)
    if first == "":
        return "invalid"
    start = int(first)
    end = size - 1 if last == "" else min(int(last), size - 1)
    if last != "" and int(last) < start:
        return None
    return "unsatisfiable" if start >= size else (start, end)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = f"sclm-dev-server/{__version__}"
    sys_version = ""
    wbufsize = 1 << 16  # headers and a small body leave in one segment; flushed after every response

    def version_string(self):
        return self.server_version

    @property
    def state(self):
        return self.server.state

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def handle_expect_100(self):
        answer = super().handle_expect_100()
        self.wfile.flush()
        return answer

    def do_GET(self):
        self._handle()

    do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_GET

    # Dispatch

    def _handle(self):
        started = time.perf_counter()
        self._status, self._sent, self._counted = 0, 0, False
        self._faults = RequestFaults()
        url = urllib.parse.urlsplit(self.path)
        path, query = url.path, parse_query(url.query)
        try:
            try:
                body = self._read_body()
            except RequestBodyError as error:
                self.close_connection = True
                self._json(error.status, {"error": str(error)})
                return
            if path == "/_control" or path.startswith("/_control/"):
                self._control(path, body)
                return
            self._count_request(path, body)
            if not self._inject_faults(path):
                self._route(path, query, body)
        except ClientGone:
            self.close_connection = True
        except Exception:  # a bug must not kill the server; say so and keep serving
            traceback.print_exc(file=sys.stderr)
            self.close_connection = True
            if not self._status:
                self._json(500, {"error": "internal dev-server error (see its stderr)"})
        finally:
            self._log(path, started)

    def _route(self, path: str, query: dict, body: bytes):
        method = self.command
        if path == "/connect/token":
            return self._only(("POST",)) and self._token(body)
        if match := _TABLES.match(path):
            return self._tables(match.group(1), match.group(2), body)
        if path.startswith("/v1/"):
            return self._only(("GET", "HEAD")) and self._content(path)
        if match := _BLOB.match(path):
            return self._only(("GET", "HEAD")) and self._blob(match.group(1), match.group(2), query)
        if match := _PUBLISH.match(path):
            return self._only(("POST",)) and self._publish(urllib.parse.unquote(match.group(1)), query, body)
        if match := _OSAM_VERSION.match(path):
            args = [urllib.parse.unquote(part) for part in match.groups()]
            return self._only(("GET", "HEAD")) and self._osam(self.state.osam.version(*args, self._auth()))
        if match := _OSAM_RATING.match(path):
            args = [urllib.parse.unquote(part) for part in match.groups()]
            return self._only(("GET", "HEAD")) and self._osam(self.state.osam.rating(*args, self._auth()))
        return self._json(404, {"error": f"no route for {method} {path}"})

    def _only(self, methods: tuple[str, ...]) -> bool:
        if self.command in methods:
            return True
        self._json(405, {"error": f"{self.command} is not allowed here"}, {"Allow": ", ".join(methods)})
        return False

    def _auth(self) -> str | None:
        return self.headers.get("Authorization")

    # Bookkeeping and faults

    def _count_request(self, path: str, body: bytes):
        key = f"{self.command} {path}"
        if path == "/connect/token":
            key += " " + (self._form(body).get("grant_type") or "?")
        self.state.stats.request(key)
        self._counted = True
        cookie = self._session_cookie()
        if cookie:
            self.state.stats.cookie_presented(cookie in self.server.sessions)

    def _inject_faults(self, path: str) -> bool:
        """Applies the faults drawn for this request; True when the response was already sent."""
        self._faults = self.state.faults.draw(path, has_body=self.command != "HEAD")
        stall = self._faults.get("stall")
        if stall and stall.after_bytes is None:
            self.state.stalls_released.wait(stall.seconds)
        fail = self._faults.get("fail")
        if fail:
            headers = {} if fail.retry_after is None else {"Retry-After": f"{fail.retry_after:g}"}
            self._json(fail.status, {"error": f"injected failure ({fail.status})"}, headers)
            return True
        if self._faults.get("tokensInsteadOfContent"):
            identity = self.state.tokens.authenticate(self._auth()) or DEMO_IDENTITY
            self._json(200, self.state.tokens.issue(identity, refresh=identity.grant != "client_credentials"))
            return True
        return False

    # Routes

    def _token(self, body: bytes):
        try:
            answer = self.state.tokens.grant(self._form(body), self._auth())
        except TokenError as error:
            return self._json(error.status, error.body)
        headers = {"Cache-Control": "no-store", "Pragma": "no-cache"}
        if self._session_cookie() not in self.server.sessions:
            session = secrets.token_urlsafe(16)
            self.server.sessions.add(session)
            self.state.stats.cookie_issued()
            headers["Set-Cookie"] = f"{SESSION_COOKIE}={session}; HttpOnly; Path=/"
        self._json(200, answer, headers)

    def _content(self, path: str):
        if self.state.tokens.authenticate(self._auth()) is None:
            return self._json(401, {"error": "invalid_token", "error_description": "missing, unknown or expired "
                                    "bearer token"}, {"WWW-Authenticate": 'Bearer error="invalid_token"'})
        for pattern, render in _CONTENT_ROUTES:
            if match := pattern.match(path):
                try:
                    answer = render(self, int(match.group(1)) if match.groups() else None)
                    patch = self.state.patches.get(path.rstrip("/"))
                    return self._json(200, {**answer, **patch} if patch and isinstance(answer, dict) else answer)
                except NotFound as missing:
                    return self._json(404, {"error": "not_found", "message": f"no {missing}"})
        return self._json(404, {"error": "not_found", "message": f"no content route {path}"})

    def _tables(self, number: str, operation: str, body: bytes):
        if self.state.tokens.authenticate(self._auth()) is None:
            return self._json(401, {"error": "invalid_token", "error_description": "missing, unknown or expired "
                                    "bearer token"}, {"WWW-Authenticate": 'Bearer error="invalid_token"'})
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        try:
            status, answer = tables.route(self.state.tables, self.command, int(number), operation, query, body)
        except tables.TableError as error:
            return self._json(error.status, {"error": "tables", "message": str(error)})
        return self._json(status, answer)

    def _blob(self, kind: str, blob_id: str, query: dict):
        try:
            self.state.blobs.check(kind, blob_id, query.get("se", ""), query.get("sig", ""))
        except SasError as refused:
            return self._azure_error(403, "AuthenticationFailed", "Server failed to authenticate the request. "
                                     "Make sure the value of Authorization header is formed correctly including "
                                     "the signature.", str(refused))
        blob = self.state.blobs.get(kind, blob_id)
        if blob is None:
            return self._azure_error(404, "BlobNotFound", "The specified blob does not exist.")
        headers = {"Content-Type": blob.mime, "ETag": blob.etag, "Accept-Ranges": "bytes",
                   "Last-Modified": http_date(blob.modified), "x-ms-blob-type": "BlockBlob"}
        precondition = self._precondition(blob.etag, blob.modified)
        if precondition is not None:  # 304 or 412, as Azure Blob Storage answers; no body
            if precondition == 304:
                headers = {name: headers[name] for name in ("ETag", "Last-Modified")}
                return self._send(304, headers, None, 0, 0)
            return self._azure_error(412, "ConditionNotMet", "The condition specified using HTTP conditional "
                                     "header(s) is not met.")
        wanted = self.headers.get("Range")
        validator = self.headers.get("If-Range")
        if wanted and validator is not None and validator.strip() not in (blob.etag, headers["Last-Modified"]):
            wanted = None  # the representation changed: send all of it
        link = self.state.link
        span = parse_range(wanted, blob.size) if wanted and link.ranges != "ignore" else None
        if span == "invalid":
            return self._azure_error(416, "InvalidRange", "The range specified is invalid for the current size "
                                     "of the resource (one range of absolute offsets: bytes=first-[last]).")
        if span == "unsatisfiable":
            headers["Content-Range"] = f"bytes */{blob.size}"
            return self._send(416, headers, b"")
        status, start, count = 200, 0, blob.size
        if span is not None:
            status, start, count = 206, span[0], span[1] + 1 - span[0]
            headers["Content-Range"] = f"bytes {span[0]}-{span[1]}/{blob.size}"
            if link.ranges == "shift" and not wanted.strip().endswith("-") and span[1] + 1 < blob.size:
                start += 1  # other bytes than the Content-Range claims
        if self.command == "HEAD":  # no body: a lazy package is not generated for a HEAD
            return self._send(status, headers, None, start, count)
        with blob.open() as handle:
            self._send(status, headers, handle, start, count, blob_id)

    def _precondition(self, etag: str, modified: float) -> int | None:
        """The status a conditional blob request gets (RFC 9110 §13.2.2, as Azure Blob Storage): 412 when
        `If-Match` names no current ETag, 304 when `If-None-Match` names it (or, without `If-None-Match`,
        when the blob is not newer than `If-Modified-Since`); `None` to answer normally."""
        if (wanted := self.headers.get("If-Match")) is not None and not etag_listed(wanted, etag):
            return 412
        if (unwanted := self.headers.get("If-None-Match")) is not None:
            return 304 if etag_listed(unwanted, etag) else None
        since = parse_http_date(self.headers.get("If-Modified-Since"))
        return 304 if since is not None and int(modified) <= since else None

    def _publish(self, hub: str, query: dict, body: bytes):
        headers = {name.lower(): value for name, value in self.headers.items()}
        result = self.state.iot.publish(hub, query, headers, body)
        self._json(result.status, result.body)

    def _osam(self, answer):
        self._json(answer.status, answer.body, answer.headers)

    def _control(self, path: str, body: bytes):
        if path == "/_control" and self.command == "POST":
            try:
                action = json.loads(body.decode("utf-8") or "null")
                return self._json(200, control.apply(self.state, action))
            except (UnicodeDecodeError, ValueError) as error:
                return self._json(400, {"ok": False, "error": f"body is not JSON: {error}"})
            except control.ControlError as error:
                return self._json(error.status, {"ok": False, "error": str(error)})
        if self.command in ("GET", "HEAD"):
            if path == "/_control/stats":
                return self._json(200, self.state.stats.snapshot())
            if path == "/_control/iot":
                return self._json(200, self.state.iot.snapshot())
            if path == "/_control":
                clients, presentations = self.state.catalog.counts()
                return self._json(200, {"actions": control.ACTION_NAMES, "pendingFaults": self.state.faults.pending(),
                                        "clients": clients, "presentations": presentations})
        self._json(404 if self.command in ("GET", "HEAD", "POST") else 405, {"error": f"no control route {path}"})

    # Request and response plumbing

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            return self._read_chunked()
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        if not length.isdigit():
            raise RequestBodyError(400, "Content-Length is not a number")
        if int(length) > MAX_REQUEST_BODY:
            raise RequestBodyError(413, f"request body over {MAX_REQUEST_BODY} bytes")
        return self.rfile.read(int(length))

    def _read_chunked(self) -> bytes:
        parts, total = [], 0
        while True:
            line = self.rfile.readline(1024).split(b";")[0].strip()
            try:
                size = int(line, 16)
            except ValueError:
                raise RequestBodyError(400, "malformed chunked body") from None
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass
                return b"".join(parts)
            total += size
            if total > MAX_REQUEST_BODY:
                raise RequestBodyError(413, f"request body over {MAX_REQUEST_BODY} bytes")
            parts.append(self.rfile.read(size))
            self.rfile.readline(1024)

    def _form(self, body: bytes) -> dict[str, str]:
        if not hasattr(self, "_parsed_form"):
            fields = urllib.parse.parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
            self._parsed_form = {name: values[0] for name, values in fields.items()}
        return self._parsed_form

    def _session_cookie(self) -> str | None:
        for part in self.headers.get("Cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == SESSION_COOKIE:
                return value
        return None

    def _json(self, status: int, value, headers: dict | None = None):
        body = json_bytes(value)
        self._send(status, {"Content-Type": "application/json; charset=utf-8", **(headers or {})}, body)

    def _azure_error(self, status: int, code: str, message: str, detail: str | None = None):
        text = f"{message}\nRequestId:{uuid.uuid4()}\nTime:{wire_date(time.time())}0000Z"
        xml = f'<?xml version="1.0" encoding="utf-8"?><Error><Code>{code}</Code><Message>{escape(text)}</Message>'
        if detail:
            xml += f"<AuthenticationErrorDetail>{escape(detail)}</AuthenticationErrorDetail>"
        self._send(status, {"Content-Type": "application/xml", "x-ms-error-code": code}, (xml + "</Error>").encode())

    def _send(self, status: int, headers: dict, body, offset: int = 0, length: int | None = None,
              blob_id: str | None = None):
        """Sends status, headers and (unless HEAD) the body: bytes, or `length` bytes of a file from `offset`.
        Drop and mid-body stall faults cut the body here."""
        length = len(body) if isinstance(body, bytes) else length
        self._status = status
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        pad = self._faults.get("pad") if blob_id is not None else None
        if not pad:
            self.send_header("Content-Length", str(length))
        drop = self._faults.get("drop")
        if drop or pad:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command == "HEAD":
            return
        stall = self._faults.get("stall")
        cuts = [(drop.after_bytes, "drop")] if drop else []
        if stall and stall.after_bytes is not None:
            cuts.append((stall.after_bytes, "stall"))
        position = 0
        for at, kind in sorted(cuts):
            at = min(at, length)
            self._write(body, offset + position, at - position, blob_id)
            position = at
            self._flush()
            if kind == "stall":
                self.state.stalls_released.wait(stall.seconds)
            else:
                self.close_connection = True
                self._shutdown_write()
                return
        self._write(body, offset + position, length - position, blob_id)
        if pad:
            self._pad(pad.extra_bytes, blob_id)

    def _pad(self, count: int, blob_id: str):
        """Sends `count` zero bytes after a blob's body (the body then ends when the connection closes)."""
        self.close_connection = True
        self._flush()
        chunk = bytes(1 << 20)
        try:
            while count > 0:
                sent = self.connection.send(memoryview(chunk)[:min(count, len(chunk))])
                count -= sent
                self._sent += sent
                self.state.stats.blob_bytes(blob_id, sent)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError) as error:
            raise ClientGone() from error

    def _write(self, body, offset: int, count: int, blob_id: str | None):
        if count <= 0:
            return
        try:
            if isinstance(body, bytes):
                self.wfile.write(memoryview(body)[offset:offset + count])
                self._sent += count
                return
            self._flush()
            end = offset + count
            link = self.state.link
            chunk = link.chunk or SEND_CHUNK
            while offset < end:
                link.pace(min(chunk, end - offset))
                sent = os.sendfile(self.connection.fileno(), body.fileno(), offset, min(chunk, end - offset))
                if sent == 0:
                    raise ClientGone()
                offset += sent
                self._sent += sent
                self.state.stats.blob_bytes(blob_id, sent)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError) as error:
            raise ClientGone() from error

    def _flush(self):
        try:
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError) as error:
            raise ClientGone() from error

    def _shutdown_write(self):
        try:
            self.connection.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    def _log(self, path: str, started: float):
        if self._status and self._counted:
            self.state.stats.status(self._status)
        if not self.server.quiet:
            elapsed = (time.perf_counter() - started) * 1000
            sys.stderr.write(f"{self.log_date_time_string()} {self.command} {path} {self._status or '-'} "
                             f"{self._sent}B {elapsed:.1f}ms\n")

    def log_request(self, code="-", size="-"):
        pass  # one line per request is written by _log, without query strings (they carry signatures)

    def log_message(self, format, *args):
        if not self.server.quiet:
            sys.stderr.write(f"{self.log_date_time_string()} {format % args}\n")
