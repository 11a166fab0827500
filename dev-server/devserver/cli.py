"""Command line: `python3 dev-server/server.py [options]`."""
import argparse
import json
import os
import pathlib
import signal
import sys
import threading

from .app import DevServer, Options
from .auth import DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, DEMO_FULLNAME, DEMO_PASSWORD, DEMO_SUB, DEMO_USERNAME
from .content import ContentError
from .control import ACTION_NAMES
from .iot import DEMO_HUB, DEMO_KEY, DEMO_SECRET
from .synthetic import SyntheticSpec
from .util import parse_size

EPILOG = f"""\
demo credentials:
  OAuth client   client_id {DEMO_CLIENT_ID}, client_secret {DEMO_CLIENT_SECRET}
  user           {DEMO_USERNAME} / {DEMO_PASSWORD} (sub {DEMO_SUB}, "{DEMO_FULLNAME}")
  StoryIoT       hub {DEMO_HUB}, key {DEMO_KEY}, secret {DEMO_SECRET}

The first stdout line is the base URL (use it as SCLM_API_URL and SCLM_AUTH_URL); request logs go to stderr.
Fault flags take effect for the next COUNT matching requests (default 1, -1 = until reset); @PATH limits
them to paths starting with PATH. At run time use POST /_control with a JSON action: {", ".join(ACTION_NAMES)}.

examples:
  python3 dev-server/server.py --port 8080
  python3 dev-server/server.py --synthetic-clients 1 --synthetic-presentations 8 --synthetic-size 64M --quiet
  python3 dev-server/server.py --fail 503:2:1@/v1/ --drop-after-bytes 1000000@/blobs/
  python3 dev-server/server.py --control '{{"action":"stall","seconds":5,"path":"/v1/clients"}}'
"""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dev-server/server.py", formatter_class=argparse.RawDescriptionHelpFormatter,
                                description="A StoryCLM-compatible development backend on 127.0.0.1 "
                                            "(auth, content API, blobs, StoryIoT, OSAM, fault switches).",
                                epilog=EPILOG)
    p.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (default 0 = a free port)")
    p.add_argument("--content", type=pathlib.Path,
                   help="content folder (default: sample-content/ assembled into .build/sample-content/, "
                        "unless synthetic content is asked for)")
    p.add_argument("--blob-dir", type=pathlib.Path,
                   help="where package zips and media blobs live (default: a temporary folder removed at exit; "
                        "a persistent folder keeps generated synthetic packages between runs)")
    p.add_argument("--synthetic-clients", type=int, metavar="N", help="generate N clients")
    p.add_argument("--synthetic-presentations", type=int, default=10, metavar="M",
                   help="presentations per synthetic client (default 10)")
    p.add_argument("--synthetic-size", type=parse_size, default=1 << 20, metavar="BYTES",
                   help="exact package size, e.g. 65536, 64M, 1G (default 1M)")
    p.add_argument("--synthetic-slides", type=int, default=3, metavar="K", help="slides per package (default 3)")
    p.add_argument("--access-token-lifetime", type=float, default=3600, metavar="S", help="seconds (default 3600)")
    p.add_argument("--refresh-token-lifetime", type=float, default=30 * 86400, metavar="S",
                   help="seconds (default 30 days)")
    p.add_argument("--sas-lifetime", type=float, default=3600, metavar="S", help="seconds (default 3600)")
    p.add_argument("--osam", type=pathlib.Path, metavar="FILE", help="OSAM answers (JSON, re-read when it changes)")
    p.add_argument("--rate-limit", type=parse_size, default=0, metavar="BYTES",
                   help="blob bytes per second, shared by all clients (a field link; default 0 = unlimited)")
    p.add_argument("--quiet", action="store_true", help="no per-request log lines")
    p.add_argument("--exit-with-parent", action="store_true",
                   help="stop when the process that started the server exits (test harnesses)")
    faults = p.add_argument_group("fault switches (same as the /_control actions)")
    faults.add_argument("--fail", action="append", default=[], metavar="STATUS[:COUNT[:RETRY_AFTER]][@PATH]")
    faults.add_argument("--drop-after-bytes", action="append", default=[], metavar="N[:COUNT][@PATH]")
    faults.add_argument("--stall", action="append", default=[], metavar="SECONDS[:COUNT[:AFTER_BYTES]][@PATH]")
    faults.add_argument("--tokens-instead-of-content", action="append", default=[], metavar="COUNT[@PATH]")
    faults.add_argument("--iot-fail-ratio", metavar="RATIO[:STATUS]", help="fail this share of StoryIoT publishes")
    faults.add_argument("--iot-fail-count", metavar="N[:STATUS]", help="fail the next N StoryIoT publishes")
    faults.add_argument("--control", action="append", default=[], metavar="JSON",
                        help="any control action as JSON, applied at start (repeatable)")
    return p


