#!/usr/bin/env python3
"""Hostile-input campaign against the `tavern` binary (issue 11).

Runs `tavern roll`, `tavern odds`, `tavern basic`, `tavern npc check|play` and
`tavern console` over thousands of generated inputs (nested, huge, repeated and
random), each under an address-space cap (RLIMIT_AS, 2 GiB by default) and a
wall-clock timeout (10 s), and reports panics, aborts (stack overflow, failed
allocation, other signals), hangs, slow cases and peak memory per engine.
Inputs that fail are written to the findings directory, to become regression
tests.

    cargo build --release -p tavern
    scripts/hostile-campaign.py --bin target/release/tavern --seconds 600

Only the Python standard library and GNU time (`/usr/bin/time`, for the peak
resident memory of each run) are needed.
"""

import argparse
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SLOW_SECONDS = 2.0


# ---------------------------------------------------------------- generators


def dice_expr(rng, depth=0):
    """A dice expression from the common notation, sometimes nested or huge."""
    if depth > 3:
        return str(rng.randint(0, 20))
    choice = rng.random()
    if choice < 0.30:
        count = rng.choice([1, 2, 3, 4, 5, 10, 20, 50, 100, 1000, 10000, 99999])
        faces = rng.choice([2, 4, 6, 8, 10, 12, 20, 100, 1000, 4470, 10**6, 10**9])
        mods = rng.choice(["", "kh1", "kl1", "kh3", "dl1", "!", "!!", "!p", "!(o)kh1",
                           "r1", "ro<2", "x", "xo", "ra", "cs>5", ">4", "<2", "t!=2eo",
                           "pl12", "!<>007kph", "k>3", "p<3", "mi2", "ma5", "sa", "sd"])
        return f"{count}d{faces}{mods}"
    if choice < 0.45:
        op = rng.choice(["+", "-", "*", "/", "%", "^", "**"])
        return f"{dice_expr(rng, depth + 1)}{op}{dice_expr(rng, depth + 1)}"
    if choice < 0.55:
        return f"({dice_expr(rng, depth + 1)})"
    if choice < 0.62:
        items = ",".join(dice_expr(rng, depth + 1) for _ in range(rng.randint(1, 6)))
        return "{" + items + "}" + rng.choice(["", "kh1", "kh2", "dl1", ">5"])
    if choice < 0.68:
        faces = ",".join(f"1d{n}" for n in range(2, rng.randint(3, 14)))
        return "d{" + faces + "}"
    if choice < 0.74:
        term = rng.choice(["1", "d6", "1d20", "(1)", "-1", "1d4470"])
        op = rng.choice(["+", "*", "-", "^"])
        return op.join([term] * rng.choice([2, 10, 100, 999, 5000, 40000]))
    if choice < 0.80:
        n = rng.choice([10, 31, 32, 33, 100, 1000, 20000])
        return "(" * n + "1d6" + ")" * n
    if choice < 0.85:
        return "-" * rng.choice([10, 33, 1000, 50000]) + "1"
    if choice < 0.92:
        alphabet = "0123456789d+-*/()!{}<>=,.khlKHLrRxXopPsSaAtTeE$@# \t"
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 120)))
    return "".join(chr(rng.randint(1, 0x2FFF)) for _ in range(rng.randint(0, 60)))


