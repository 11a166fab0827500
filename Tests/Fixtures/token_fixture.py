#!/usr/bin/env python3
"""A hostile OAuth server on 127.0.0.1 for sclm's auth tests: tokens that would inject header lines.

The first path segment of the auth URL picks the attack (`SCLM_AUTH_URL=http://127.0.0.1:P/ATTACK`):
  /crlf-access  every grant answers an access token holding CR LF and a header line
  /crlf-type    every grant answers a token type holding CR LF and a header line
  /nul-access   every grant answers an access token holding NUL
  /on-refresh   the password grant answers a good access token that has already expired (a JWT whose `exp`
                is past, and no `expires_in`), so the next request renews it; the refresh grant answers
                an access token holding CR LF
Any other request (the API, with SCLM_API_URL pointing here) answers `[]`. Every request line and header
is written to stderr, so a test can check that no injected header ever arrived. Prints its base URL as
the first stdout line. Python 3 standard library only.
"""
import base64
import json
import sys
import time
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs

from http_fixture import serve

INJECTED = "\r\nX-Injected: 1"


def tokens(attack, grant):
    good = {"access_token": "good-access-token", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "r-1"}
    if attack == "crlf-access":
        return dict(good, access_token="evil" + INJECTED)
    if attack == "crlf-type":
        return dict(good, token_type="Bearer" + INJECTED)
    if attack == "nul-access":
        return dict(good, access_token="evil\u0000token")
    if attack == "on-refresh":
        if grant == "refresh_token":
            return dict(good, access_token="evil" + INJECTED)
        expired = {key: value for key, value in good.items() if key != "expires_in"}
        return dict(expired, access_token=expired_jwt())
    return good


def expired_jwt():
    """An unsigned JWT whose `exp` claim lies a minute in the past."""
    def part(value):
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
    now = int(time.time())
    return ".".join([part({"alg": "none", "typ": "JWT"}), part({"sub": "u", "iat": now - 120, "exp": now - 60}), ""])


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, payload):
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_request_headers(self):
        sys.stderr.write(f"{self.command} {self.path}\n{self.headers}")
        sys.stderr.flush()

    def do_POST(self):
        self.log_request_headers()
        length = int(self.headers.get("Content-Length") or 0)
        form = parse_qs(self.rfile.read(length).decode())
        parts = self.path.strip("/").split("/")
        if parts[-2:] == ["connect", "token"]:
            attack = parts[0] if len(parts) == 3 else ""
            self.answer(200, tokens(attack, form.get("grant_type", [""])[0]))
        else:
            self.answer(404, {"error": "not_found"})

    def do_GET(self):
        self.log_request_headers()
        self.answer(200, [])


def main():
    serve(Handler)


if __name__ == "__main__":
    sys.exit(main())
