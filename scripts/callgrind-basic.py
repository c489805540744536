#!/usr/bin/env python3
"""Callgrind instructions per statement for basic-runner's benchmarks, runners side by side.

Wall clock on a shared two-core machine moves by tens of percent; instruction
counts do not. For each program of basic-runner/bench/bench.py (BM1-BM8 and the
rest) and each runner given, the program is run under callgrind at two inner
counts N and 2N (R outer passes) and the cost per statement is

    (instructions at 2N - instructions at N) / (statements at 2N - statements at N)

so process start, loading and compiling cancel out. Runners are `run` examples
built in release (`cargo build --release -p basic-runner --example run`), one per
checkout being compared.

    scripts/callgrind-basic.py main=/work/wt/base/target/release/examples/run \\
        branch=target/release/examples/run [--only BM1,BM8] [--n 2000] [--r 10]

Prints a Markdown table: one row per program, one column per runner, and the
difference of each later runner from the first. Standard library only; needs
valgrind.
"""

import argparse
import importlib.util
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load_bench():
    spec = importlib.util.spec_from_file_location("bench", HERE.parent / "basic-runner" / "bench" / "bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def instructions(runner, source):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.bas"
        path.write_text(source)
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", runner, str(path)],
            capture_output=True, text=True, check=False,
        )
    match = re.search(r"Collected : (\d+)", done.stderr)
    if not match:
        sys.exit(f"no callgrind count for {runner}:\n{done.stderr[-2000:]}")
    return int(match.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runners", nargs="+", help="NAME=PATH of a release `run` example")
    parser.add_argument("--only", help="comma-separated program names (default all BM programs)")
    parser.add_argument("--n", type=int, default=2000, help="inner count N (the second run uses 2N)")
    parser.add_argument("--r", type=int, default=10, help="outer count R")
    args = parser.parse_args()
    runners = [tuple(item.split("=", 1)) for item in args.runners]
    bench = load_bench()
    wanted = set(args.only.split(",")) if args.only else None
    programs = [b for b in bench.BENCHMARKS if (wanted is None and b[0].startswith("BM")) or (wanted and b[0] in wanted)]
    names = [name for name, _ in runners]
    print("| program | " + " | ".join(names) + "".join(f" | {n} − {names[0]}" for n in names[1:]) + " |")
    print("|---" * (1 + 2 * len(names) - 1) + "|")
    for name, _description, template, statements in programs:
        small, large = bench.program(template, args.n, args.r), bench.program(template, 2 * args.n, args.r)
        extra = statements(2 * args.n, args.r) - statements(args.n, args.r)
        costs = []
        for _, runner in runners:
            costs.append((instructions(runner, large) - instructions(runner, small)) / extra)
        cells = [f"{c:.3f}" for c in costs] + [f"{c - costs[0]:+.3f}" for c in costs[1:]]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
