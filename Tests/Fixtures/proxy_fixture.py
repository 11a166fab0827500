#!/usr/bin/env python3
"""Loopback forward-proxy fixture for the proxy tests: forwards plain-http requests in absolute form and
records each one as a JSON line in `--log FILE`: {"method", "url", "proxyAuthorization"} (the last is
whether a Proxy-Authorization header came, and whether it was Basic for `--expect-user USER:PASSWORD`).
Prints its base URL as the first stdout line; with `--tls CERT KEY` clients reach it over https (an https
proxy). Python 3 standard library only; binds 127.0.0.1.
"""
import argparse
import base64
import http.client
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlsplit

from http_fixture import serve

HOP_BY_HOP = {"connection", "keep-alive", "proxy-authorization", "proxy-connection", "te", "trailer",
              "transfer-encoding", "upgrade"}


class Proxy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self):
        sent = self.headers.get("Proxy-Authorization")
        expected = self.expected_authorization
        entry = {"method": self.command, "url": self.path,
                 "proxyAuthorization": sent is not None and (expected is None or sent == expected)}
        with self.log_lock, open(self.log_path, "a") as log:
            log.write(json.dumps(entry) + "\n")

    def forward(self):
        self.record()
        target = urlsplit(self.path)
        if target.scheme != "http" or not target.hostname:
            self.send_error(400, "only absolute http URLs")
            return
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
        upstream = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=30)
        path = target.path + (f"?{target.query}" if target.query else "")
        try:
            upstream.request(self.command, path or "/", body=body, headers=headers)
            response = upstream.getresponse()
            data = response.read()
        except OSError:
            self.send_error(502, "upstream unreachable")
            return
        self.send_response(response.status)
        for name, value in response.getheaders():
            if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        upstream.close()

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = forward


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log", required=True, help="file that receives one JSON line per request")
    parser.add_argument("--expect-user", help="USER:PASSWORD the Proxy-Authorization header must carry")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    args = parser.parse_args()
    Proxy.log_path = args.log
    Proxy.log_lock = threading.Lock()
    Proxy.expected_authorization = (
        None if args.expect_user is None else "Basic " + base64.b64encode(args.expect_user.encode()).decode())
    open(args.log, "w").close()
    serve(Proxy, tls=args.tls)
    return 0


if __name__ == "__main__":
    sys.exit(main())