def _spec(text: str, action: str, names: list[str], kinds: list[type]) -> dict:
    """`A[:B[:C]][@PATH]` → {"action", names[0]: A, …, "path"?}."""
    body, _, path = text.partition("@")
    parts = body.split(":")
    if not parts[0] or len(parts) > len(names):
        raise ValueError(f"--{action}: expected {':'.join(names)} fields, got {text!r}")
    try:
        values = {name: kind(part) for name, kind, part in zip(names, kinds, parts)}
    except ValueError:
        raise ValueError(f"--{action}: {text!r} has a field that is not a number") from None
    return {"action": action, **values, **({"path": path} if path else {})}


def fault_actions(args: argparse.Namespace) -> list[dict]:
    actions = [_spec(t, "fail", ["status", "count", "retryAfter"], [int, int, float]) for t in args.fail]
    actions += [_spec(t, "drop", ["afterBytes", "count"], [int, int]) for t in args.drop_after_bytes]
    actions += [_spec(t, "stall", ["seconds", "count", "afterBytes"], [float, int, int]) for t in args.stall]
    actions += [_spec(t, "tokensInsteadOfContent", ["count"], [int]) for t in args.tokens_instead_of_content]
    if args.iot_fail_ratio:
        actions.append(_spec(args.iot_fail_ratio, "iotFail", ["ratio", "status"], [float, int]))
    if args.iot_fail_count:
        actions.append(_spec(args.iot_fail_count, "iotFail", ["count", "status"], [int, int]))
    if args.rate_limit:
        actions.append({"action": "rateLimit", "bytesPerSecond": args.rate_limit})
    for text in args.control:
        try:
            actions.append(json.loads(text))
        except ValueError as error:
            raise ValueError(f"--control {text!r} is not JSON: {error}") from None
    return actions


def options_from(args: argparse.Namespace) -> Options:
    if args.port < 0 or args.port > 65535:
        raise ValueError("--port must be 0..65535")
    synthetic = None
    if args.synthetic_clients is not None:
        synthetic = SyntheticSpec(args.synthetic_clients, args.synthetic_presentations, args.synthetic_size,
                                  args.synthetic_slides)
        synthetic.validate()
    for name in ("access_token_lifetime", "refresh_token_lifetime", "sas_lifetime"):
        if getattr(args, name) < 0:
            raise ValueError(f"--{name.replace('_', '-')} must not be negative")
    return Options(args.port, args.content, args.blob_dir, synthetic, args.access_token_lifetime,
                   args.refresh_token_lifetime, args.sas_lifetime, args.osam, args.quiet, fault_actions(args))


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    try:
        options = options_from(args)
    except ValueError as error:
        p.error(str(error))
    try:
        server = DevServer(options)
    except (ContentError, ValueError, OSError) as error:
        print(f"dev-server: {error}", file=sys.stderr)
        return 1
    print(server.base_url, flush=True)
    clients, presentations = server.state.catalog.counts()
    print(f"dev-server: {clients} clients, {presentations} presentations, blobs in {server.blob_dir}; "
          f"user {DEMO_USERNAME}, client {DEMO_CLIENT_ID}", file=sys.stderr, flush=True)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    parent = os.getppid()
    server.start_background()
    while not stop.wait(0.5):
        if args.exit_with_parent and os.getppid() != parent:
            break
    server.stop()
    return 0
