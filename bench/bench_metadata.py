"""Metadata sync of 1,000 synthetic presentations from the dev-server: first run, no-op re-run, `sclm list`.

First run: `sclm sync --metadata-only --jobs 4` into a fresh home (clients list, 1,000 presentations, their
3,000 slides, stored in one transaction) against a Python 3 standard-library script doing the same fetches
(`http.client` keep-alive connections on 4 threads) and the same inserts (`sqlite3` `executemany` into a
copy of an empty sclm database, one transaction). Both talk to the same dev-server process; best of N.
No-op re-run: a second `sclm sync --metadata-only` must send only the client list and take <= 1 s.
`sclm list` on the 1,000 presentations: <= 150 ms.
"""
import json
import os
import shutil
import sqlite3
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

from dev_backend import DevServer, ThreadConnections, sclm_env, timed
from run import Result, remove_database

JOBS = 4


def sclm_first_run(ctx, server, home):
    shutil.rmtree(home, ignore_errors=True)
    env = sclm_env(server, home)
    subprocess.run([ctx.sclm, "login", "--service"], env=env, check=True, capture_output=True)
    return timed([ctx.sclm, "sync", "--metadata-only", "--jobs", str(JOBS)], env)


class PythonSync:
    """What a user would script with the standard library: the same requests, the same rows."""

    def __init__(self, server, template):
        self.server, self.template = server, template
        self.connections = ThreadConnections(server)

    def get(self, path):
        connection = self.connections.get()
        connection.request("GET", path, headers={"Authorization": f"Bearer {self.token}", "Accept": "application/json"})
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"GET {path}: {response.status}")
        return json.loads(body), body

    def presentation(self, stub):
        presentation, raw = self.get(f"/v1/presentations/{stub['id']}")
        slides = [self.get(f"/v1/slides/{slide['id']}")[0] for slide in presentation["slides"]]
        return presentation, raw, slides

    def run(self, path):
        remove_database(path)
        shutil.copy(self.template, path)
        start = time.perf_counter()
        self.token = self.server.token()
        clients, _ = self.get("/v1/clients")
        stubs = [(client["id"], stub) for client in clients for stub in client["presentations"]]
        with ThreadPoolExecutor(JOBS) as pool:
            fetched = list(pool.map(lambda item: (item[0], *self.presentation(item[1])), stubs))
        db = sqlite3.connect(path)
        with db:
            db.executemany("INSERT INTO clients(clientId, name, created, updatedDate) VALUES (?, ?, ?, ?)",
                           [(c["id"], c["name"], c.get("created"), c.get("updated")) for c in clients])
            db.executemany(
                'INSERT INTO presentations(presentationId, clientId, name, "order", revision, created, updatedDate, '
                "skip, visibility, rawData, syncState) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
                [(p["id"], client, p["name"], p.get("order", -1), p["revision"], p.get("created"), p.get("updated"),
                  int(p.get("skip", False)), int(p.get("visibility", True)), raw.decode()) for client, p, raw, _ in fetched])
            db.executemany(
                "INSERT INTO slides(slideId, presentationId, position, revision, name, pageSource, linkedSlides, "
                "swipeNext, swipePrevious, created, updatedDate) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(s["id"], p["id"], index, s["revision"], s["name"], s.get("pageSource"), s.get("linkedSlides"),
                  s.get("swipeNext"), s.get("swipePrevious"), s.get("created"), s.get("updated"))
                 for _, p, _, slides in fetched for index, s in enumerate(slides)])
            db.executemany(
                "INSERT INTO content_packages(presentationId, contentPackageId, revision, blobId, fileSize, mimeType) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(p["id"], p["sourcesFolder"]["id"], p["sourcesFolder"]["revision"], p["sourcesFolder"]["blobId"],
                  p["sourcesFolder"]["fileSize"], p["sourcesFolder"]["mimeType"]) for _, p, _, _ in fetched])
        elapsed = time.perf_counter() - start
        count = db.execute("SELECT count(*) FROM presentations").fetchone()[0]
        db.close()
        return elapsed, count


def run(ctx):
    count = 200 if ctx.quick else 1000
    server = DevServer(count)
    try:
        work = ctx.work / "metadata"
        work.mkdir(exist_ok=True)
        home = str(work / "home")
        template_home = str(work / "template")
        subprocess.run([ctx.sclm, "status"], env=sclm_env(server, template_home), check=True, capture_output=True)
        template = os.path.join(template_home, "sclm.db")
        sqlite3.connect(template).execute("PRAGMA wal_checkpoint(TRUNCATE)").close()  # the schema into the main file
        python = PythonSync(server, template)
        firsts, baselines = [], []
        for _ in range(ctx.repeat):
            firsts.append(sclm_first_run(ctx, server, home))
            elapsed, stored = python.run(str(work / "python.db"))
            assert stored == count, stored
            baselines.append(elapsed)
        noops = []
        for _ in range(ctx.repeat):
            server.control({"action": "resetStats"})
            noops.append(timed([ctx.sclm, "sync", "--metadata-only"], sclm_env(server, home)))
            requests = server.stats()["requests"]
        lists = [timed([ctx.sclm, "list"], sclm_env(server, home)) for _ in range(ctx.repeat * 2)]
    finally:
        server.stop()
    first, baseline, noop, listing = min(firsts), min(baselines), min(noops), min(lists)
    only_clients = requests == {"GET /v1/clients": 1}
    return [
        Result(name=f"metadata sync, first run ({count:,} presentations)", sclm=f"{first:.2f} s",
               baseline=f"{baseline:.2f} s (python http.client + sqlite3)", ratio=baseline / first,
               budget="report", ok=True,
               notes=f"best of {ctx.repeat}, {JOBS} requests in flight on both sides, "
                     f"{1 + count * 4:,} requests each; sclm runs {sorted(round(t, 2) for t in firsts)}, "
                     f"python {sorted(round(t, 2) for t in baselines)}"),
        Result(name=f"metadata sync, no-op re-run ({count:,} presentations)", sclm=f"{noop * 1000:.0f} ms",
               baseline="budget 1 s", ratio=1.0 / noop, budget="<= 1 s, client list only",
               ok=noop <= 1.0 and only_clients, notes=f"requests sent: {requests}"),
        Result(name=f"sclm list ({count:,} presentations)", sclm=f"{listing * 1000:.0f} ms", baseline="budget 150 ms",
               ratio=0.150 / listing, budget="<= 150 ms", ok=listing <= 0.150),
    ]
