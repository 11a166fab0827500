"""Metadata upsert: 100,000 presentation rows through sclm's store vs Python sqlite3 executemany.

Both sides write the same rows (same generator as `sclm-bench upsert`) into the same schema (a copy of an
empty database migrated by sclm) in one transaction. Python uses the plain `sqlite3` module the way a
script would: `executemany` of the store's own upsert statement, then `commit()`. Best of N each.
Budget: sclm >= 1.5x Python's rows/s.
"""
import shutil
import sqlite3
import time

from run import Result, remove_database

UPSERT = '''INSERT INTO presentations(presentationId, clientId, name, shortDescription, longDescription, imgId,
    thumbImgId, "order", revision, created, updatedDate, debugModeEnabled, skip, lockout, mapEnabled,
    mapType, map, needConfirmation, previewMode, visibility, rawData)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT(presentationId) DO UPDATE SET
    clientId = excluded.clientId, name = excluded.name, shortDescription = excluded.shortDescription,
    longDescription = excluded.longDescription, imgId = excluded.imgId, thumbImgId = excluded.thumbImgId,
    "order" = excluded."order", revision = excluded.revision, created = excluded.created,
    updatedDate = excluded.updatedDate, debugModeEnabled = excluded.debugModeEnabled, skip = excluded.skip,
    lockout = excluded.lockout, mapEnabled = excluded.mapEnabled, mapType = excluded.mapType,
    map = excluded.map, needConfirmation = excluded.needConfirmation, previewMode = excluded.previewMode,
    visibility = excluded.visibility, rawData = excluded.rawData'''


def rows(count, clients=100):
    """The same values as `UpsertBenchmark.record` in Sources/sclm-bench."""
    return [(i, i % clients + 1, f"Presentation {i}", f"Short description {i}", None,
             f"https://example.invalid/images/{i}.png", None, i % 50, i % 7, "2016-12-27T11:06:14.447",
             "2016-12-27T11:09:49.187", 0, 0, 0, 1, 0, None, 1 if i % 2 == 0 else 0, 1, 1, None)
            for i in range(count)]


def python_once(template, path, data):
    remove_database(path)
    shutil.copy(template, path)
    connection = sqlite3.connect(path)
    start = time.perf_counter()
    connection.executemany(UPSERT, data)
    connection.commit()
    elapsed = time.perf_counter() - start
    count = connection.execute("SELECT count(*) FROM presentations").fetchone()[0]
    connection.close()
    assert count == len(data), count
    return elapsed


def sclm_once(ctx, path, count):
    remove_database(path)
    result = ctx.bench_json("upsert", "--db", path, "--rows", str(count))
    assert result["rows"] == count, result
    return result["seconds"]


def run(ctx):
    count = 20_000 if ctx.quick else 100_000
    template = str(ctx.work / "template.db")
    ctx.bench_json("upsert", "--db", template, "--rows", "0")
    data = rows(count)
    swift, python = [], []
    for _ in range(ctx.repeat):
        swift.append(sclm_once(ctx, str(ctx.work / "sclm.db"), count))
        python.append(python_once(template, str(ctx.work / "python.db"), data))
    s, p = min(swift), min(python)
    ratio = p / s
    return [Result(
        name=f"metadata upsert ({count:,} rows)",
        sclm=f"{count / s:,.0f} rows/s", baseline=f"{count / p:,.0f} rows/s (python executemany)",
        ratio=ratio, budget=">= 1.5x", ok=ratio >= 1.5,
        notes=f"best of {ctx.repeat}: sclm {s:.3f}s, python {p:.3f}s")]
