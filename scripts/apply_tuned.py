#!/usr/bin/env python3
"""Replaces the items of a `tunables!` block with those of a `menagerie-tuning --out-rust` file.

    python3 scripts/apply_tuned.py src/variants/mulligan_stew/eval.rs StewParams stew-tuned.rs

The block is found by `struct <Name>, default <CONST> {`; its items (the lines up to the
block's closing brace) are replaced by the declaration in the tuned file (its `//` comments
dropped, `///` docs kept), indented like the block. Run `cargo fmt` afterwards.
"""

import re
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    source, name, tuned = sys.argv[1:]
    text = open(source).read()
    m = re.search(r"^(\s*)(pub )?struct " + re.escape(name) + r", default \w+ \{\n", text, re.M)
    if not m:
        sys.exit(f"{source}: no `struct {name}, default ... {{` block")
    indent = m.group(1) + "    "
    start = m.end()
    close = re.compile(r"^" + re.escape(m.group(1)) + r"\}\n", re.M).search(text, start)
    if not close:
        sys.exit(f"{source}: the block of {name} does not close")
    items = [l for l in open(tuned).read().splitlines() if l.strip() and (l.startswith("///") or not l.startswith("//"))]
    body = "".join(indent + l + "\n" for l in items)
    open(source, "w").write(text[:start] + body + text[close.start():])
    print(f"{source}: {len(items)} lines of {name} replaced from {tuned}")


if __name__ == "__main__":
    main()
