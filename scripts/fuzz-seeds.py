#!/usr/bin/env python3
"""Writes the text seeds of the fuzz corpus into Tests/Fuzz/Corpus/<target>/ (run once when they change).

The PNG seeds are small pictures of each colour type, depth and interlace, and headers and data that lie.
The zip seeds are small packages built with Python's zipfile and then edited as the archive tests' hostile
zips are (traversal, absolute and control-character names, symlinks, duplicates, ZIP64 records, encryption
and other methods, a long comment, truncation). Inputs that libFuzzer kept are not written here.
"""
import io
import json
import pathlib
import struct
import zipfile
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "Tests" / "Fuzz" / "Corpus"
SAMPLES = ROOT / "sample-content"


def write(target, name, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())


def sample_files(suffixes, limit):
    files = sorted(p for p in SAMPLES.rglob("*") if p.suffix in suffixes and p.stat().st_size < 12_000)
    return files[:limit]


def json_seeds():
    docs = {
        "message": '{"Command":"getPresentation","Data":{"id":101},"GUID":"a-1"}',
        "numbers": "[0,-0,1.5e-400,1e400,9223372036854775807,-9223372036854775808,9223372036854775808,"
        "-9223372036854775809,18446744073709551616,0.1,1E+2]",
        "strings": r'["\u00e9\ud83d\ude00","\ud800x","\udc00","\"\\\/\b\f\n\r\t",""]',
        "deep": "[" * 600 + "]" * 600,
        "keys": '{"a":1,"a":2,"A":{"b":[true,false,null]}}',
        "bad": '{"a":01,"b":[1,],"c":tru}',
    }
    for name, text in docs.items():
        write("json", name + ".json", text)
    for path in sorted(SAMPLES.glob("*.json")):
        if path.stat().st_size < 20_000:
            write("json", "sample-" + path.name, path.read_bytes())


def config_seeds():
    write("config", "settings.json", json.dumps({
        "api.url": "https://api.example.com", "http.retries": "3", "http.connectTimeout": "10",
        "bridge.latitude": "55.75", "http.noProxy": "localhost,.internal", "osam.platform": "android",
        "bridge.httpAllowedHosts": "example.com,10.0.0.0/8",
    }))
    write("config", "types.json", '{"http.retries":3,"bridge.latitude":55.5,"app.name":true,"x":null}')
    write("config", "empty.json", "{}")
    write("config", "not-object.json", "[1,2]")


def bridge_seeds():
    lines = [
        '{"Command":"getPresentation","Data":{},"GUID":"1"}',
        '[{"Command":"a","GUID":"2"},{"command":"b"},3]',
        '{"COMMAND":" openMediaLibrary ","DATA":null,"guid":null}',
        '{"Command":"x","Command":"y"}',
        '{"Command":"x","GUID":"bad guid!"}',
        "\t \r",
        "42",
    ]
    write("bridge", "messages.ndjson", bytes([255, 0]) + "\n".join(lines).encode() + b"\n")
    write("bridge", "small-reads.ndjson", bytes([3, 1]) + "\r\n".join(lines).encode())
    write("bridge", "not-utf8.ndjson", bytes([255, 7]) + b'{"Command":"\xff\xfe"}\n{"Command":"ok"}')


def devtools_seeds():
    messages = [
        '{"id":1,"result":{"targetId":"T"}}',
        '{"id":2,"error":{"code":-32000,"message":"No target"}}',
        '{"id":3,"error":"plain"}',
        '{"method":"Page.loadEventFired","sessionId":"S1","params":{"timestamp":1.5}}',
        '{"method":"Target.attachedToTarget","params":{}}',
        '{"id":9007199254740993.0}',
        '{"method":"Runtime.exceptionThrown","params":{"exceptionDetails":{"text":"Uncaught","lineNumber":9223372036854775807,'
        '"exception":{"description":"TypeError: x\\n at y"},"stackTrace":{"callFrames":[{"url":"a.js","lineNumber":3}]}}}}',
        '{"method":"Runtime.consoleAPICalled","params":{"type":"error","args":[{"value":"a"},{"description":"b"},'
        '{"value":{"k":1}}],"stackTrace":{"callFrames":[{"url":"b.js","lineNumber":-1}]}}}',
    ]
    write("devtools", "pipe.bin", "\0".join(messages).encode() + b"\0")


