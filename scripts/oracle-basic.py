#!/usr/bin/env python3
"""PC-BASIC as a live oracle for Tavern's BASIC interpreter (basic-runner).

Every program of basic-runner/tests/programs/*.bas, basic-runner/programs/*.bas and
scripts/oracle/basic/*.bas is run by PC-BASIC (a faithful GW-BASIC reimplementation)
and by basic-runner's `run` example in GW-BASIC's random-number mode, each with the
program's `NAME.in` as its input lines when there is one (for a program that
reads keys with `INPUT$`, PC-BASIC gets them as keys typed ahead: see
`run_pcbasic_keys`). Each program is then one of:

- same: both print the same transcript (after the normalising described in
  `normalise_pcbasic`);
- DIFFERS: both run, the transcripts differ (the first differing line is shown);
- TAVERN REFUSES: basic-runner refuses the program at load (file I/O, graphics,
  PEEK/POKE and the like: basic-runner/README.md, "Refused at load");
- TAVERN LIMIT: basic-runner stopped at a limit (exit 3) or did not end in time;
- PCBASIC FAILS: PC-BASIC crashed or did not end in time.

The script exits 1 when a program that is not `same` is not in the allowlist
(scripts/oracle/basic-allowlist.txt, each entry saying why Tavern differs on
purpose), 0 otherwise. It installs nothing; it needs:

    apt-get install -y python3-pcbasic          # or: pip install pcbasic
    cargo build --release -p basic-runner --example run
    scripts/oracle-basic.py --runner target/release/examples/run

Only the Python standard library is used.
"""

import argparse
import difflib
import json
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ORACLE = HERE / "oracle"
DIRECTORIES = (
    ROOT / "basic-runner" / "tests" / "programs",
    ROOT / "basic-runner" / "programs",
    ORACLE / "basic",
)

SAME = "same"
DIFFERS = "DIFFERS"
TAVERN_REFUSES = "TAVERN REFUSES"
TAVERN_LIMIT = "TAVERN LIMIT"
PCBASIC_FAILS = "PCBASIC FAILS"
OUTCOMES = (SAME, DIFFERS, TAVERN_REFUSES, TAVERN_LIMIT, PCBASIC_FAILS)

# PC-BASIC ends an error message with a byte 0xFF before the line break (the end
# of its screen line's text as its console writes it); GW-BASIC prints no such
# byte, so it is dropped, but only right after "in N" of an error message, so that
# a CHR$(255) a program prints itself still counts.
ERROR_TAIL = re.compile(rb"( in \d+)\xff")


class Run:
    """What one interpreter did with one program."""

    def __init__(self, text="", failure=None, code=0, seconds=0.0, stderr=""):
        self.text = text
        self.failure = failure
        self.code = code
        self.seconds = seconds
        self.stderr = stderr


def normalise_pcbasic(raw):
    """PC-BASIC's stdout as text comparable with basic-runner's.

    - the 0xFF after an error message goes (see ERROR_TAIL);
    - CR LF becomes LF: PC-BASIC writes DOS line ends, the runner Unix ones, and
      this is the only place where the byte streams differ on purpose;
    - the bytes are read as code page 437, the character set PC-BASIC (and
      GW-BASIC) prints in, while the runner prints the same characters as UTF-8
      (`CHR$(130)` is `é` on both).
    With `-q` PC-BASIC leaves no `Ok` prompt behind, so nothing else is cut.
    """
    raw = ERROR_TAIL.sub(rb"\1", raw)
    raw = raw.replace(b"\r\n", b"\n")
    return raw.decode("cp437")


# INPUT$(n) from the keyboard (not INPUT$(n, #f), which reads a file)
KEYBOARD_INPUT = re.compile(rb"INPUT\$\s*\([^,)]*\)", re.IGNORECASE)


