"""sample-content/ is a set of real, self-contained CLM decks: every local reference exists with exact
case, swipe targets exist, nothing remote is loaded, media files are listed, and the binary assets are
valid PNG and PDF files."""
import json
import pathlib
import re
import struct
import unittest
import zlib
from html.parser import HTMLParser

from .support import SAMPLE

CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")
EXTERNAL = ("tel:", "mailto:", "#")


class _References(HTMLParser):
    def __init__(self):
        super().__init__()
        self.references: list[str] = []
        self.meta: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        for name in ("src", "href"):
            if values.get(name):
                self.references.append(values[name])
        if values.get("style"):
            self.references.extend(CSS_URL.findall(values["style"]))
        if tag == "meta" and values.get("name"):
            self.meta[values["name"]] = values.get("content") or ""


def decks() -> list[pathlib.Path]:
    return sorted(path.parent for path in SAMPLE.glob("*/presentation.json"))


def exists_exactly(root: pathlib.Path, base: pathlib.Path, reference: str) -> bool:
    """True when reference (relative to base) names a file inside root, with exact case."""
    target = (base / reference.split("#")[0].split("?")[0]).resolve()
    if root.resolve() not in target.parents:
        return False
    relative = target.relative_to(root.resolve())
    current = root.resolve()
    for part in relative.parts:
        if part not in {child.name for child in current.iterdir()}:
            return False
        current = current / part
    return current.is_file()


class SampleContentTests(unittest.TestCase):
    def test_clients_and_decks(self):
        clients = json.loads((SAMPLE / "clients.json").read_text())
        self.assertEqual(clients[0]["id"], 1)
        self.assertEqual(clients[0]["name"], "Demo Pharma")
        demo_decks = [deck for deck in decks() if json.loads((deck / "presentation.json").read_text())["clientId"] == 1]
        self.assertGreaterEqual(len(demo_decks), 3)
        for deck in demo_decks:
            slides = list(deck.glob("*.html"))
            self.assertGreaterEqual(len(slides), 4, deck.name)
            self.assertTrue(list((deck / "css").glob("*.css")), deck.name)
            self.assertTrue(list((deck / "img").glob("*.png")), deck.name)
            self.assertTrue(list((deck / "mediafiles").iterdir()), deck.name)

    def test_every_local_reference_exists_and_nothing_is_remote(self):
        for deck in decks():
            for page in sorted(deck.rglob("*.html")) + sorted(deck.rglob("*.css")):
                text = page.read_text(encoding="utf-8")
                if page.suffix == ".css":
                    references = CSS_URL.findall(text)
                else:
                    parser = _References()
                    parser.feed(text)
                    references = parser.references
                for reference in references:
                    with self.subTest(page=str(page.relative_to(SAMPLE)), reference=reference):
                        self.assertFalse(reference.startswith(("http:", "https:", "//")), "remote resource")
                        if not reference.startswith(EXTERNAL):
                            self.assertTrue(exists_exactly(deck, page.parent, reference), "missing file")

    def test_swipe_targets_exist_and_index_is_the_start(self):
        for deck in decks():
            slides = {page.name for page in deck.glob("*.html")}
            self.assertIn("index.html", slides, deck.name)
            for page in deck.glob("*.html"):
                parser = _References()
                parser.feed(page.read_text(encoding="utf-8"))
                for name in ("clm-swipe-next", "clm-swipe-previous"):
                    target = parser.meta.get(name)
                    if target:
                        self.assertIn(target, slides, f"{deck.name}/{page.name} {name}")

    def test_listed_media_files_exist(self):
        for deck in decks():
            meta = json.loads((deck / "presentation.json").read_text())
            for media in meta.get("mediaFiles", []):
                self.assertTrue((deck / "mediafiles" / media["fileName"]).is_file(), media)

    def test_png_files_are_valid(self):
        pngs = sorted(SAMPLE.rglob("*.png"))
        self.assertGreater(len(pngs), 10)
        for path in pngs:
            with self.subTest(png=str(path.relative_to(SAMPLE))):
                data = path.read_bytes()
                self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
                position, kinds, idat = 8, [], b""
                while position < len(data):
                    (length,) = struct.unpack(">I", data[position:position + 4])
                    kind = data[position + 4:position + 8]
                    body = data[position + 8:position + 8 + length]
                    (crc,) = struct.unpack(">I", data[position + 8 + length:position + 12 + length])
                    self.assertEqual(zlib.crc32(kind + body), crc)
                    kinds.append(kind)
                    idat += body if kind == b"IDAT" else b""
                    position += 12 + length
                self.assertEqual((kinds[0], kinds[-1]), (b"IHDR", b"IEND"))
                width, height = struct.unpack(">II", data[16:24])
                self.assertEqual(len(zlib.decompress(idat)), height * (1 + width * 4))

    def test_pdf_files_have_a_correct_cross_reference_table(self):
        pdfs = sorted(SAMPLE.rglob("*.pdf"))
        self.assertGreaterEqual(len(pdfs), 3)
        for path in pdfs:
            with self.subTest(pdf=path.name):
                data = path.read_bytes()
                self.assertTrue(data.startswith(b"%PDF-1."))
                self.assertTrue(data.rstrip().endswith(b"%%EOF"))
                start = int(re.search(rb"startxref\s+(\d+)", data).group(1))
                self.assertEqual(data[start:start + 4], b"xref")
                for number, match in enumerate(re.finditer(rb"(\d{10}) 00000 n", data), start=1):
                    offset = int(match.group(1))
                    self.assertTrue(data[offset:].startswith(f"{number} 0 obj".encode()))