def http_seeds():
    blocks = {
        "partial": "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 100-199/200\r\nETag: \"abc\"\r\n"
        "Content-Length: 100\r\n",
        "redirect": "HTTP/1.1 302 Found\r\nLocation: https://other.example.net:8443/p?q=1#f\r\n"
        "Authorization: Bearer x\r\nCookie: a=b\r\nContent-Type: application/json\r\n",
        "relative": "HTTP/2 301\r\nlocation: ../x/../../y\r\n",
        "retry": "HTTP/1.1 503\r\nRetry-After: 120\r\nHTTP/1.1 429\r\nRetry-After: Tue, 14 Nov 2023 22:13:30 GMT\r\n",
        "range": "GET\nRange: bytes=-500\nContent-Length: 1000\n",
        "huge": "Content-Range: bytes 9223372036854775806-9223372036854775807/9223372036854775807\n"
        "Range: bytes=9223372036854775000-\nContent-Length: 9223372036854775807\n",
        "unsatisfied": "HTTP/1.1 416\r\nContent-Range: bytes */512\r\nBad\rValue: x\r\n",
    }
    for name, text in blocks.items():
        write("http", name + ".txt", text)


def resume_seeds():
    write("resume", "record.json", bytes([101]) + b'{"blobId":"b1","entityTag":"\\"e1\\"","fileSize":100}')
    write("resume", "huge.json", bytes([255]) + b'{"blobId":null,"entityTag":"W/x","fileSize":9223372036854775807}')
    write("resume", "negative.json", bytes([0]) + b'{"entityTag":"","fileSize":-5}')


def network_rule_seeds():
    rules = {
        "names": "api.example.com, *.cdn.example.com, 127.0.0.1:8080, 10.0.0.0/8",
        "v6": "[::1]:443,fe80::/10,::ffff:10.0.0.1,2001:db8::/129",
        "odd": "*.,*,:80,example.com:99999,10.0.0.0/33,  ,,xn--bcher-kva.de",
    }
    for name, text in rules.items():
        write("network-rule", name + ".txt", text)


def content_seeds():
    kinds = {".html": 0, ".css": 2, ".js": 3}
    for path in sample_files({".html", ".css", ".js"}, 12):
        kind = kinds[path.suffix]
        name = f"{path.parent.name}-{path.name}"
        write("content", name, bytes([kind, 63]) + path.read_bytes())
    write("content", "swipes.html", bytes([1, 0]) + b'<meta name="clm-swipe-next" content="../b.html">'
          b'<meta name=clm-swipe-previous content=x><img src="a b%20c.png?x#y"><a href="//evil">x</a>'
          b"<script>StoryCLM.Presentation.Open()</script><style>a{background:url('../../up.png')}</style>")
    write("content", "urls.css", bytes([2, 4]) + b'@import "a.css";a{b:url(x.png) url( "y.png" )}/* url(z) */'
          b'\\75rl(q.png)@import url(\'c.css\') screen;')


def slide_meta_seeds():
    for path in sample_files({".html"}, 6):
        write("slide-meta", f"{path.parent.name}-{path.name}", path.read_bytes())
    write("slide-meta", "entities.html", '<META NAME="CLM-SWIPE-NEXT" CONTENT=" &lt;a&amp;b&#x41;&#65; ">'
          '<meta name="clm-swipe-previous"><meta name="clm-swipe-next" content="second">')


def folder_seeds():
    for deck in ["northwind-draft", "glucobalance-congress"]:
        pieces = []
        for path in sorted((SAMPLES / deck).rglob("*")):
            if path.is_file() and path.suffix in {".html", ".css", ".js"} and path.stat().st_size < 12_000:
                relative = path.relative_to(SAMPLES / deck).as_posix()
                pieces.append(relative.encode() + b"\n" + path.read_bytes())
        write("folder", deck + ".bin", b"\0".join(pieces[:8]))
    write("folder", "missing.bin", b'index.html\n<img src="gone.png"><a href="sub/x.html">\0sub/X.html\n\0css/a.css\n'
          b"a{b:url(../nope.png)}")


DECK = [
    ("index.html", b'<html><head><meta name="clm-swipe-next" content="b.html"></head><body>'
     b'<img src="img/a.png"><link rel="stylesheet" href="css/m.css"><script src="js/storyclm.js"></script>'
     b"</body></html>"),
    ("b.html", b'<meta name="clm-swipe-previous" content="index.html"><a href="index.html">back</a>'),
    ("css/m.css", b"body{background:url(../img/a.png)}"),
    ("js/storyclm.js", b"window.StoryCLM = {};"),
    ("img/a.png", bytes(range(256)) * 4),
]


