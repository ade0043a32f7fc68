#!/usr/bin/env python3
"""Seeds the fuzz corpora from the project's own .game files.

parse, check and claims get every file in examples/, tests/diagnostics/ and
tests/cli/ as it is. eval gets, for each file in FILES (src/lib.rs) and each
question, the positions written in that file (calls such as `Nim([3, 5, 7])`)
and, for the table question, the names of its games. repl gets the scripted
sessions of tests/repl/ with each example loaded first. Run from fuzz/:

    python3 seed.py
"""
import itertools, pathlib, re

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
QUERIES = ["value", "show", "misere", "height", "moves", "table"]

files = sorted(
    itertools.chain(
        (ROOT / "examples").glob("*.game"),
        (ROOT / "tests/diagnostics").glob("*.game"),
        (ROOT / "tests/cli").glob("*.game"),
    )
)
for target in ["parse", "check", "claims"]:
    out = HERE / "corpus" / target
    out.mkdir(parents=True, exist_ok=True)
    for f in files:
        (out / f"{f.parent.name}-{f.name}").write_bytes(f.read_bytes())

# The order of FILES in src/lib.rs is the order the selector byte counts in.
lib = (HERE / "src/lib.rs").read_text()
head = lib[lib.index("pub const FILES") : lib.index("];", lib.index("pub const FILES"))]
eval_files = re.findall(r'\(\s*"((?:examples|tests)/[^"]+)"', head)
assert len(eval_files) * len(QUERIES) <= 256, "the selector is one byte"

# A call with up to two levels of nested brackets inside: Nim([3, 5, 7]).
CALL = re.compile(r"\b[A-Z]\w*\((?:[^()\[\]]|\[[^\[\]]*\]|\([^()]*\))*\)")
out = HERE / "corpus" / "eval"
out.mkdir(parents=True, exist_ok=True)
for i, name in enumerate(eval_files):
    text = (ROOT / name).read_text()
    positions = sorted(set(CALL.findall(text)))[:40]
    games = sorted(set(re.findall(r"\bgame\s+(\w+)", text)))
    for q, query in enumerate(QUERIES):
        selector = q * len(eval_files) + i
        inputs = [g + " 20" for g in games] if query == "table" else positions
        for n, pos in enumerate(inputs):
            stem = pathlib.Path(name).stem
            (out / f"{stem}-{query}-{n}").write_bytes(bytes([selector]) + pos.encode())
# repl: each scripted session of tests/repl/, once for each of a few files
# (the first byte picks the file loaded first), without the lines the
# target leaves out (:load, :reload, :graph, :plot).
out = HERE / "corpus" / "repl"
out.mkdir(parents=True, exist_ok=True)
for script in sorted((ROOT / "tests/repl").glob("*.in")):
    lines = [
        l for l in script.read_text().splitlines()
        if (l.split() or [""])[0] not in (":load", ":l", ":reload", ":r", ":graph", ":plot")
    ]
    for i, name in enumerate(eval_files[:9]):
        (out / f"{script.stem}-{pathlib.Path(name).stem}").write_bytes(
            bytes([i]) + "\n".join(lines).encode()
        )
# differential: every byte string decodes to a heap game (fuzz/src/
# heap_games.rs), so a few fixed pseudo-random strings make a start.
out = HERE / "corpus" / "differential"
out.mkdir(parents=True, exist_ok=True)
state = 12345
for i in range(64):
    seed = bytearray()
    for _ in range(48):
        state = (state * 1103515245 + 12345) % 2**31
        seed.append(state >> 16 & 0xFF)
    (out / f"random-{i}").write_bytes(bytes(seed))
for target in ["parse", "check", "claims", "eval", "repl", "differential"]:
    print(target, len(list((HERE / "corpus" / target).iterdir())), "seeds")
