"""``houserules check`` and ``houserules search`` with a large glossary, checkouts side by side.

    .venv/bin/python -m benchmarks.glossary_scale [--terms 10000] [--size 500] [--runs 5] [--code tools --code OTHER/tools]

A synthetic knowledge base of ``--size`` entries (:mod:`benchmarks.synth`) gets ``--terms``
generated glossary terms, spread over its games so that no glossary passes the file limit. Each
term has a Chinese name, two to four deprecated forms (Chinese in CJK Extension A, which no entry
writes, and Latin words no entry uses: the check looks for every form in every text and finds
none, as with a real glossary) and the query word :data:`QUERY` among its variants, so that a
search for it says every term's name: a crafted glossary's worst case. Each round runs, for each
``--code`` folder in turn (default: this checkout's ``tools``), ``houserules check --data DATA``
and ``houserules search --data DATA QUERY --json`` with that folder first on ``PYTHONPATH``; each
figure is the CPU time of the whole process (``wait4``), and the ratio to the first folder is
taken round by round, so a machine that slows down between rounds slows every side.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from benchmarks.check_ratio import console_script, cpu_seconds
from benchmarks.measure import ratio_report

ROOT = Path(__file__).resolve().parent.parent

#: The query every generated term lists as a variant.
QUERY = "咋整"
#: CJK Extension A: characters no entry writes, so a generated form is used nowhere.
RARE = [chr(code) for code in range(0x3400, 0x4DB6)]
#: At most this many generated terms go into one glossary (a file stays well under 256 KiB).
PER_GLOSSARY = 1500


def add_terms(data: Path, count: int, seed: int = 1) -> None:
    """Append ``count`` generated terms to the glossaries of ``data``'s games, PER_GLOSSARY at most each."""
    rng = random.Random(seed)
    glossaries = sorted(data.glob("*/glossary.yaml"))
    if len(glossaries) * PER_GLOSSARY < count:
        raise SystemExit(
            f"{len(glossaries)} glossaries hold at most {len(glossaries) * PER_GLOSSARY} terms: give --size"
        )
    per = -(-count // len(glossaries))
    made = 0
    for path in glossaries:
        glossary = yaml.safe_load(path.read_text(encoding="utf-8"))
        for _ in range(min(per, count - made)):
            deprecated = ["".join(rng.choices(RARE, k=rng.randint(2, 4))) for _ in range(rng.randint(1, 3))]
            deprecated.append(f"zq{made}x{rng.randint(0, 9999)}")
            glossary["terms"].append(
                {
                    "id": f"generated-{made}",
                    "en": f"generated term {made}",
                    "zh": "".join(rng.choices(RARE, k=3)) + str(made),
                    "variants": [QUERY],
                    "deprecated": deprecated,
                }
            )
            made += 1
        path.write_text(yaml.safe_dump(glossary, allow_unicode=True, sort_keys=False), encoding="utf-8")


def commands(data: Path, code: Path) -> dict[str, list[str]]:
    script = [sys.executable, "-c", console_script(code)]
    return {
        "check": [*script, "check", "--data", str(data)],
        "search": [*script, "search", "--data", str(data), QUERY, "--json"],
    }


def measure(data: Path, codes: list[Path], runs: int, caches: Path) -> dict[str, dict[str, list[float]]]:
    """Per command, per checkout: the CPU seconds of each round (the first, which builds the search index, left out)."""
    envs = {
        str(code): {**os.environ, "PYTHONPATH": str(code), "HOUSERULES_CACHE": str(caches / str(n))}
        for n, code in enumerate(codes)
    }
    for code in codes:  # as installed: byte-compiled
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(code)], check=True, capture_output=True)
    found: dict[str, dict[str, list[float]]] = {"check": {}, "search": {}}
    for _ in range(runs + 1):
        for code in codes:
            for name, command in commands(data, code).items():
                found[name].setdefault(str(code), []).append(cpu_seconds(command, envs[str(code)]))
    return {name: {code: values[1:] for code, values in sides.items()} for name, sides in found.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--terms", type=int, default=10_000)
    parser.add_argument("--size", type=int, default=500, help="entries of the synthetic knowledge base")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--code", type=Path, action="append", help="a checkout's tools/ folder (repeatable)")
    args = parser.parse_args()
    codes = [path.resolve() for path in args.code or [ROOT / "tools"]]
    from benchmarks import synth

    with tempfile.TemporaryDirectory(prefix="hr-glossary-") as tmp:
        data = Path(tmp) / "data"
        synth.generate(args.size, data, synth.load_template(ROOT / "rules_data"))
        add_terms(data, args.terms)
        found = measure(data, codes, args.runs, Path(tmp))
    print(f"{args.terms:,} generated glossary terms, {args.size:,} entries, query {QUERY}")
    for name, sides in found.items():
        base = str(codes[0])
        print(ratio_report(sides, base, f"{name} ({base})", name, "the first"))


if __name__ == "__main__":
    main()