def build_zip(entries=DECK, compression=zipfile.ZIP_DEFLATED, comment=b"", zip64=False, edit=None):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        archive.comment = comment
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = compression
            if name.endswith("/link"):
                info.external_attr = (0o120777 << 16)
            with archive.open(info, "w", force_zip64=zip64) as handle:
                handle.write(data)
    data = bytearray(buffer.getvalue())
    if edit:
        edit(data)
    return bytes(data)


def patch_all(data, signature, offset, value, fmt):
    start = 0
    while (start := data.find(signature, start)) >= 0:
        struct.pack_into(fmt, data, start + offset, value)
        start += 4


def zip_seeds():
    seeds = {
        "valid": build_zip(),
        "stored": build_zip(compression=zipfile.ZIP_STORED),
        "bzip2": build_zip(DECK[:2], compression=zipfile.ZIP_BZIP2),
        "lzma": build_zip(DECK[:2], compression=zipfile.ZIP_LZMA),
        "zip64": build_zip(DECK[:3], zip64=True),
        "comment": build_zip(DECK[:2], comment=b"c" * 20_000),
        "names": build_zip([("../evil.html", b"x"), ("/abs.html", b"x"), ("a\x01b.html", b"x"),
                            ("dup.html", b"1"), ("DUP.html", b"2"), ("img/link", b"/etc"), ("d/", b"")]),
        "encrypted-flag": build_zip(DECK[:2], edit=lambda d: patch_all(d, b"PK\x01\x02", 8, 1, "<H")),
        "bad-crc": build_zip(DECK[:2], edit=lambda d: patch_all(d, b"PK\x01\x02", 16, 0xDEADBEEF, "<I")),
        "huge-size": build_zip(DECK[:2], edit=lambda d: patch_all(d, b"PK\x01\x02", 24, 0xFFFFFFF0, "<I")),
        "zip64-max": build_zip(DECK[:2], zip64=True,
                               edit=lambda d: patch_all(d, b"\x01\x00\x10\x00", 4, 0xFFFFFFFFFFFFFFFF, "<Q")),
        "truncated": build_zip()[:700],
        "empty": build_zip([]),
    }
    for name, data in seeds.items():
        for target in ("zip", "delta-directory"):  # the delta path parses the same zips from fetched ranges
            write(target, name + ".zip", data)


def png(width, height, color_type=6, depth=8, rows=None, interlace=0, edit=None):
    """A PNG of `width` x `height`: IHDR, one IDAT of `rows` (default: filter 0, a gradient) and IEND."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    row_bytes = (width * channels * depth + 7) // 8
    raw = rows if rows is not None else b"".join(
        bytes([y % 5]) + bytes((x * 7 + y) % 256 for x in range(row_bytes)) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, interlace)
    palette = chunk(b"PLTE", bytes(range(48))) if color_type == 3 else b""
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + palette + chunk(b"IDAT", zlib.compress(raw)) + \
        chunk(b"IEND", b"")
    return edit(data) if edit else data


def png_seeds():
    seeds = {
        "rgba": png(16, 12), "rgb": png(9, 7, color_type=2), "grey": png(5, 5, color_type=0),
        "grey-alpha": png(6, 3, color_type=4), "palette": png(8, 8, color_type=3, depth=4),
        "rgba16": png(4, 4, depth=16), "interlaced": png(13, 11, interlace=1), "one-pixel": png(1, 1),
        "huge-header": png(100000, 100000, rows=b""), "wide-header": png(9000, 1, rows=b""),
        "short-data": png(32, 32, rows=b"\x00" * 10), "truncated": png(16, 16)[:60],
        "bad-crc": png(8, 8, edit=lambda d: d[:29] + b"\xff" + d[30:]), "not-png": b"GIF89a" + bytes(40),
    }
    for name, data in seeds.items():
        write("png", name + ".png", data)


if __name__ == "__main__":
    for seeds in [json_seeds, config_seeds, bridge_seeds, devtools_seeds, http_seeds, resume_seeds,
                  network_rule_seeds, content_seeds, slide_meta_seeds, folder_seeds, zip_seeds, png_seeds]:
        seeds()