def basic_program(rng):
    """A BASIC listing: long expressions, deep nesting, many dimensions, loops,
    recursion, growing strings, long lines, or random noise."""
    kind = rng.randrange(12)
    ops = ["+", "-", "*", "^", "\\", " MOD ", " AND ", "=", "<"]
    if kind == 0:
        op = rng.choice(ops)
        return f"10 PRINT {op.join(['1'] * rng.choice([100, 1000, 20000, 80000]))}\n"
    if kind == 1:
        n = rng.choice([50, 200, 1000, 20000])
        return f"10 PRINT {'(' * n}1{')' * n}\n"
    if kind == 2:
        dims = rng.choice([2, 8, 255, 256, 300, 1000])
        return f"10 DIM A({','.join(['1'] * dims)})\n20 PRINT 1\n"
    if kind == 3:
        return "10 GOSUB 10\n"
    if kind == 4:
        return '10 A$ = "X"\n20 A$ = A$ + A$\n30 GOTO 20\n'
    if kind == 5:
        return "10 GOTO 10\n"
    if kind == 6:
        return "10 DIM A(30000), B(30000), C(30000)\n20 DIM D$(30000)\n30 PRINT 1\n"
    if kind == 7:
        return f"10 PRINT \"{'A' * rng.choice([200, 255, 256, 5000, 200000])}\"\n"
    if kind == 8:
        lines = [f"{n * 10} PRINT {n}" for n in range(1, rng.choice([10, 1000, 20000]))]
        return "\n".join(lines) + "\n"
    if kind == 9:
        return '10 INPUT "NAME"; N$\n20 PRINT N$\n30 INPUT "AGE"; A\n40 PRINT A * 2\n'
    if kind == 10:
        depth = rng.choice([10, 100, 1000])
        body = "".join(f"{10 + i} FOR I{i % 26}=1 TO 2\n" for i in range(depth))
        return body + f"{10 + depth} PRINT 1\n"
    alphabet = "0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ$%!#()+-*/^\\=<>:;,\"'\n"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4000)))


def basic_stdin(rng):
    return rng.choice([
        "", "Udo\n42\n", "x" * 300 + "\n", "\n" * 1000,
        "y" * rng.choice([10**5, 10**7, 10**8]) + "\n",
    ])


NPC_WORDS = ["CONV", "RESP", "NATIVE", "IMPORT", "SAY", "EXIT", "CHECK_FLAG", "SET_FLAG",
             "CHECK_PARM", "TRADE", "JOIN", "MENU", "GOTO", "{", "}", "c_a", "r_a", "HAIL",
             "BYE", "DEFAULT", "\"text\"", "1", "=", "ACTIVITY", "GIVE_GOLD", "TAKE_GOLD"]


def npc_script(rng, samples):
    kind = rng.randrange(8)
    if kind == 0 and samples:
        text = rng.choice(samples)
        cut = rng.randrange(len(text) + 1)
        return text[:cut] + rng.choice(["", "}", "{", "\n", "CONV"]) + text[cut:]
    if kind == 1:
        n = rng.choice([10, 64, 65, 1000, 100000])
        return "CONV c_a { NATIVE { HAIL r_a } }\nRESP r_a " + "{ CHECK_FLAG 1 " * n + "}" * n + "\n"
    if kind == 2:
        n = rng.choice([10, 1000, 20000])
        convs = "".join(f"CONV c_{i} {{ IMPORT {{ c_{i + 1} }} }}\n" for i in range(n))
        return convs + f"CONV c_{n} {{ IMPORT {{ c_0 }} }}\n"
    if kind == 3:
        return f"CONV c_a {{ NATIVE {{ HAIL r_a }} }}\nRESP r_a {{ SAY \"{'x' * rng.choice([100, 10**5, 2 * 10**6])}\" }}\n"
    if kind == 4:
        return "CONV c_a { NATIVE { HAIL r_a } }\nRESP r_a { GOTO r_a }\n"
    return " ".join(rng.choice(NPC_WORDS) for _ in range(rng.randint(1, 3000)))


def npc_stdin(rng):
    lines = ["@talk a c_a A", "hail", "bye", "@gold 100", "@state", "buy 1 t_x",
             "x" * rng.choice([10, 600, 10**6]), "@item t_x 99999999999"]
    text = "\n".join(rng.choice(lines) for _ in range(rng.randint(1, 30))) + "\n"
    if rng.random() < 0.05:
        text += "z" * 10**8 + "\n"
    return text


