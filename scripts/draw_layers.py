#!/usr/bin/env python3
"""The layers of the crate, drawn from its own imports (docs/design.md section 1).

Rooms are the top-level modules of src/ (a folder or a file: `core`, `variants`, `search`, ...),
with `main.rs` and `cli/` as one room, and `benches/` and `tuning/src/` as rooms of their own.
An arrow runs from a room to each room it imports from: `use crate::X`, `crate::X::` in a path,
`use crate::{X, Y::..}`, and `menagerie::X` in the binary, the benches and the tuning crate.
Code after a top-level `#[cfg(test)]` line (a file's unit tests) and files named `tests.rs` are
left out, since unit tests may use what the code itself may not.

Each room stands on the floor above the highest room it uses (`core` on the ground), so an arrow
always runs down; two rooms that import each other are a cycle, and the script then exits with 1
after naming it. Import cycles between the files of one room are listed but allowed.

    scripts/draw_layers.py --text              # the rooms, floors and arrows, as text
    scripts/draw_layers.py --out docs/layers.png   # the picture (needs matplotlib)
    scripts/draw_layers.py --root DIR --text   # another crate laid out the same way

The text mode needs only the standard library. The picture needs scripts/requirements-plots.txt.
"""

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Rooms that are not top-level modules of the library: (name, folder or file, crate prefix).
EXTRA_ROOMS = [
    ("cli", ["src/main.rs", "src/cli"], "menagerie"),
    ("benches", ["benches"], "menagerie"),
    ("tuning", ["tuning/src"], "menagerie"),
]
SKIPPED = {"src/lib.rs"}


def library_rooms():
    """The library's top-level modules, read from `pub mod` / `mod` lines of src/lib.rs."""
    rooms = []
    for line in (ROOT / "src/lib.rs").read_text().splitlines():
        m = re.match(r"\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+([a-z_0-9]+)\s*;", line)
        if m:
            rooms.append(m.group(1))
    return rooms


def rust_files(paths):
    """Every .rs file under the given files and folders (relative to the root), sorted."""
    out = []
    for rel in paths:
        p = ROOT / rel
        if p.is_file():
            out.append(p)
        elif p.is_dir():
            out.extend(sorted(p.rglob("*.rs")))
    return out


def strip(text):
    """Rust source with its comments, string and char literals blanked out (a small scanner:
    `//`, nested `/* */`, `"..."` with escapes, raw strings `r#"..."#`, `'x'` and `'\\n'`;
    a lifetime `'a` is kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            out.append(" ")
        elif c == "r" and re.match(r'r#*"', text[i:]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            i = n if end < 0 else end + 1 + len(hashes)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'":
            if text.startswith("\\", i + 1):
                j = text.find("'", i + 2)
                i = n if j < 0 else j + 1
            elif i + 2 < n and text[i + 2] == "'":
                i += 3
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def code_of(path):
    """The file's code without comments, literals and its unit tests."""
    if path.name == "tests.rs":
        return ""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#[cfg(test)]"):
            break
        lines.append(line)
    return strip("\n".join(lines))


def first_segments(tree):
    """The first path segments of a `use` tree in braces: `{core::X, variants, search::{a, b}}`
    gives core, variants and search."""
    entries, depth, entry = [], 0, ""
    for ch in tree[1:-1]:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            entries.append(entry)
            entry = ""
        else:
            entry += ch
    entries.append(entry)
    out = []
    for e in entries:
        m = re.match(r"\s*([a-z_][a-z_0-9]*)", e)
        if m and m.group(1) not in ("self", "super"):
            out.append(m.group(1))
    return out


def imports(text, prefix):
    """The top-level modules that `text` names through `prefix::` (`crate` or `menagerie`)."""
    found = set()
    for m in re.finditer(rf"\b{prefix}::([a-z_][a-z_0-9]*)", text):
        found.add(m.group(1))
    for m in re.finditer(rf"\b{prefix}::(\{{)", text):
        start, depth = m.start(1), 0
        for i in range(start, len(text)):
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    found.update(first_segments(text[start : i + 1]))
                    break
    return found


