#!/usr/bin/env python3
"""Reports code repeated across the Swift files of Sources/ and Tests/ (Python 3 standard library only).

A repeat is a block of at least MIN_LINES identical lines, compared with blanks, comments, imports and #if lines
left out and white space collapsed, that occurs in two places. With --change only repeats touching a line changed
since the merge-base with main (committed, staged, unstaged or in a new file) are reported. Exits 1 when any repeat
is reported, 0 otherwise.

    scripts/duplicates.py                 # the whole tree
    scripts/duplicates.py --change        # what this branch added or changed
    scripts/duplicates.py --min-lines 12  # only longer blocks
"""

import argparse
import os
import re
import subprocess
import sys
from collections import defaultdict

MIN_LINES = 8
ROOTS = ["Sources", "Tests"]
HEADER = re.compile(r"(@\w+ )*import |#(if|elseif|else|endif)\b")  # imports and #if canImport: every file's head


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def tracked_and_new(new_only=False):
    """The paths under ROOTS that git knows (unless `new_only`) or that are new and not ignored."""
    which = ["--others", "--exclude-standard"] + ([] if new_only else ["--cached"])
    return [path for path in git("ls-files", "-z", *which, "--", *ROOTS).split("\0") if path]


def code_lines(path):
    """The file's non-blank, non-comment lines, white space collapsed, each with its 1-based line number."""
    lines = []
    with open(path, encoding="utf-8", errors="replace") as file:
        for number, line in enumerate(file, 1):
            text = " ".join(line.split())
            if text and not text.startswith(("//", "/*", "*")) and not HEADER.match(text):
                lines.append((text, number))
    return lines


def changed_lines(base):
    """{path: set of line numbers} added or changed since `base`'s merge-base with HEAD, work tree included."""
    merge_base = git("merge-base", "HEAD", base).strip()
    changed = defaultdict(set)
    path = None
    for line in git("diff", "-U0", "--no-color", merge_base, "--", *ROOTS).splitlines():
        if line.startswith("+++ "):
            path = line[6:] if line.startswith("+++ b/") else None
        elif line.startswith("@@") and path:
            match = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
            if match:
                start, count = int(match[1]), int(match[2] or "1")
                changed[path].update(range(start, start + count))
    for path in tracked_and_new(new_only=True):
        with open(path, "rb") as file:
            changed[path] = set(range(1, 1 + len(file.readlines())))  # a new file: every line is new
    return changed


def blocks(files, windows, size):
    """(path, index, length, first window) of each run of overlapping repeated windows in one file."""
    repeated = {place for places in windows.values() if len(places) > 1 for place in places}
    for path, lines in sorted(files.items()):
        index = 0
        while index < len(lines):
            if (path, index) in repeated:
                end = index
                while (path, end + 1) in repeated:
                    end += 1
                yield path, index, end - index + size, tuple(text for text, _ in lines[index : index + size])
                index = end
            index += 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--change", action="store_true", help="only repeats touching lines changed since main")
    parser.add_argument("--base", default="main", help="the branch --change compares with (default: main)")
    parser.add_argument("--min-lines", type=int, default=MIN_LINES, help=f"block length (default: {MIN_LINES})")
    options = parser.parse_args()
    size = options.min_lines

    files = {path: code_lines(path) for path in tracked_and_new() if path.endswith(".swift") and os.path.isfile(path)}
    windows = defaultdict(list)  # the text of `size` lines -> every (path, index) where it starts
    for path, lines in files.items():
        for index in range(len(lines) - size + 1):
            windows[tuple(text for text, _ in lines[index : index + size])].append((path, index))

    changed = changed_lines(options.base) if options.change else None
    reported, findings = set(), 0
    for path, index, length, key in blocks(files, windows, size):

        def lines_at(place):  # the line numbers a block as long as this one covers at `place`
            lines = files[place[0]][place[1] : place[1] + length]
            return range(lines[0][1], lines[-1][1] + 1)

        touched = changed is None or any(changed[place[0]].intersection(lines_at(place)) for place in windows[key])
        if key not in reported and touched:
            reported.add(key)
            findings += 1
            others = ", ".join(f"{p}:{files[p][i][1]}" for p, i in windows[key] if (p, i) != (path, index))
            here = lines_at((path, index))
            print(f"{path}:{here.start}-{here.stop - 1} ({length} code lines) also at {others}")
    print(f"{findings} repeated block(s) of {size}+ lines" + (" touching this change" if changed is not None else ""))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
