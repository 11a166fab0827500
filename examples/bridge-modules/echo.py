#!/usr/bin/env python3
"""A tiny external bridge module for `sclm bridge --module echo=examples/bridge-modules/echo.py`.

It speaks the sclm bridge protocol on stdin/stdout: one JSON message per line in, one answer per
message with a GUID out ({"GUID","Status","ErrorCode","ErrorMessage","Data"}), events as
{"Event","Data"}. Logs go to stderr, never stdout. Python 3 standard library only.

Commands:
  echo.say    {...}                     answers its Data unchanged
  echo.sleep  {"ms": N}                 answers {"slept": N} after N milliseconds (others keep flowing)
  echo.fail   {"code": N, "message": s} answers with that ErrorCode and message
  echo.event  {"name": s, "data": {}}   writes that event line, then answers {}
  echo.log    {"lines": N}              writes N lines to stderr, then answers {}
  echo.crash  {}                        exits at once with status 3, without answering
  echo.pending {}                       answers {"pending": N}: the echo.sleep requests not yet answered
  echo.wake   {}                        answers every pending echo.sleep now, then {"woken": N}, so that a
                                        test sees a late answer arrive without waiting for it
"""
import heapq
import json
import sys
import threading
import time

COMMANDS = ["echo.say", "echo.sleep", "echo.fail", "echo.event", "echo.log", "echo.crash", "echo.pending",
            "echo.wake"]
write_lock = threading.Lock()
timers = []  # heap of (due, sequence, guid, ms)
timers_changed = threading.Condition()


def send(message):
    line = json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"
    with write_lock:
        sys.stdout.write(line)
        sys.stdout.flush()


def answer(guid, data=None, code=200, message=""):
    if guid is None:
        return
    send({"GUID": guid, "Status": "Success" if 200 <= code < 300 else "Failure", "ErrorCode": code,
          "ErrorMessage": message, "Data": data if code < 300 else None})


def sleeper():
    """Answers echo.sleep requests when they are due (one thread for all of them)."""
    while True:
        with timers_changed:
            while not timers or timers[0][0] > time.monotonic():
                timers_changed.wait(None if not timers else max(0.0, timers[0][0] - time.monotonic()))
            _, _, guid, ms = heapq.heappop(timers)
        answer(guid, {"slept": ms})


def handle(message):
    lowered = {key.lower(): value for key, value in message.items()}
    command = str(lowered.get("command", "")).strip()
    data = lowered.get("data") or {}
    guid = lowered.get("guid")
    if command == "bridge.describe":
        answer(guid, {"modules": [{"name": "echo", "commands": COMMANDS}]})
    elif command == "bridge.cancel":
        pass  # sleeps are cheap; the host has already answered the cancelled request
    elif command == "echo.say":
        answer(guid, data)
    elif command == "echo.sleep":
        ms = int(data.get("ms", 0))
        with timers_changed:
            heapq.heappush(timers, (time.monotonic() + ms / 1000.0, id(message), guid, ms))
            timers_changed.notify()
    elif command == "echo.fail":
        answer(guid, code=int(data.get("code", 500)), message=str(data.get("message", "failed")))
    elif command == "echo.event":
        send({"Event": str(data.get("name", "echo")), "Data": data.get("data", {})})
        answer(guid, {})
    elif command == "echo.log":
        for index in range(int(data.get("lines", 1))):
            print(f"echo: log line {index}", file=sys.stderr)
        answer(guid, {})
    elif command == "echo.pending":
        with timers_changed:
            pending = len(timers)
        answer(guid, {"pending": pending})
    elif command == "echo.wake":
        with timers_changed:
            due = sorted(timers)
            timers.clear()
        for _, _, sleeper_guid, ms in due:
            answer(sleeper_guid, {"slept": ms})
        answer(guid, {"woken": len(due)})
    elif command == "echo.crash":
        sys.stderr.flush()
        sys.exit(3)
    else:
        answer(guid, code=404, message=f"unknown command: {command}")


def main():
    threading.Thread(target=sleeper, daemon=True).start()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            print("echo: ignored a line that is not JSON", file=sys.stderr)
            continue
        if isinstance(message, dict):
            handle(message)


if __name__ == "__main__":
    main()