def house():
    """(rooms, lines, arrows, file_cycles): rooms in order; lines of code per room and per
    file; arrows as {(from, to): count of files}; cycles between the files of a room."""
    lib = library_rooms()
    members = {r: ([f"src/{r}"] if (ROOT / f"src/{r}").is_dir() else [f"src/{r}.rs"]) for r in lib}
    prefixes = {r: "crate" for r in lib}
    for name, paths, prefix in EXTRA_ROOMS:
        members[name] = paths
        prefixes[name] = prefix
    rooms = lib + [name for name, _, _ in EXTRA_ROOMS]
    lines, file_lines = {}, {}
    arrows = defaultdict(int)
    file_edges = defaultdict(set)
    for room in rooms:
        total = 0
        for path in rust_files(members[room]):
            rel = str(path.relative_to(ROOT))
            if rel in SKIPPED:
                continue
            n = sum(1 for l in path.read_text(encoding="utf-8").splitlines() if l.strip())
            total += n
            file_lines[rel] = n
            text = code_of(path)
            # The binary's own `crate::cli` is the room itself.
            prefix = prefixes[room]
            used = imports(text, prefix)
            if prefix == "menagerie" and room == "cli":
                used |= {u for u in imports(text, "crate") if u in lib}
            for target in used:
                if target in lib and target != room:
                    arrows[(room, target)] += 1
            # Files of the same room naming each other by path (`crate::room::file`).
            if prefix == "crate" and (ROOT / f"src/{room}").is_dir():
                for m in re.finditer(rf"\bcrate::{room}::([a-z_][a-z_0-9]*)", text):
                    other = m.group(1)
                    for cand in (f"src/{room}/{other}.rs", f"src/{room}/{other}/mod.rs"):
                        if (ROOT / cand).exists() and cand != rel:
                            file_edges[rel].add(cand)
        lines[room] = total
    file_cycles = [c for c in components(file_edges) if len(c) > 1]
    return rooms, lines, file_lines, dict(arrows), file_cycles


def components(edges):
    """Strongly connected components of a graph given as {node: set(successors)} (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    nodes = set(edges) | {v for vs in edges.values() for v in vs}
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def floors(rooms, arrows):
    """Each room's floor: 0 for a room that uses no other, else one above the highest it uses.
    None if the rooms' imports have a cycle."""
    uses = defaultdict(set)
    for a, b in arrows:
        uses[a].add(b)
    cycles = [c for c in components({r: uses[r] for r in rooms}) if len(c) > 1]
    if cycles:
        return None, cycles
    floor = {}

    def level(r):
        if r not in floor:
            floor[r] = 1 + max((level(u) for u in uses[r]), default=-1)
        return floor[r]

    for r in rooms:
        level(r)
    return floor, []


def report(rooms, lines, arrows, floor, file_cycles):
    """The house as text: floors from the top, each room with its lines and what it uses."""
    out = []
    for f in sorted(set(floor.values()), reverse=True):
        for r in sorted((r for r in rooms if floor[r] == f), key=lambda r: -lines[r]):
            used = sorted(b for (a, b) in arrows if a == r)
            out.append(f"floor {f}: {r} ({lines[r]} lines) uses {', '.join(used) or 'nothing'}")
    out.append(f"{len(rooms)} rooms, {len(arrows)} arrows, 0 cycles between rooms")
    for c in file_cycles:
        out.append("files in a circle (inside one room): " + " ".join(c))
    return "\n".join(out)