def console_stream(rng, workdir):
    """Lines for `tavern console`: commands with hostile options and files."""
    lines = []
    for index in range(rng.randint(3, 25)):
        pick = rng.randrange(12)
        if pick < 3:
            lines.append(f"/roll {dice_expr(rng)}")
        elif pick < 5:
            lines.append(f"/odds {dice_expr(rng)}")
        elif pick == 5:
            lines.append(f"/macro set name:m{index % 3} expr:{dice_expr(rng)}")
            lines.append(f"/roll {'+'.join(['$m0'] * rng.choice([1, 30, 100]))}")
        elif pick == 6:
            path = os.path.join(workdir, f"p{index}.bas")
            with open(path, "w", encoding="latin-1", errors="replace") as handle:
                handle.write(basic_program(rng))
            lines.append(f"/chargen program add name:p{index} file:{path}")
            lines.append("/press Install anyway")
            lines.append(f"/chargen start program:p{index}")
            lines.append("Udo")
        elif pick == 7:
            lines.append(f"/chargen program add name:z file:{os.path.join(workdir, 'zero.bas')}")
        elif pick == 8:
            path = os.path.join(workdir, f"n{index}.ghul")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(npc_script(rng, []))
            lines.append(f"/npc install name:n{index} file:{path}")
            lines.append(f"/talk npc:n{index}")
            lines.append("hail")
        elif pick == 9:
            lines.append("x" * rng.choice([100, 70000, 10**6]))
        elif pick == 10:
            lines.append("/press Roll again")
        else:
            lines.append("/" + "".join(chr(rng.randint(32, 0x2FF)) for _ in range(rng.randint(0, 80))))
    lines.append("/roll 1d6")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- running


def limit_memory(max_bytes):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (max_bytes, max_bytes))
        os.setsid()
    return apply


