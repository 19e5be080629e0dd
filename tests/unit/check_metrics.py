#!/usr/bin/python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Check oomwatch --metrics files with Prometheus' own text parser.

usage: check_metrics.py [--doc FILE]... METRICS_FILE...

Each file must parse with prometheus_client.parser (Debian's
python3-prometheus-client; run this with /usr/bin/python3, which has it)
and keep the conventions docs/metrics.md promises, which that parser
does not enforce: every family documented (HELP) and typed (counter or
gauge), named oomwatch_*, a counter's samples ending in _total and a
gauge's not, seconds in *_seconds_total, no timestamps, no series twice,
values finite and never negative, and only the bounded labels (node,
reason, constraint, invariant: never a pid or a comm).  Every family name
must appear in each --doc FILE.  Exit status 0, or 1 with one line per
problem on stderr ("FILE: why").
"""
import math
import sys

from prometheus_client.parser import text_string_to_metric_families

LABELS = {"node", "reason", "constraint", "invariant"}


def check_family(fam, seen):
    if not fam.name.startswith("oomwatch_"):
        yield f"{fam.name}: not named oomwatch_*"
    if fam.name in seen:
        yield f"{fam.name}: family given twice"
    seen.add(fam.name)
    if fam.type not in ("counter", "gauge"):
        yield f"{fam.name}: type {fam.type}, not counter or gauge"
    if not fam.documentation.strip():
        yield f"{fam.name}: no HELP"
    if "seconds" in fam.name and not fam.name.endswith("_seconds"):
        yield f"{fam.name}: seconds not as the base unit suffix"
    series = set()
    for s in fam.samples:
        if fam.type == "counter" and not s.name.endswith("_total"):
            yield f"{s.name}: a counter sample without _total"
        if fam.type == "gauge" and s.name.endswith("_total"):
            yield f"{s.name}: a gauge named _total"
        if s.timestamp is not None:
            yield f"{s.name}: carries a timestamp"
        bad = set(s.labels) - LABELS
        if bad:
            yield f"{s.name}: unbounded or unknown labels {sorted(bad)}"
        key = (s.name, tuple(sorted(s.labels.items())))
        if key in series:
            yield f"{s.name}{s.labels}: series given twice"
        series.add(key)
        if not math.isfinite(s.value) or s.value < 0:
            yield f"{s.name}{s.labels}: value {s.value}"


def check_file(path, docs):
    with open(path, encoding="ascii") as f:
        text = f.read()
    families = list(text_string_to_metric_families(text))
    if not families:
        yield "no metric families"
    seen = set()
    for fam in families:
        yield from check_family(fam, seen)
        for doc, body in docs.items():
            if fam.name not in body:
                yield f"{fam.name}: not documented in {doc}"


def main(argv):
    docs, files = {}, []
    args = iter(argv)
    for a in args:
        if a == "--doc":
            doc = next(args)
            with open(doc, encoding="utf-8") as f:
                docs[doc] = f.read()
        else:
            files.append(a)
    if not files:
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    failed = False
    for path in files:
        try:
            problems = list(check_file(path, docs))
        except (ValueError, UnicodeDecodeError, OSError) as e:
            problems = [f"rejected by the parser: {e}"]
        for p in problems:
            print(f"{path}: {p}", file=sys.stderr)
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
