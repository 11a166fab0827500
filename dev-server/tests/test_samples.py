"""sample-content/tools/assemble.py: the sources hold one copy of every file, the assembled decks are complete
(their own files plus the shared ones, byte for byte), and the assembly is idempotent and refuses ambiguity."""
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

from devserver.samples import ASSEMBLER, assembler

from .support import SAMPLE

SOURCE = assembler.SOURCE
SHARED = {"js/storyclm.js": assembler.LIBRARY, "js/deck.js": SOURCE / "shared" / "js" / "deck.js"}


def source_decks() -> list[pathlib.Path]:
    return sorted(path.parent for path in SOURCE.glob("*/presentation.json"))


def files_under(folder: pathlib.Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}


class SampleSourcesTests(unittest.TestCase):
    def test_each_shared_file_has_one_source_in_the_tree(self):
        for name, origin in SHARED.items():
            copies = [path for path in SOURCE.rglob(pathlib.Path(name).name) if path != origin]
            self.assertEqual(copies, [], f"{name} must exist only as {origin}")

    def test_the_decks_that_run_deck_js_list_both_shared_files(self):
        listing = [deck.name for deck in source_decks()
                   if json.loads((deck / "presentation.json").read_text()).get("shared")]
        self.assertGreaterEqual(len(listing), 4, listing)
        for deck in source_decks():
            shared = json.loads((deck / "presentation.json").read_text()).get("shared", [])
            uses_deck_js = any('src="js/deck.js"' in page.read_text(encoding="utf-8") for page in deck.glob("*.html"))
            self.assertEqual(sorted(shared), sorted(SHARED) if uses_deck_js else [], deck.name)


class AssembledSamplesTests(unittest.TestCase):
    def test_every_deck_holds_its_own_files_and_its_shared_files_byte_for_byte(self):
        decks = source_decks()
        self.assertEqual(sorted(path.parent.name for path in SAMPLE.glob("*/presentation.json")),
                         [deck.name for deck in decks])
        for deck in decks:
            shared = json.loads((deck / "presentation.json").read_text()).get("shared", [])
            own = files_under(deck)
            with self.subTest(deck=deck.name):
                self.assertEqual(files_under(SAMPLE / deck.name), own | set(shared))
                for name in own:
                    self.assertEqual((SAMPLE / deck.name / name).read_bytes(), (deck / name).read_bytes(), name)
                for name in shared:
                    self.assertEqual((SAMPLE / deck.name / name).read_bytes(), SHARED[name].read_bytes(), name)
        self.assertEqual((SAMPLE / "clients.json").read_bytes(), (SOURCE / "clients.json").read_bytes())

    def test_the_command_prints_the_folder_and_a_second_run_changes_nothing(self):
        result = subprocess.run([sys.executable, str(ASSEMBLER)], capture_output=True, text=True, check=True)
        self.assertEqual(pathlib.Path(result.stdout.strip()), SAMPLE)
        again = assembler.assemble()
        self.assertEqual((again.path, again.copied, again.removed), (SAMPLE, [], []))


class AssemblyTests(unittest.TestCase):
    """The assembler on small source trees of its own."""

    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = pathlib.Path(folder.name)
        self.source, self.out = self.root / "samples", self.root / "out" / "assembled"
        self.library = self.write("bridge-js/storyclm.js", "/* library */")
        self.write("samples/clients.json", "[]")
        self.write("samples/shared/js/deck.js", "/* deck */")
        self.write("samples/one/presentation.json", json.dumps({"shared": ["js/storyclm.js", "js/deck.js"]}))
        self.write("samples/one/index.html", "<p>one</p>")
        self.write("samples/two/presentation.json", "{}")
        self.write("samples/two/index.html", "<p>two</p>")
        self.write("samples/two/.DS_Store", "x")

    def write(self, relative: str, text: str) -> pathlib.Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    def assemble(self):
        return assembler.assemble(self.source, self.library, self.out)

    def test_assembles_own_and_shared_files_without_dot_files(self):
        self.assertEqual(sorted(self.assemble().copied),
                         ["clients.json", "one/index.html", "one/js/deck.js", "one/js/storyclm.js",
                          "one/presentation.json", "two/index.html", "two/presentation.json"])
        self.assertEqual((self.out / "one/js/storyclm.js").read_text(), "/* library */")
        self.assertEqual((self.out / "one/js/deck.js").read_text(), "/* deck */")
        self.assertFalse((self.out / "two/js").exists())

    def test_copies_only_what_changed_and_removes_what_no_source_gives(self):
        self.assemble()
        self.assertEqual((self.assemble().copied, self.assemble().removed), ([], []))
        self.write("samples/shared/js/deck.js", "/* deck, edited */")
        (self.source / "two" / "index.html").unlink()
        self.write("samples/two/slide.html", "<p>2</p>")
        result = self.assemble()
        self.assertEqual(sorted(result.copied), ["one/js/deck.js", "two/slide.html"])
        self.assertEqual(result.removed, ["two/index.html"])
        self.assertEqual((self.out / "one/js/deck.js").read_text(), "/* deck, edited */")
        (self.source / "two" / "presentation.json").unlink()
        self.assertEqual(self.assemble().removed, ["two/presentation.json", "two/slide.html"])
        self.assertFalse((self.out / "two").exists())

    def test_a_deck_copy_of_a_shared_file_is_refused(self):
        self.write("samples/one/js/deck.js", "/* a second source */")
        with self.assertRaisesRegex(assembler.AssemblyError, r"one/js/deck.js is a shared file .*one source per file"):
            self.assemble()
        self.assertFalse(self.out.exists())

    def test_an_unknown_shared_name_is_refused_with_the_known_ones(self):
        self.write("samples/two/presentation.json", json.dumps({"shared": ["js/missing.js"]}))
        with self.assertRaisesRegex(assembler.AssemblyError, r"no shared file 'js/missing.js' .*js/deck.js"):
            self.assemble()

    def test_a_second_source_of_the_library_is_refused(self):
        self.write("samples/shared/js/storyclm.js", "/* copy */")
        with self.assertRaisesRegex(assembler.AssemblyError, "js/storyclm.js comes from"):
            self.assemble()

    def test_a_folder_it_did_not_make_is_never_rewritten(self):
        self.write("out/assembled/notes.txt", "mine")
        with self.assertRaisesRegex(assembler.AssemblyError, "not empty and was not made by"):
            self.assemble()
        self.assertEqual((self.out / "notes.txt").read_text(), "mine")


if __name__ == "__main__":
    unittest.main()
