"""Bridge round trips: `sclm bridge` vs NDJSON echo hosts in Node (JSON.parse/JSON.stringify per line, the
baseline) and Python (json.loads/json.dumps per line, reported).

Throughput: N requests with 64 in flight (a sliding window: a new request is written for each answer
read), for `bridge.ping` and for `getCurrentSlideName` (a real StoryCLM command through the module
registry, the ordered lane and the presentation state). The driver only counts newlines while timing;
every answer is checked afterwards (valid JSON, each GUID exactly once, ErrorCode 200).
Latency: requests at a steady 1,000 msg/s, one at a time on a schedule; p50/p99 from write to answer.
Budgets: >= 3x the Node echo host's messages/s for bridge.ping and >= 2x for getCurrentSlideName; p99 <= 0.2 ms
at 1k msg/s.

Usage alone: python3 bench/bench_bridge.py [--quick] (needs a release build of sclm).
"""
import json
import os
import pathlib
import select
import sqlite3
import subprocess
import sys
import tempfile
import time

from run import Result

WINDOW = 64

PYTHON_ECHO = r'''
import json, sys
out = sys.stdout
for line in sys.stdin:
    message = json.loads(line)
    out.write(json.dumps({"GUID": message.get("GUID"), "Status": "Success", "ErrorCode": 200,
                          "ErrorMessage": "", "Data": {"slide": "index.html"}}) + "\n")
    out.flush()
'''

NODE_ECHO = r'''
const readline = require("readline");
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
    const message = JSON.parse(line);
    process.stdout.write(JSON.stringify({ GUID: message.GUID ?? null, Status: "Success", ErrorCode: 200,
                                          ErrorMessage: "", Data: { slide: "index.html" } }) + "\n");
});
'''


def make_home(root: pathlib.Path, sclm: str) -> str:
    """A home with one installed presentation (client 1, presentation 10, three slides)."""
    home = root / "bench-home"
    subprocess.run([sclm, "--home", str(home), "status"], check=True, capture_output=True)
    db = sqlite3.connect(home / "sclm.db")
    db.execute("INSERT INTO clients(clientId, name) VALUES (1, 'Bench')")
    db.execute("""INSERT INTO presentations(presentationId, clientId, name, revision, syncState, installedRevision)
                  VALUES (10, 1, 'Bench deck', 3, 5, 3)""")
    for position, name in enumerate(["index.html", "slide1.html", "slide2.html"]):
        db.execute("INSERT INTO slides(slideId, presentationId, position, name) VALUES (?, 10, ?, ?)",
                   (100 + position, position, name))
    db.commit()
    db.close()
    sources = home / "content" / "1" / "10" / "sources"
    sources.mkdir(parents=True)
    for name in ["index.html", "slide1.html", "slide2.html"]:
        (sources / name).write_text(f"<html><body>{name}</body></html>\n")
    return str(home)


def requests(command: str, count: int) -> list:
    return [('{"Command":"%s","Data":{},"GUID":"g%d"}\n' % (command, i)).encode() for i in range(count)]


def throughput(argv: list, lines: list, skip_events: int = 0) -> tuple:
    """Sends `lines` keeping WINDOW in flight; returns (seconds, all output bytes)."""
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               bufsize=0)
    out_fd, in_fd = process.stdout.fileno(), process.stdin.fileno()
    chunks = []
    expected_lines = len(lines) + skip_events
    # Wait for start-up events (the host's presentationOpened/slideChanged) before timing.
    seen = 0
    while seen < skip_events:
        chunk = os.read(out_fd, 1 << 16)
        chunks.append(chunk)
        seen += chunk.count(b"\n")
    start = time.perf_counter()
    sent = min(WINDOW, len(lines))
    os.write(in_fd, b"".join(lines[:sent]))
    while seen < expected_lines:
        chunk = os.read(out_fd, 1 << 18)
        if not chunk:
            raise RuntimeError("the host closed its output early")
        chunks.append(chunk)
        seen += chunk.count(b"\n")
        answered = seen - skip_events
        room = min(len(lines), answered + WINDOW) - sent
        if room > 0:
            os.write(in_fd, b"".join(lines[sent:sent + room]))
            sent += room
    elapsed = time.perf_counter() - start
    process.stdin.close()
    process.wait(timeout=30)
    return elapsed, b"".join(chunks)


def check_answers(output: bytes, count: int):
    guids = set()
    for line in output.splitlines():
        message = json.loads(line)
        if "Event" in message:
            continue
        assert message["ErrorCode"] == 200, message
        assert message["GUID"] not in guids, message
        guids.add(message["GUID"])
    assert len(guids) == count, (len(guids), count)


