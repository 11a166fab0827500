#!/usr/bin/env python3
"""Loopback HTTP fixture for SCLMHTTP transport tests: the cases dev-server/ does not cover.

Routes: /json, /echo (request headers and body back as JSON), /gzip, /cookie (Set-Cookie),
/redirect-ok, /redirect-ftp, /redirect-loop, /redirect?to=URL&status=N (a hostile hop to anywhere),
/header-cr (an ETag holding a bare CR and a header line),
/stall (headers and a few bytes, then silence), /status/503 (Retry-After),
/status/500-endless (an error body that never ends), /big?bytes=N. Prints its
base URL as the first stdout line; with `--tls CERT KEY` it speaks https with that certificate.
Python 3 standard library only; binds 127.0.0.1, or `--bind ::1` for IPv6 loopback.
"""
import argparse
import gzip
import json
import socket
import ssl
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):
        self.do_GET()

    def do_POST(self):
        self.do_GET()

    def do_PUT(self):
        self.do_GET()

    def do_GET(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        json_type = ("Content-Type", "application/json")
        if url.path == "/json":
            self.send(200, b'{"hello":"world"}', [json_type])
        elif url.path == "/echo":
            echo = {"method": self.command, "path": url.path, "body": body.decode("utf-8", "replace"),
                    "headers": {name.lower(): value for name, value in self.headers.items()}}
            self.send(200, json.dumps(echo).encode(), [json_type])
        elif url.path == "/gzip":
            payload = b"sclm " * 20000
            self.send(200, gzip.compress(payload), [("Content-Encoding", "gzip"), ("Content-Type", "text/plain")])
        elif url.path == "/cookie":
            self.send(200, b"{}", [json_type, ("Set-Cookie", "fixture_session=abc123; HttpOnly; Path=/")])
        elif url.path == "/redirect-ok":
            self.send(302, b"", [("Location", "/json")])
        elif url.path == "/redirect-ftp":
            self.send(302, b"", [("Location", "ftp://127.0.0.1:1/secret.zip?sig=abc")])
        elif url.path == "/redirect":
            status = int(query.get("status", ["302"])[0])
            self.send(status, b"", [("Location", query["to"][0])])
        elif url.path == "/header-cr":
            self.send(200, b"{}", [json_type, ("ETag", '"a\rX-Injected: 1"'), ("X-Fine", "yes")])
        elif url.path == "/redirect-loop":
            self.send(302, b"", [("Location", "/redirect-loop")])
        elif url.path == "/stall":
            self.send_response(200)
            self.send_header("Content-Length", "1000000")
            self.end_headers()
            self.wfile.write(b"x" * 100)
            self.wfile.flush()
            print("stalling", file=sys.stderr, flush=True)  # a test waits for this line, not a fixed time
            time.sleep(float(query.get("seconds", ["20"])[0]))
        elif url.path == "/status/503":
            self.send(503, b'{"error":"busy"}', [json_type, ("Retry-After", "7")])
        elif url.path == "/status/500-endless":
            # No Content-Length: the body ends only when the client hangs up.
            self.send_response(500)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            try:
                while True:
                    self.wfile.write(b"e" * 65536)
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif url.path == "/big":
            self.send(200, b"b" * int(query.get("bytes", ["1000"])[0]))
        else:
            self.send(404, b'{"error":"not_found"}', [json_type])


def serve(handler, bind="127.0.0.1", tls=None):
    """Serves `handler` on a free port of `bind` (with `tls` = (CERT, KEY), https) and prints the base URL."""
    server_class = ThreadingHTTPServer
    if ":" in bind:
        server_class = type("IPv6Server", (ThreadingHTTPServer,), {"address_family": socket.AF_INET6})
    server = server_class((bind, 0), handler)
    server.daemon_threads = True
    scheme = "http"
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        scheme = "https"
    host = f"[{bind}]" if ":" in bind else bind
    print(f"{scheme}://{host}:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--bind", default="127.0.0.1")
    args = parser.parse_args()
    serve(Handler, args.bind, args.tls)


if __name__ == "__main__":
    sys.exit(main())
