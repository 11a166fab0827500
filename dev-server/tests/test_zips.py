"""Package writers: deterministic folder zips, exact-size stored zips, comment rewrite, damage."""
import io
import pathlib
import shutil
import tempfile
import unittest
import zipfile

from devserver import zips


class ZipWriterTests(unittest.TestCase):
    def setUp(self):
        self.folder = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.folder)

    def make_source(self) -> pathlib.Path:
        source = self.folder / "deck"
        (source / "css").mkdir(parents=True)
        (source / "index.html").write_text("<html>index</html>" * 50)
        (source / "css" / "deck.css").write_text("body { margin: 0 }")
        (source / "presentation.json").write_text("{}")
        (source / ".DS_Store").write_bytes(b"junk")
        return source

    def test_folder_zip_is_deterministic_sorted_and_deflated(self):
        source = self.make_source()
        zips.zip_folder(source, self.folder / "a.zip", "rev 1", exclude=["presentation.json"])
        (source / "index.html").touch()  # a newer mtime must not change the bytes
        zips.zip_folder(source, self.folder / "b.zip", "rev 1", exclude=["presentation.json"])
        self.assertEqual((self.folder / "a.zip").read_bytes(), (self.folder / "b.zip").read_bytes())
        with zipfile.ZipFile(self.folder / "a.zip") as archive:
            self.assertEqual(archive.namelist(), ["css/deck.css", "index.html"])
            self.assertEqual(archive.comment, b"rev 1")
            info = archive.getinfo("index.html")
            self.assertEqual((info.compress_type, info.date_time), (zipfile.ZIP_DEFLATED, zips.FIXED_DATE))
            self.assertLess(info.compress_size, info.file_size)

    def test_stored_zip_size_is_exact(self):
        entries = [("a.html", 10, lambda: [b"x" * 10]), ("b/ü.bin", 3 << 20, lambda: [b"\0" * (1 << 20)] * 3),
                   ("empty", 0, lambda: [])]
        target = self.folder / "stored.zip"
        zips.write_stored_zip(target, entries, "comment ü")
        expected = zips.stored_zip_size([(name, size) for name, size, _ in entries], "comment ü")
        self.assertEqual(target.stat().st_size, expected)
        with zipfile.ZipFile(target) as archive:
            self.assertIsNone(archive.testzip())
            self.assertEqual(archive.namelist(), ["a.html", "b/ü.bin", "empty"])

    def test_stored_zip_refuses_a_wrong_entry_size(self):
        with self.assertRaises(ValueError):
            zips.write_stored_zip(self.folder / "bad.zip", [("a", 5, lambda: [b"123"])], "")
        self.assertEqual(list(self.folder.glob("*.zip")) + list(self.folder.glob(".*.tmp")), [])

    def test_copy_with_comment_changes_only_the_comment(self):
        source = self.make_source()
        zips.zip_folder(source, self.folder / "a.zip", "old comment that is long")
        zips.copy_with_comment(self.folder / "a.zip", self.folder / "b.zip", "new")
        with zipfile.ZipFile(self.folder / "a.zip") as a, zipfile.ZipFile(self.folder / "b.zip") as b:
            self.assertEqual(b.comment, b"new")
            self.assertEqual([(i.filename, i.CRC) for i in a.infolist()], [(i.filename, i.CRC) for i in b.infolist()])
            self.assertIsNone(b.testzip())
        (self.folder / "plain.bin").write_bytes(b"not a zip")
        zips.copy_with_comment(self.folder / "plain.bin", self.folder / "plain2.bin", "r2")
        self.assertEqual((self.folder / "plain2.bin").read_bytes(), b"not a zip\nr2")

    def test_crc_damage_is_seen_with_and_without_data_descriptors(self):
        plain = self.folder / "plain.zip"
        with zipfile.ZipFile(plain, "w") as archive:
            archive.writestr("first.txt", b"hello")
        unseekable = self.folder / "descriptor.zip"
        with open(unseekable, "wb") as raw:
            class Sink(io.RawIOBase):  # not seekable: zipfile writes data descriptors
                def writable(self):
                    return True

                def write(self, data):
                    return raw.write(data)
            with zipfile.ZipFile(Sink(), "w", compression=zipfile.ZIP_DEFLATED) as archive:
                archive.writestr("first.txt", b"hello" * 100)
        with zipfile.ZipFile(unseekable) as archive:
            self.assertTrue(archive.infolist()[0].flag_bits & 0x08)
        for source in (plain, unseekable):
            with self.subTest(source=source.name):
                damaged = self.folder / f"damaged-{source.name}"
                zips.damage(source, damaged, "crc")
                with zipfile.ZipFile(damaged) as archive:
                    self.assertEqual(archive.testzip(), "first.txt")

    def test_truncate_keeps_half(self):
        source = self.make_source()
        zips.zip_folder(source, self.folder / "a.zip", "")
        zips.damage(self.folder / "a.zip", self.folder / "t.zip", "truncate")
        self.assertEqual((self.folder / "t.zip").stat().st_size, (self.folder / "a.zip").stat().st_size // 2)
        with self.assertRaises(ValueError):
            zips.damage(self.folder / "a.zip", self.folder / "x.zip", "melt")