def draw(rooms, lines, file_lines, arrows, floor, out, commit):
    """The picture: floors from core at the bottom; a room's width grows with its lines, and
    its largest files are drawn inside it, each as wide as its share."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, Rectangle

    top = max(floor.values())
    width, floor_h, room_h, gap = 100.0, 10.0, 6.0, 1.5
    fig, ax = plt.subplots(figsize=(16, 2 + 1.3 * (top + 1)), dpi=100)
    boxes = {}
    for f in range(top + 1):
        here = sorted((r for r in rooms if floor[r] == f), key=lambda r: -lines[r])
        weights = [max(lines[r], 1) ** 0.5 for r in here]
        usable = width - gap * (len(here) - 1)
        x = 0.0
        y = f * floor_h
        for r, w in zip(here, weights):
            w = usable * w / sum(weights)
            boxes[r] = (x, y, w, room_h)
            ax.add_patch(Rectangle((x, y), w, room_h, facecolor="#e3ecf5", edgecolor="#34495e", lw=1.2))
            ax.text(x + 0.4, y + room_h - 0.5, r, ha="left", va="top", fontsize=11, weight="bold")
            ax.text(x + w - 0.4, y + room_h - 0.5, f"{lines[r]:,}", ha="right", va="top", fontsize=8, color="#555")
            # The room's files, the largest first, as a strip of cells.
            parts = defaultdict(int)
            for p, n in file_lines.items():
                if room_of(p) == r:
                    parts[part_of(p)] += n
            mine = sorted(parts.items(), key=lambda t: -t[1])
            fx, strip_w = x + 0.3, w - 0.6
            for p, n in mine:
                cw = strip_w * n / max(lines[r], 1)
                if cw < 0.15:
                    break
                ax.add_patch(Rectangle((fx, y + 0.4), cw, room_h - 2.6, facecolor="#a9c4de", edgecolor="white", lw=0.6))
                if cw > 5.5:
                    ax.text(fx + 0.25, y + room_h - 2.5, f"{p}\n{n:,}", ha="left", va="top", fontsize=6.5)
                fx += cw
            x += w + gap
    for (a, b), n in sorted(arrows.items()):
        xa, ya, wa, _ = boxes[a]
        xb, yb, wb, hb = boxes[b]
        start = (xa + wa / 2, ya)
        end = (xb + wb / 2, yb + hb)
        ax.add_patch(
            FancyArrowPatch(
                start, end, arrowstyle="-|>", mutation_scale=9, lw=0.5 + 0.25 * min(n, 12) ** 0.5,
                color="#5d6d7e", alpha=0.75, connectionstyle="arc3,rad=0.08",
            )
        )
    ax.set_xlim(-1, width + 1)
    ax.set_ylim(-1.5, top * floor_h + room_h + 3)
    ax.axis("off")
    ax.set_title(
        f"menagerie at {commit}: {len(rooms)} rooms on {top + 1} floors, {len(arrows)} arrows, "
        "no arrow runs up",
        loc="left", fontsize=13,
    )
    fig.text(
        0.01, 0.01,
        "A room is a top-level module of src/ (main.rs with cli/; benches/ and tuning/src/ beside); "
        "its figure is its non-blank lines, its cells its files and folders by their lines. An arrow runs from a room "
        "to each room it imports from (its width: the number of files that do). "
        "Drawn by scripts/draw_layers.py from the code's imports.",
        fontsize=8, color="#444", wrap=True,
    )
    fig.savefig(out, bbox_inches="tight")


def part_of(rel):
    """What a file is part of inside its room: its folder there (`chess/`), or itself."""
    parts = Path(rel).parts
    if parts[0] == "src" and parts[1] == "main.rs":
        return "main.rs"
    inner = parts[2:] if parts[0] in ("src", "tuning") else parts[1:]
    return inner[0] + "/" if len(inner) > 1 else inner[-1] if inner else parts[-1]


def room_of(rel):
    """The room of a file, by its path."""
    parts = Path(rel).parts
    if parts[0] == "benches":
        return "benches"
    if parts[0] == "tuning":
        return "tuning"
    if parts[1] in ("main.rs", "cli"):
        return "cli"
    return Path(parts[1]).stem


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--text", action="store_true", help="print the rooms, floors and arrows")
    ap.add_argument("--out", help="write the picture here (PNG)")
    ap.add_argument("--commit", default=None, help="the commit named in the title (default: git's HEAD)")
    ap.add_argument("--root", help="the crate to read (default: this repository)")
    args = ap.parse_args()
    if args.root:
        global ROOT
        ROOT = Path(args.root).resolve()
    rooms, lines, file_lines, arrows, file_cycles = house()
    floor, cycles = floors(rooms, arrows)
    if cycles:
        for c in cycles:
            print("rooms in a cycle: " + " ".join(c), file=sys.stderr)
        sys.exit(1)
    if args.text or not args.out:
        print(report(rooms, lines, arrows, floor, file_cycles))
    if args.out:
        commit = args.commit
        if commit is None:
            import subprocess

            commit = subprocess.run(
                ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                capture_output=True, text=True,
            ).stdout.strip() or "?"
        draw(rooms, lines, file_lines, arrows, floor, args.out, commit)


if __name__ == "__main__":
    main()
