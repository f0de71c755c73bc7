#!/usr/bin/env python3
"""Reruns the example transcripts of docs/protocol.md with a built engine and reports those that
are no longer what it prints.

A transcript is a fenced block whose lines are `> command` (sent to the engine) and `< line` (what
the engine answers; `<` alone is an empty line). Each block runs in a fresh engine: every command
is sent, a `go` is waited on until its `bestmove` (a `go perft` until its total), then every
command until an `isready` sent after it is answered. The block's output lines are then compared with the
transcript's, in order, ignoring where the commands fall between them (an answer printed after a
later `isready` is the same answer), the values of `nps` and `time` and the army of a timed
`muster propose` (they depend on the machine) and the commit in the greeting. Blocks with `<ESC>` (a control character the Markdown cannot
show) are skipped.

    scripts/ci/check_protocol_examples.py [target/release/menagerie] [--write]

With `--write`, each block that differs is replaced by the output of this run (commands first,
each followed by its answer). Exit status 1 when a block differs (without `--write`).
"""

import queue
import re
import subprocess
import sys
import threading

DOC = "docs/protocol.md"


def normalise(line):
    """An output line without what depends on the machine or the build."""
    line = re.sub(r" nps \d+", " nps _", line)
    line = re.sub(r" time \d+", " time _", line)
    line = re.sub(r"^< muster army \S+", "< muster army _", line)
    return re.sub(r"\(commit [0-9a-f]+\)", "(commit _)", line)


def run(binary, commands):
    """The transcript lines of `commands` run in a fresh engine, and its greeting."""
    engine = subprocess.Popen(
        [binary],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
    )
    lines = queue.Queue()

    def reader():
        for line in engine.stdout:
            lines.put(line.rstrip("\n").rstrip())
        lines.put(None)

    threading.Thread(target=reader, daemon=True).start()

    def get():
        line = lines.get(timeout=120)
        if line is None:
            raise RuntimeError("the engine exited")
        return line

    def send(command):
        engine.stdin.write(command + "\n")
        engine.stdin.flush()

    def answer(line):
        return "< " + line if line else "<"

    greeting = get()
    out = []
    for command in commands:
        out.append("> " + command)
        send(command)
        words = command.split()
        if words[:1] == ["go"]:
            # A search ends with its `bestmove`, a perft with its total.
            last = "Nodes searched" if "perft" in words else "bestmove"
            while True:
                line = get()
                out.append(answer(line))
                if line.startswith(last):
                    break
        if command == "isready":
            while (line := get()) != "readyok":
                out.append(answer(line))
            out.append("< readyok")
            continue
        send("isready")
        while (line := get()) != "readyok":
            out.append(answer(line))
    send("quit")
    engine.wait(timeout=60)
    return out, greeting


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    binary = args[0] if args else "target/release/menagerie"
    write = "--write" in sys.argv
    text = open(DOC).read()
    parts = re.split(r"(```[^\n]*\n.*?```)", text, flags=re.S)
    differ = 0
    checked = 0
    for k, part in enumerate(parts):
        if not part.startswith("```"):
            continue
        head, body = part.split("\n", 1)
        lines = body[: -len("```")].rstrip("\n").split("\n")
        commands = [line[2:] for line in lines if line.startswith("> ")]
        if not commands or "<ESC>" in body:
            continue
        checked += 1
        got, greeting = run(binary, commands)
        want_out = [normalise(line) for line in lines if line.startswith("<")]
        if lines[0].startswith("< ") and normalise(lines[0][2:]) == normalise(greeting):
            want_out = want_out[1:]
            got_lines = [lines[0]] + got
        else:
            got_lines = got
        got_out = [normalise(line) for line in got if line.startswith("<")]
        if got_out == want_out:
            continue
        differ += 1
        print(f"--- {DOC}: the transcript starting '{lines[0]}' differs")
        for line in want_out:
            if line not in got_out:
                print("  documented: " + line)
        for line in got_out:
            if line not in want_out:
                print("  printed:    " + line)
        parts[k] = head + "\n" + "\n".join(got_lines) + "\n```"
    print(f"{checked} transcripts run, {differ} differ")
    if write and differ:
        open(DOC, "w").write("".join(parts))
        print(f"{DOC} rewritten")
    sys.exit(1 if differ and not write else 0)


if __name__ == "__main__":
    main()
