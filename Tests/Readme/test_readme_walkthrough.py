"""The README's "Try it by hand" tour, run as a user would: every fenced block marked ```` ```sh walkthrough ````,
in order, in one bash with `set -euo pipefail`, from the root of the checkout, against a fresh dev-server.

What the test changes in the blocks, and only that: the `.build/release` the tour puts on PATH becomes the folder
of the built `sclm` under test (`SCLM_BINARY`, default `.build/debug/sclm`). The tour's dev-server takes a free port
and the tour reads the URL it prints, so a port someone else holds never sends it to another backend. HOME is a
temporary folder, so the tour's `$HOME/sclm-tour` home is fresh and private.
Run: `python3 -m unittest discover -s Tests/Readme -t Tests/Readme -v` (after `swift build`, as `make test` does).
"""

import os
import pathlib
import re
import shutil
import signal
import subprocess
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SCLM = pathlib.Path(os.environ.get("SCLM_BINARY", ROOT / ".build/debug/sclm"))
MARKER = "::walkthrough-block "


def walkthrough_blocks(text: str) -> list[str]:
    """The bodies of the fenced blocks whose info string is `sh walkthrough`, in order."""
    return [m.group(1) for m in re.finditer(r"^```sh walkthrough\n(.*?)^```$", text, re.S | re.M)]


class ReadmeWalkthroughTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not SCLM.exists():
            raise unittest.SkipTest(f"{SCLM} is not built (swift build)")
        cls.text = README.read_text()
        cls.blocks = walkthrough_blocks(cls.text)

    def test_the_tour_reads_the_dev_servers_url_and_names_the_demo_credentials(self):
        self.assertGreaterEqual(len(self.blocks), 6, "the README lost its walkthrough blocks")
        tour = "\n".join(self.blocks)
        self.assertNotIn("--port", tour, "a fixed port can be someone else's backend")
        self.assertNotRegex(tour, r"127\.0\.0\.1:\d", "the tour uses the URL the dev-server prints")
        self.assertIn('SCLM_API_URL="$DEV_URL"', tour)
        self.assertIn("sclm bridge --presentation 101", tour)

    def test_the_readme_stays_a_guide_and_leaves_the_reference_to_docs(self):
        self.assertLess(len(self.text.splitlines()), 250, "the README is a guide; put reference material in docs/")
        for page in ("cli", "bridge", "validation", "osam", "analytics", "data", "security", "fleet"):
            self.assertIn(f"(docs/{page}.md", self.text, f"the README does not link docs/{page}.md")
            self.assertTrue((ROOT / "docs" / f"{page}.md").exists(), f"docs/{page}.md is missing")

    def test_every_walkthrough_block_runs_in_order_and_succeeds(self):
        home = pathlib.Path(tempfile.mkdtemp(prefix="sclm-readme-"))
        self.addCleanup(shutil.rmtree, home, ignore_errors=True)
        script = ["set -euo pipefail"]
        for index, block in enumerate(self.blocks):
            block = block.replace('"$PWD/.build/release:', f'"{SCLM.parent}:')
            script += [f"echo '{MARKER}{index}'", f"echo '{MARKER}{index}' >&2", block]
        script.append(f"echo '{MARKER}end'")
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCLM_")}
        env.update(HOME=str(home), NO_COLOR="1")
        # Files, not pipes: a dev-server left running by a failed block keeps its copies of them open.
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            process = subprocess.Popen(["bash", "-c", "\n".join(script)], cwd=ROOT, env=env, text=True,
                                       stdout=out, stderr=err, start_new_session=True)
            try:
                process.wait(timeout=300)
            finally:
                try:  # the dev-server the tour starts in the background, if a block failed before `kill %1`
                    os.killpg(process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
            out.seek(0)
            err.seek(0)
            stdout, stderr = out.read(), err.read()
        outputs = re.split(rf"^{MARKER}\S+\n", stdout, flags=re.M)[1:]
        if process.returncode != 0 or len(outputs) != len(self.blocks) + 1:
            failed = re.findall(rf"^{MARKER}(\S+)$", stderr, re.M)
            where = f"block {failed[-1]}:\n{self.blocks[int(failed[-1])]}" if failed else "before the first block"
            self.fail(f"the README walkthrough failed (exit {process.returncode}) in {where}\n"
                      f"stdout:\n{stdout}\nstderr:\n{stderr}")
        by_command = dict(zip((b.strip().splitlines()[-1] for b in self.blocks), outputs))
        tour = "".join(outputs)
        self.assertIn("Logged in to", tour)
        self.assertIn("Synced 1 client, 3 presentation(s)", tour)
        for slide in ("index.html", "efficacy.html", "dosage.html", "safety.html", "references.html"):
            self.assertIn(slide, tour)
        bridge = next(out for cmd, out in by_command.items() if "sclm bridge" in cmd)
        self.assertIn('"GUID":"g1","Status":"Success","ErrorCode":200,"ErrorMessage":"","Data":{"slide":"index.html"}',
                      bridge)
        self.assertIn('"GUID":"g3","Status":"Success","ErrorCode":200,"ErrorMessage":"","Data":{"slide":"dosage.html"}',
                      bridge)
        self.assertIn("1 package checked: 1 passed", tour)
        self.assertFalse((home / "sclm-tour").exists(), "the clean-up block left the home behind")


if __name__ == "__main__":
    unittest.main()
