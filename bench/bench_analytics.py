"""Analytics flush: N outbox rows published to the dev-server's StoryIoT hub, marked one by one.

`sclm events flush` (the whole process) against a Python 3 standard-library script doing what a user would
script with the same guarantees: read the unsynchronized rows from a copy of the same database, sign every
request (HMAC-SHA512 with a fresh expiration), POST the same headers and body on 4 `http.client` keep-alive
connections (sclm keeps 4 publishes in flight too), and mark each acknowledged row synchronized in its own
transaction. Both talk to the same dev-server process, whose received messages are cleared between runs.
Wall time is bounded by the Python dev-server on this machine, so the client CPU time (user + system, the
dev-server excluded) is compared as well.
"""
import base64
import datetime
import hashlib
import hmac
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

from dev_backend import DevServer, ThreadConnections
from run import Result, remove_database

HUB, KEY, SECRET = "sclm-demo-hub", "demo-iot-key", "demo-iot-secret"
JOBS = 4


def write_rows(database, count):
    """One completed session and `count - 1` slide views, as the bridge writes them."""
    db = sqlite3.connect(database)
    with db:
        db.execute("INSERT INTO sessions(sessionId, presentationId, userId, state, complete, duration, slidesCount, "
                   "created, timeZone) VALUES ('s-1', 101, 'user-1', 1, 1, 42, ?, '2026-03-01T09:15:02.123Z', 3)",
                   (count - 1,))
        db.executemany("INSERT INTO session_actions(id, sessionId, presentationId, userId, slideId, slideName, "
                       "navigation, duration, created, timeZone) VALUES (?, 's-1', 101, 'user-1', 10100, "
                       "'index.html', 'in', 12, '2026-03-01T09:15:03.000Z', 3)",
                       [(f"a-{index:06d}",) for index in range(1, count)])
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


