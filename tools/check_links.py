#!/usr/bin/env python3
"""tools/check_links.py — every relative link of the project's markdown resolves.

Checks README.md, bench/README.md and docs/*.md (or the files given): each
[text](target) and ![alt](target) that is not a URL must name a file or
directory that exists, relative to the file that links, and a #anchor must
be a heading of the target file, slugged as GitHub slugs headings (lower
case, punctuation dropped, spaces to hyphens, -1, -2... for repeats).
Links inside code blocks and code spans are not links. Prints each broken
link as file:line: target (why) and exits 1 if there is one.
Only the Python standard library is used; nothing runs it automatically.

    tools/check_links.py                  # the default files
    tools/check_links.py docs/04-blocking.md
"""

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1)(?!\n\s*\n)[\s\S])+?\1")  # within a paragraph


def prose(text):
    """The text with fenced code blocks and code spans blanked (newlines kept,
    so offsets still give line numbers): what is left is prose, where a link
    may run over a line break."""
    out, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            out.append("")
        else:
            out.append("" if fenced else line)
    return CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), "\n".join(out))


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)  # \w keeps letters of every script, digits, _
    return s.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen, found = {}, set()
        fenced = False
        for line in path.read_text(encoding="utf-8").splitlines():
            if FENCE.match(line):
                fenced = not fenced
                continue
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if fenced or not m:
                continue
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            found.add(s if n == 0 else "%s-%d" % (s, n))
        cache[path] = found
    return cache[path]


def shown(path):
    return path.relative_to(REPO) if path.is_relative_to(REPO) else path


def check(md):
    broken = []
    text = prose(md.read_text(encoding="utf-8"))
    for m in LINK.finditer(text):
        n = text.count("\n", 0, m.start()) + 1
        target = m.group(1)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:...
            continue
        file_part, _, anchor = target.partition("#")
        dest = (md.parent / file_part).resolve() if file_part else md
        if not dest.exists():
            broken.append((n, target, "no such file"))
        elif anchor and dest.is_file() and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append((n, target, "no such heading in %s" % shown(dest)))
    return broken


def main(args):
    files = [Path(a).resolve() for a in args] or \
        [REPO / "README.md", REPO / "bench" / "README.md"] + sorted((REPO / "docs").glob("*.md"))
    bad = 0
    for md in files:
        for n, target, why in check(md):
            print("%s:%d: %s (%s)" % (shown(md), n, target, why))
            bad += 1
    print("%d file(s), %d broken link(s)" % (len(files), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
