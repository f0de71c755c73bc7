#!/usr/bin/env python3
"""Replaces the items of a `tunables!` block with those of a `menagerie-tuning --out-rust` file.

    python3 scripts/apply_tuned.py src/variants/mulligan_stew/eval.rs StewParams stew-tuned.rs

The block is found by `struct <Name>, default <CONST> {`; its items (the lines up to the
block's closing brace) are replaced by the declaration in the tuned file (its `//` comments
dropped, `///` docs kept), indented like the block. An item written in the block as
`table(A_MG, A_EG)` calls (board diagrams, rank 8 first, as the chess piece-square tables are)
keeps that form: the tuned pairs, a1-indexed, are written into the diagram constants `A_MG`
and `A_EG` instead. Run `cargo fmt` afterwards.
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
    block = text[start:close.start()]
    tail = text[close.start():]
    head = text[:start]
    for i, line in enumerate(items):
        item = re.match(r"(\w+): ", line)
        if not item:
            continue
        old = re.search(r"^\s*" + item.group(1) + r": [^=]+= \[\s*table\(.*?\], \([^)]*\);", block, re.M | re.S)
        if not old:
            continue
        # Keep the diagram form: write the tuned pairs into the constants it names.
        pairs = [(int(a), int(b)) for a, b in re.findall(r"s\((-?\d+), (-?\d+)\)", line)]
        tables = re.findall(r"table\((\w+), (\w+)\)", old.group(0))
        if len(pairs) != 64 * len(tables):
            sys.exit(f"{tuned}: {item.group(1)} has {len(pairs)} pairs for {len(tables)} tables")
        for t, names in enumerate(tables):
            for half, const in enumerate(names):
                rows = "".join(
                    "    " + ", ".join(f"{pairs[64 * t + ((r * 8 + f) ^ 56)][half]:3d}" for f in range(8)) + ",\n"
                    for r in range(8)
                )
                pat = re.compile(r"(const " + const + r": \[i32; 64\] = \[\n).*?(\];)", re.S)
                if not pat.search(head):
                    sys.exit(f"{source}: no diagram constant {const} before the block")
                head = pat.sub(lambda m: m.group(1) + rows + m.group(2), head, count=1)
        kept = old.group(0).strip("\n").splitlines()
        items[i] = "\n".join(l[len(indent):] if l.startswith(indent) else l.strip() for l in kept)
    body = "".join(indent + l + "\n" for l in "\n".join(items).splitlines())
    open(source, "w").write(head + body + tail)
    print(f"{source}: {len(items)} lines of {name} replaced from {tuned}")


if __name__ == "__main__":
    main()