def run_pcbasic(binary, program, inputs, timeout):
    if KEYBOARD_INPUT.search(Path(program).read_bytes()):
        return run_pcbasic_keys(binary, program, inputs, timeout)
    # PC-BASIC reads its keyboard from stdin and wants a line to end with CR LF
    # (a bare LF is not Enter there). --utf8 reads the listing as UTF-8, as the
    # runner does (README, Fidelity: code page 437).
    data = inputs.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    command = [binary, str(program), "-n", "-q", "--utf8"]
    started = time.monotonic()
    try:
        done = subprocess.run(command, input=data, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as expired:
        text = normalise_pcbasic(expired.stdout or b"")
        return Run(text, failure=f"no end within {timeout} s", seconds=timeout)
    return pcbasic_ended(done.stdout, done.stderr, done.returncode, time.monotonic() - started)


def pcbasic_ended(out, err, code, seconds):
    """The Run of a PC-BASIC that ended by itself."""
    stderr = err.decode("utf-8", "replace")
    # PC-BASIC logs a harmless "Failed to save session" on stderr at every exit
    # when its keyboard is a pipe; a Python traceback is a crash.
    if code != 0 or "Traceback" in stderr:
        tail = stderr.strip().splitlines()
        return Run(
            normalise_pcbasic(out),
            failure=f"exit {code}: {tail[-1] if tail else ''}",
            code=code,
            seconds=seconds,
            stderr=stderr,
        )
    return Run(normalise_pcbasic(out), seconds=seconds, stderr=stderr)


def run_pcbasic_keys(binary, program, inputs, timeout):
    """A program that reads keys with INPUT$: PC-BASIC with piped input never
    hands INPUT$ a key, so the input lines go to its keyboard buffer instead
    (--keys), as basic-runner takes them: a line's characters are the keys,
    an empty line the Enter key. Its stdin stays open (at end of input
    PC-BASIC stops at once) until it ends by itself. Only INPUT$ and INKEY$
    read keys so: such a program asks no INPUT."""
    lines = inputs.decode("utf-8").splitlines()
    keys = "".join(line if line else "\r" for line in lines)
    command = [binary, str(program), "-n", "-q", "--utf8", "--keys=" + keys]
    started = time.monotonic()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    timer = threading.Timer(timeout, process.kill)
    timer.start()
    try:
        out = process.stdout.read()
        err = process.stderr.read()
        process.wait()
    finally:
        timer.cancel()
        process.stdin.close()
    seconds = time.monotonic() - started
    if seconds >= timeout:
        return Run(normalise_pcbasic(out), failure=f"no end within {timeout} s", seconds=timeout)
    return pcbasic_ended(out, err, process.returncode, seconds)


def run_tavern(binary, program, inputs, timeout):
    command = [binary, str(program), "--rnd", "gwbasic", "--echo-input"]
    started = time.monotonic()
    try:
        done = subprocess.run(command, input=inputs, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as expired:
        text = (expired.stdout or b"").decode("utf-8", "replace")
        return Run(text, failure=f"no end within {timeout} s", code=None, seconds=timeout)
    seconds = time.monotonic() - started
    stderr = done.stderr.decode("utf-8", "replace")
    text = done.stdout.decode("utf-8", "replace")
    # Exit codes of basic-runner/examples/run.rs: 0 finished or out of input,
    # 1 a BASIC error (a load error prints nothing on stdout), 3 a limit.
    failure = None
    if done.returncode == 1 and not text:
        failure = "refused: " + (stderr.strip().splitlines() or ["?"])[-1]
    elif done.returncode not in (0, 1):
        failure = f"exit {done.returncode}: " + (stderr.strip().splitlines() or [""])[-1]
    return Run(text, failure=failure, code=done.returncode, seconds=seconds, stderr=stderr)


def classify(tavern, pcbasic):
    if pcbasic.failure:
        return PCBASIC_FAILS
    if tavern.failure and tavern.failure.startswith("refused"):
        return TAVERN_REFUSES
    if tavern.failure:
        return TAVERN_LIMIT
    return SAME if tavern.text == pcbasic.text else DIFFERS


def first_difference(tavern, pcbasic, context):
    """A few lines of unified diff (PC-BASIC first), line ends shown."""
    a = [line + "\n" for line in pcbasic.split("\n")]
    b = [line + "\n" for line in tavern.split("\n")]
    diff = list(
        difflib.unified_diff(a, b, fromfile="pcbasic", tofile="tavern", n=1, lineterm="")
    )
    shown = [repr(line.rstrip("\n"))[1:-1] for line in diff[2 : 2 + context]]
    if len(diff) > 2 + context:
        shown.append(f"... ({len(diff) - 2 - context} more diff lines)")
    return shown


def read_allowlist(path):
    """{program: (outcome, why)}; the program is its path from the repository root."""
    allowed = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3 or fields[1] not in OUTCOMES[1:]:
            sys.exit(f"{path}:{number}: expected PROGRAM<tab>OUTCOME<tab>WHY")
        if not fields[2].strip():
            sys.exit(f"{path}:{number}: an entry must say why Tavern differs")
        allowed[fields[0]] = (fields[1], fields[2])
    return allowed


def programs(only):
    found = []
    for directory in DIRECTORIES:
        for path in sorted(directory.glob("*.bas")):
            name = str(path.relative_to(ROOT))
            if only is None or only in name:
                found.append(path)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--runner", default="target/release/examples/run", help="basic-runner's run example"
    )
    parser.add_argument("--pcbasic", default="pcbasic", help="the PC-BASIC command")
    parser.add_argument("--allowlist", type=Path, default=ORACLE / "basic-allowlist.txt")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per program and side")
    parser.add_argument("--context", type=int, default=8, help="diff lines shown per difference")
    parser.add_argument("--only", help="only programs whose path contains this text")
    parser.add_argument("--json", type=Path, help="write every outcome and both transcripts here")
    parser.add_argument("--verbose", action="store_true", help="print agreements too")
    args = parser.parse_args()

    # Without either side every program would count as a failure of that side,
    # so say what is missing instead.
    if shutil.which(args.pcbasic) is None:
        sys.exit(f"{args.pcbasic}: not found (apt-get install -y python3-pcbasic)")
    if not Path(args.runner).is_file():
        sys.exit(f"{args.runner}: not found (cargo build --release -p basic-runner --example run)")

    allowed = read_allowlist(args.allowlist)
    counts = dict.fromkeys(OUTCOMES, 0)
    explained = []
    unexplained = []
    records = []
    seen_allowed = set()
    listed = programs(args.only)
    for path in listed:
        name = str(path.relative_to(ROOT))
        input_path = path.with_suffix(".in")
        inputs = input_path.read_bytes() if input_path.exists() else b""
        tavern = run_tavern(args.runner, path, inputs, args.timeout)
        pcbasic = run_pcbasic(args.pcbasic, path, inputs, args.timeout)
        outcome = classify(tavern, pcbasic)
        counts[outcome] += 1
        line = f"{outcome:<15} {name}"
        if outcome == DIFFERS:
            line += "\n" + "\n".join(
                "    " + text for text in first_difference(tavern.text, pcbasic.text, args.context)
            )
        elif outcome != SAME:
            line += f"\n    tavern: {tavern.failure or 'ran'}\n    pcbasic: {pcbasic.failure or 'ran'}"
        entry = allowed.get(name)
        if outcome != SAME:
            if entry and entry[0] == outcome:
                seen_allowed.add(name)
                explained.append(line + f"\n    allowed: {entry[1]}")
            else:
                unexplained.append(line)
        elif args.verbose:
            print(line)
        records.append(
            {
                "program": name,
                "outcome": outcome,
                "allowed": entry[1] if entry and entry[0] == outcome else None,
                "tavern": {"failure": tavern.failure, "exit": tavern.code, "text": tavern.text},
                "pcbasic": {"failure": pcbasic.failure, "text": pcbasic.text},
            }
        )

    if explained:
        print("\n=== differences on purpose (allowlist) ===")
        print("\n".join(explained))
    if unexplained:
        print("\n=== differences NOT in the allowlist ===")
        print("\n".join(unexplained))
    stale = sorted(
        key for key in set(allowed) - seen_allowed if args.only is None or args.only in key
    )
    if stale:
        print("\n=== allowlist entries that no longer differ so (remove or update them) ===")
        print("\n".join(stale))

    print("\n=== figures ===")
    for directory in DIRECTORIES:
        within = sum(1 for path in listed if directory in path.parents)
        print(f"{directory.relative_to(ROOT)}: {within} programs")
    print(f"programs compared: {len(listed)}; " + ", ".join(f"{o} {counts[o]}" for o in OUTCOMES))
    print(f"unexplained: {len(unexplained)}; allowed: {len(explained)}")

    if args.json:
        args.json.write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