def run(args, stdin, options, timeout):
    """Runs one case; returns (outcome, seconds, peak_kib, exit, stderr_tail)."""
    stats = tempfile.NamedTemporaryFile(delete=False)
    stats.close()
    command = ["/usr/bin/time", "-q", "-o", stats.name, "-f", "%M %e %x"] + args
    started = time.monotonic()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, preexec_fn=limit_memory(options.mem))
    try:
        _, stderr = process.communicate(stdin.encode("utf-8", "replace"), timeout=timeout)
        hung = False
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        _, stderr = process.communicate()
        hung = True
    except BrokenPipeError:
        _, stderr = process.communicate()
        hung = False
    seconds = time.monotonic() - started
    with open(stats.name, encoding="utf-8", errors="replace") as handle:
        measured = handle.read()
    os.unlink(stats.name)
    # GNU time writes "Command terminated by signal N" before the format's line.
    signalled = "terminated by signal" in measured
    last = measured.strip().splitlines()[-1].split() if measured.strip() else []
    peak_kib = int(last[0]) if last and last[0].isdigit() else 0
    exit_code = last[2] if len(last) > 2 else None
    text = stderr.decode("utf-8", "replace")
    if hung:
        outcome = "hang"
    elif "overflowed its stack" in text:
        outcome = "stack overflow"
    elif "memory allocation of" in text:
        outcome = "allocation failure"
    elif "panicked at" in text:
        outcome = "panic"
    elif signalled or process.returncode < 0:
        outcome = "signal"
    elif process.returncode not in (0, 1, 2, 3):
        outcome = f"exit {process.returncode}"
    else:
        outcome = "ok"
    return outcome, seconds, peak_kib, exit_code, text[-400:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="target/release/tavern")
    parser.add_argument("--seconds", type=float, default=600, help="total time budget")
    parser.add_argument("--cases", type=int, default=10000, help="most cases in all")
    parser.add_argument("--timeout", type=float, default=10)
    parser.add_argument("--mem", type=int, default=2 << 30, help="address-space cap, bytes")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--findings", default="hostile-findings")
    parser.add_argument("--json", help="write the summary as JSON here")
    options = parser.parse_args()
    binary = os.path.abspath(options.bin)
    rng = random.Random(options.seed)
    work = tempfile.mkdtemp(prefix="tavern-hostile-")
    os.symlink("/dev/zero", os.path.join(work, "zero.bas"))
    os.makedirs(options.findings, exist_ok=True)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    samples = []
    for name in sorted(os.listdir(os.path.join(root, "npc-core", "scripts"))):
        with open(os.path.join(root, "npc-core", "scripts", name), encoding="utf-8") as handle:
            samples.append(handle.read())

    def case(engine):
        """(args, stdin, description) of one generated case of `engine`."""
        # One argument may hold 128 KiB (Linux's MAX_ARG_STRLEN); the bot takes 2,000.
        if engine == "roll":
            expr = dice_expr(rng)[:100_000]
            return [binary, "roll", "--", expr], "", expr
        if engine == "odds":
            expr = dice_expr(rng)[:100_000]
            return [binary, "odds", "--", expr], "", expr
        if engine == "basic":
            path = os.path.join(work, "case.bas")
            source = basic_program(rng)
            with open(path, "w", encoding="latin-1", errors="replace") as handle:
                handle.write(source)
            return [binary, "basic", path], basic_stdin(rng), source
        if engine in ("npc check", "npc play"):
            path = os.path.join(work, "case.ghul")
            source = npc_script(rng, samples)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(source)
            if engine == "npc check":
                return [binary, "npc", "check", path], "", source
            return [binary, "npc", "play", path], npc_stdin(rng), source
        database = os.path.join(work, "console.db")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(database + suffix):
                os.unlink(database + suffix)
        stream = console_stream(rng, work)
        config = os.path.join(work, "tavern.toml")
        with open(config, "w", encoding="utf-8") as handle:
            handle.write("[rate_limit]\nburst = 100000\nper_minute = 100000\n")
        return [binary, "--config", config, "console", "--db", database], stream, stream

    engines = ["roll", "odds", "basic", "npc check", "npc play", "console"]
    weights = [30, 20, 15, 10, 10, 15]
    summary = {engine: {"cases": 0, "ok": 0, "findings": {}, "slow": 0, "max_seconds": 0.0,
                        "peak_kib": 0, "peak_case": ""} for engine in engines}
    deadline = time.monotonic() + options.seconds
    total = 0
    while total < options.cases and time.monotonic() < deadline:
        engine = rng.choices(engines, weights)[0]
        args, stdin, description = case(engine)
        outcome, seconds, peak_kib, _, tail = run(args, stdin, options, options.timeout)
        total += 1
        row = summary[engine]
        row["cases"] += 1
        if seconds > SLOW_SECONDS:
            row["slow"] += 1
        row["max_seconds"] = max(row["max_seconds"], round(seconds, 2))
        if peak_kib > row["peak_kib"]:
            row["peak_kib"], row["peak_case"] = peak_kib, description[:120]
        if outcome == "ok":
            row["ok"] += 1
            continue
        row["findings"][outcome] = row["findings"].get(outcome, 0) + 1
        name = f"{engine.replace(' ', '-')}-{outcome.replace(' ', '-')}-{total}"
        with open(os.path.join(options.findings, name + ".input"), "w",
                  encoding="utf-8", errors="replace") as handle:
            handle.write(description)
        with open(os.path.join(options.findings, name + ".stdin"), "w",
                  encoding="utf-8", errors="replace") as handle:
            handle.write(stdin[:100000])
        # The files a console stream installs belong to the finding.
        for word in description.split():
            path = word.split("file:", 1)[-1]
            if word.startswith("file:") and os.path.isfile(path):
                shutil.copy(path, os.path.join(options.findings, f"{name}-{os.path.basename(path)}"))
        with open(os.path.join(options.findings, name + ".stderr"), "w",
                  encoding="utf-8", errors="replace") as handle:
            handle.write(tail)
        print(f"finding: {engine}: {outcome} ({seconds:.1f} s, {peak_kib} KiB): "
              f"{description[:100]!r}", flush=True)
    shutil.rmtree(work, ignore_errors=True)
    print(f"\n{total} cases in {options.seconds - max(0, deadline - time.monotonic()):.0f} s, "
          f"cap {options.mem >> 20} MiB, timeout {options.timeout:.0f} s\n")
    print("| engine | cases | ok | panics/aborts/hangs | slow (>2 s) | max s | peak RSS MiB |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: |")
    for engine in engines:
        row = summary[engine]
        found = ", ".join(f"{count} {kind}" for kind, count in sorted(row["findings"].items()))
        print(f"| {engine} | {row['cases']} | {row['ok']} | {found or 'none'} | {row['slow']} | "
              f"{row['max_seconds']} | {row['peak_kib'] / 1024:.0f} |")
    if options.json:
        with open(options.json, "w", encoding="utf-8") as handle:
            json.dump(summary, handle, indent=2)
    failed = any(row["findings"] for row in summary.values())
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