class PythonFlush:
    """The script a user would write: same requests, same per-row marking."""

    def __init__(self, server):
        self.server = server
        self.connections = ThreadConnections(server)
        self.lock = threading.Lock()

    @staticmethod
    def signed_path():
        expiration = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=180)) \
            .strftime("%Y-%m-%dT%H:%M:%SZ")
        mac = hmac.new(SECRET.encode(), f"key={KEY}expiration={expiration}".encode(), hashlib.sha512).digest()
        signature = base64.b64encode(mac).decode().replace("+", "-").replace("/", "_")
        query = urllib.parse.urlencode({"key": KEY, "expiration": expiration, "signature": signature})
        return f"/{HUB}/publish/?{query}"

    def publish(self, table, row):
        body = json.dumps({"id": row["id"], "sessionId": row["sessionId"], "presentationId": str(row["presentationId"]),
                           "userId": row["userId"], "slideId": str(row["slideId"]), "slideName": row["slideName"],
                           "navigation": row["navigation"], "created": "2026-03-01T12:15:03.0000000",
                           "timeZone": row["timeZone"], "duration": row["duration"]}, separators=(",", ":"))
        headers = {"Content-Type": "application/json", "s-m-eid": "story.content.slide", "s-m-did": "bench",
                   "s-m-uid": row["userId"], "s-m-ct": row["sessionId"], "s-m-id": row["id"], "s-m-cud": "u",
                   "s-m-lt": "2026-03-01T12:15:03.0000000", "s-m-tz": "3", "s-m-geo": "off", "s-m-ns": "LAN"}
        connection = self.connections.get()
        connection.request("POST", self.signed_path(), body=body.encode(), headers=headers)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"publish {row['id']}: HTTP {response.status}")
        with self.lock, self.db:
            self.db.execute(f"UPDATE {table} SET synchronized = 1, publishedAt = ?, "
                            "publishAttempts = publishAttempts + 1 WHERE id = ?",
                            (datetime.datetime.now(datetime.timezone.utc).isoformat(), row["id"]))

    def run(self, database):
        start, cpu = time.perf_counter(), cpu_seconds(resource.RUSAGE_SELF)
        self.db = sqlite3.connect(database, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.row_factory = sqlite3.Row
        rows = self.db.execute("SELECT a.* FROM session_actions a JOIN sessions s USING (sessionId) "
                               "WHERE a.synchronized = 0 AND s.state = 1").fetchall()
        with ThreadPoolExecutor(JOBS) as pool:
            list(pool.map(lambda row: self.publish("session_actions", row), rows))
        elapsed, used = time.perf_counter() - start, cpu_seconds(resource.RUSAGE_SELF) - cpu
        self.db.close()
        return elapsed, used, len(rows)


def cpu_seconds(who):
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def run_sclm(command, env):
    """Wall and CPU seconds of one `sclm` process (the dev-server, a child not yet reaped, is not counted)."""
    start, cpu = time.perf_counter(), cpu_seconds(resource.RUSAGE_CHILDREN)
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {result.stderr}")
    return time.perf_counter() - start, cpu_seconds(resource.RUSAGE_CHILDREN) - cpu


def run(ctx):
    count = 400 if ctx.quick else 2000
    server = DevServer(1)
    try:
        work = ctx.work / "analytics"
        work.mkdir(exist_ok=True)
        template_home = str(work / "template")
        env = dict(os.environ, NO_COLOR="1", SCLM_IOT_ENDPOINT=server.url, SCLM_IOT_HUB=HUB, SCLM_IOT_KEY=KEY,
                   SCLM_IOT_SECRET=SECRET)
        subprocess.run([ctx.sclm, "--home", template_home, "status"], env=env, check=True, capture_output=True)
        write_rows(os.path.join(template_home, "sclm.db"), count)
        python = PythonFlush(server)
        sclm_times, python_times, sclm_cpu, python_cpu = [], [], [], []
        for _ in range(ctx.repeat):
            home = str(work / "home")
            shutil.rmtree(home, ignore_errors=True)
            shutil.copytree(template_home, home)
            server.control({"action": "clearIot"})
            elapsed, used = run_sclm([ctx.sclm, "--home", home, "events", "flush"], env)
            sclm_times.append(elapsed)
            sclm_cpu.append(used)
            assert len(server.request("GET", "/_control/iot")["messages"]) == count
            copy = str(work / "python.db")
            remove_database(copy)
            shutil.copy(os.path.join(template_home, "sclm.db"), copy)
            server.control({"action": "clearIot"})
            elapsed, used, published = python.run(copy)
            assert published == count - 1, published
            python_times.append(elapsed)
            python_cpu.append(used)
    finally:
        server.stop()
    sclm, baseline = min(sclm_times), min(python_times)
    sclm_used, python_used = min(sclm_cpu), min(python_cpu)
    return [
        Result(name=f"analytics flush ({count:,} rows)", sclm=f"{sclm:.2f} s ({count / sclm:,.0f} rows/s)",
               baseline=f"{baseline:.2f} s (python http.client + hmac + sqlite3)", ratio=baseline / sclm,
               budget="report", ok=True,
               notes=f"best of {ctx.repeat}, {JOBS} publishes in flight on both sides, each row marked in its own "
                     f"transaction; python publishes {count - 1:,} slide views (not the session row); sclm runs "
                     f"{sorted(round(t, 2) for t in sclm_times)}, python {sorted(round(t, 2) for t in python_times)}"),
        Result(name=f"analytics flush, client CPU ({count:,} rows)", sclm=f"{sclm_used:.2f} s",
               baseline=f"{python_used:.2f} s (python)", ratio=python_used / sclm_used, budget="report", ok=True,
               notes=f"user + system seconds of the publishing side only (sclm: the whole process), best of "
                     f"{ctx.repeat}; sclm {sorted(round(t, 2) for t in sclm_cpu)}, "
                     f"python {sorted(round(t, 2) for t in python_cpu)}"),
    ]
