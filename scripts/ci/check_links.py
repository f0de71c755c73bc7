#!/usr/bin/env python3
"""Checks the links of README.md and docs/**/*.md.

Every relative link must point to a file inside the repository that exists, and every `#anchor`
must name a heading of its target file (GitHub's heading slugs). Links to web pages (http, https,
mailto) are listed but allowed; `--no-external` makes them errors too.

Usage: python3 scripts/ci/check_links.py [--no-external]   (run from anywhere; exit status 1 on errors)
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"(?<!\!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~)")


def slugs(path: Path) -> set[str]:
    """The anchors GitHub makes for the headings of a Markdown file."""
    seen: dict[str, int] = {}
    out = set()
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_code = not in_code
            continue
        m = None if in_code else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        text = re.sub(r"[^\w\- ]", "", m.group(1).lower())
        slug = text.replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def links(path: Path):
    """(line number, target) of every Markdown link outside code blocks and code spans."""
    in_code = False
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            in_code = not in_code
            continue
        if in_code:
            continue
        for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
            yield no, m.group(1)


def main() -> int:
    no_external = "--no-external" in sys.argv[1:]
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    errors, external, checked = [], [], 0
    for f in files:
        for no, target in links(f):
            checked += 1
            where = f"{f.relative_to(ROOT)}:{no}: {target}"
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                (errors if no_external else external).append(where)
                continue
            file_part, _, anchor = target.partition("#")
            dest = (f.parent / file_part).resolve() if file_part else f
            try:
                dest.relative_to(ROOT)
            except ValueError:
                errors.append(f"{where}: points outside the repository")
                continue
            if not dest.exists():
                errors.append(f"{where}: no such file")
                continue
            if anchor and dest.suffix == ".md" and anchor not in slugs(dest):
                errors.append(f"{where}: no heading '#{anchor}' in {dest.relative_to(ROOT)}")
    for e in external:
        print(f"external (allowed): {e}")
    for e in errors:
        print(f"ERROR {e}")
    print(f"{len(files)} files, {checked} links, {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