def latency(argv: list, command: str, count: int, rate: int = 1000, skip_events: int = 0) -> tuple:
    """Sends `count` requests at `rate`/s, one at a time; returns (p50 ms, p99 ms)."""
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               bufsize=0)
    out_fd, in_fd = process.stdout.fileno(), process.stdin.fileno()
    buffered = b""
    seen = 0
    while seen < skip_events:
        buffered += os.read(out_fd, 1 << 16)
        seen = buffered.count(b"\n")
    buffered = b""
    lines = requests(command, count)
    sent_at = {}
    samples = []
    interval = 1.0 / rate
    start = time.perf_counter()
    next_send = start
    index = 0
    while len(samples) < count:
        now = time.perf_counter()
        if index < count and now >= next_send:
            sent_at[index] = time.perf_counter()
            os.write(in_fd, lines[index])
            index += 1
            next_send = start + index * interval
            continue
        timeout = max(0.0, next_send - now) if index < count else 1.0
        ready, _, _ = select.select([out_fd], [], [], timeout)
        if ready:
            chunk = os.read(out_fd, 1 << 16)
            received = time.perf_counter()
            buffered += chunk
            *complete, buffered = buffered.split(b"\n")
            for line in complete:
                guid = json.loads(line)["GUID"]
                samples.append((received - sent_at[int(guid[1:])]) * 1000)
    process.stdin.close()
    process.wait(timeout=30)
    samples.sort()
    return samples[len(samples) // 2], samples[int(len(samples) * 0.99) - 1]


def run(ctx):
    count = 20_000 if ctx.quick else 200_000
    home = make_home(ctx.work, ctx.sclm)
    sclm = [ctx.sclm, "--home", home, "bridge", "--presentation", "10"]
    python = [sys.executable, "-c", PYTHON_ECHO]
    node = ["node", "-e", NODE_ECHO]
    results = []
    best = {}
    for name, command, budget in [("bridge.ping", "bridge.ping", 3.0), ("getCurrentSlideName", "getCurrentSlideName", 2.0)]:
        lines = requests(command, count)
        sclm_times, node_times, python_times = [], [], []
        for _ in range(ctx.repeat):
            for argv, times, events in ((sclm, sclm_times, 2), (node, node_times, 0), (python, python_times, 0)):
                seconds, output = throughput(argv, lines, skip_events=events)
                check_answers(output, count)
                times.append(seconds)
        s, n, p = min(sclm_times), min(node_times), min(python_times)
        best[name] = (count / s, count / p)
        ratio = n / s
        results.append(Result(
            name=f"bridge {name} x{count:,}, {WINDOW} in flight",
            sclm=f"{count / s:,.0f} msg/s",
            baseline=f"{count / n:,.0f} msg/s (node echo); python {count / p:,.0f} msg/s",
            ratio=ratio, budget=f">= {budget:g}x node", ok=ratio >= budget,
            notes=f"best of {ctx.repeat}: sclm {s:.3f}s, node {n:.3f}s, python {p:.3f}s; {p / s:.1f}x python"))
    lines = 20_000 if ctx.quick else 100_000
    parse = ctx.bench_json("json", "--lines", str(lines))
    foundation = min(parse["serialization"], parse["codable"])
    results.append(Result(
        name=f"bridge message JSON parse+encode x{lines:,} (JSONParser/JSONWriter)",
        sclm=f"{lines / parse['parser']:,.0f} msg/s",
        baseline=f"{lines / parse['serialization']:,.0f} JSONSerialization, {lines / parse['codable']:,.0f} JSONDecoder/Encoder",
        ratio=foundation / parse["parser"], budget="informs the parser choice", ok=True,
        notes="Foundation on Linux, same message, same run"))
    latency_count = 2_000 if ctx.quick else 10_000
    p50, p99 = latency(sclm, "getCurrentSlideName", latency_count, skip_events=2)
    py50, py99 = latency(python, "getCurrentSlideName", latency_count)
    results.append(Result(
        name=f"bridge latency at 1,000 msg/s ({latency_count:,} getCurrentSlideName)",
        sclm=f"p50 {p50:.3f} ms, p99 {p99:.3f} ms", baseline=f"python p50 {py50:.3f} ms, p99 {py99:.3f} ms",
        ratio=0.2 / p99 if p99 > 0 else 0.0, budget="p99 <= 0.2 ms", ok=p99 <= 0.2,
        notes="ratio = 0.2 ms / sclm p99"))
    return results


if __name__ == "__main__":
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    import run as harness
    with tempfile.TemporaryDirectory(prefix="sclm-bench-") as work:
        release = harness.build_release()
        context = harness.Context(root=harness.ROOT, release_dir=release, work=pathlib.Path(work),
                                  quick="--quick" in sys.argv)
        harness.print_table(run(context))
