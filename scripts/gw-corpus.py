#!/usr/bin/env python3
"""GW-BASIC's own recorded outputs as a check of basic-runner (issue 27).

PC-BASIC's test suite keeps, for each test, a folder NAME/ with the program
TEST.BAS, sometimes a PCBASIC.INI (the keys typed) and model/*.TXT: the files the
program wrote when run by real GW-BASIC. This script takes a directory of such
folders (never part of this repository: the programs are PC-BASIC's; see
BENCHMARKS.md, "GW-BASIC's recorded outputs", for where they come from), turns
each program into one basic-runner can run and compares its transcript with the
model. Each test is then one of:

- same: the transcript is the model's text;
- DIFFERS: it is not (a short unified diff, GW-BASIC first, is shown);
- REFUSED BY DESIGN: the program needs what basic-runner refuses on purpose
  (graphics, sound, files other than the model's, PEEK/POKE, the clock,
  direct mode, keyboard events: basic-runner/README.md, "Refused at load");
- NOT APPLICABLE: there is nothing to compare (no program, no text model, a
  model that is not the program's output, several output files at once).

Two kinds of test are mapped:

- file tests write their output with `OPEN "OUTPUT.TXT" FOR OUTPUT AS 1`,
  `PRINT#1, ...`, `CLOSE`: the OPEN and CLOSE of the model's file become
  `KEY OFF` (a statement basic-runner accepts and ignores, so that a `:` list
  keeps its shape) and `PRINT#1,` / `WRITE#1,` print to the screen. An error
  that ends the program goes to GW-BASIC's screen, not to the file, so a last
  line of basic-runner's transcript that is such an error message is cut, and so
  is RANDOMIZE's seed prompt;
- screen tests print to the screen and are then dumped with `RUN 1000` (a PEEK
  loop over the video memory): the dump routine is cut from the program, and the
  model's screen rows, right-trimmed, up to the `Ok` before `run 1000` are the
  expected transcript (the byte 0xFF GW-BASIC leaves after `Ok` and after an
  error message is dropped, as scripts/oracle-basic.py does for PC-BASIC).

The model's text is normalised only as GW-BASIC writes it: CR LF is a line end
and a ^Z (0x1A) ends the file. Keys in PCBASIC.INI that are plain lines become
the program's input lines.

    cargo build -p basic-runner --example run
    scripts/gw-corpus.py /work/wt/_gw --runner target/debug/examples/run [--only NAME]

A test with no model stored can still be checked against PC-BASIC: with
`--pcbasic PATH` the mapped program (the same text basic-runner runs) is run by
PC-BASIC too (`-n -q --utf8`, as scripts/oracle-basic.py does), its screen text
is the expectation and the outcome's note says "vs PC-BASIC". A screen test
without a model is cut at its dump routine (the line commented `dump screen`,
or the one before `DEF SEG=&HB800`).

    scripts/gw-corpus.py /work/wt/_gw2/unsorted --pcbasic /usr/bin/pcbasic

Only the Python standard library is used.
"""

import argparse
import difflib
import re
import subprocess
import sys
from pathlib import Path

SAME = "same"
DIFFERS = "DIFFERS"
REFUSED = "REFUSED BY DESIGN"
NOT_APPLICABLE = "NOT APPLICABLE"
OUTCOMES = (SAME, DIFFERS, REFUSED, NOT_APPLICABLE)

# The direct-mode commands a PCBASIC.INI may type; a test that types one of
# them (other than the screen dump's RUN) drives GW-BASIC's editor.
DIRECT_COMMANDS = {
    "run", "list", "llist", "cont", "auto", "edit", "renum", "new", "system",
    "load", "save", "delete", "merge", "chain", "files", "kill", "name",
}
OPEN_OUTPUT = re.compile(
    r'OPEN\s*"([^"]*)"\s*FOR\s+(OUTPUT|APPEND)\s+AS\s*#?\s*(\d+)', re.IGNORECASE
)
OPEN_ANY = re.compile(r"\bOPEN\b", re.IGNORECASE)
DUMP_ROUTINE = re.compile(r"DEF\s*SEG\s*=\s*&HB800", re.IGNORECASE)
SEED_PROMPT = "Random number seed (-32768 to 32767)? "
ERROR_LINE = re.compile(r"^[A-Z][A-Za-z /$-]+ in \d+$")


def decode(raw):
    """A model file's text: UTF-8 when it is (a copy re-encoded), else code page 437."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp437")


def normalise_model(raw):
    """GW-BASIC writes CR LF and may end a file with ^Z; nothing else is touched."""
    text = decode(raw)
    end = text.find("\x1a")
    if end >= 0:
        text = text[:end]
    return text.replace("\r\n", "\n")


def read_keys(folder):
    """The keys PCBASIC.INI types, as text with CR for Enter, or None."""
    ini = folder / "PCBASIC.INI"
    if not ini.exists():
        return None
    for line in decode(ini.read_bytes()).splitlines():
        name, _, value = line.partition("=")
        if name.strip().lower() == "keys":
            return value.strip().replace("\\r", "\r")
    return None


def outside_strings(line, transform):
    """Applies transform to the parts of a program line outside string literals."""
    parts = line.split('"')
    for index in range(0, len(parts), 2):
        parts[index] = transform(parts[index])
    return '"'.join(parts)


def map_file_output(program, number):
    """File number `number`'s output goes to the screen; its OPEN and CLOSE go."""
    printing = re.compile(r"(PRINT|\?|WRITE)\s*#\s*" + number + r"\s*,\s*", re.IGNORECASE)
    closing = re.compile(r"\bCLOSE\b(\s*#?\s*" + number + r"\b)?", re.IGNORECASE)
    lines = []
    for line in program.splitlines():
        line = OPEN_OUTPUT.sub("KEY OFF", line)
        # TRON's trace goes to GW-BASIC's screen, never into the file.
        line = re.sub(r"\bTRON\b", "KEY OFF", line, flags=re.I)
        line = re.sub(r"OPEN\s+N\$\s+FOR\s+OUTPUT\s+AS\s*#?\s*\d+", "KEY OFF", line, flags=re.I)

        def inner(part):
            part = printing.sub(lambda m: ("WRITE " if m.group(1).upper() == "WRITE" else "PRINT "), part)
            return closing.sub("KEY OFF", part)

        lines.append(outside_strings(line, inner))
    return "\n".join(lines) + "\n"


def line_number(line):
    match = re.match(r"\s*(\d+)", line)
    return int(match.group(1)) if match else None


class Case:
    """One test made runnable, or the reason it is not."""

    def __init__(self, name):
        self.name = name
        self.program = None
        self.expected = None
        self.inputs = ""
        self.outcome = None
        self.why = ""
        self.screen = False
        self.echo = False
        # No model: the expectation may come from PC-BASIC (--pcbasic).
        self.versus_pcbasic = False


def prepare(folder):
    case = Case(folder.name)
    source_path = folder / "TEST.BAS"
    if not source_path.exists():
        case.outcome, case.why = NOT_APPLICABLE, "no TEST.BAS (the test types its program)"
        return case
    raw = source_path.read_bytes()
    if raw[:1] in (b"\xff", b"\xfe"):
        case.outcome, case.why = NOT_APPLICABLE, "tokenised or protected TEST.BAS"
        return case
    program = decode(raw).replace("\r\n", "\n")
    models = sorted(p for p in (folder / "model").glob("*") if p.is_file())
    texts = [p for p in models if p.suffix.upper() == ".TXT"]
    keys = read_keys(folder) or ""
    key_lines = [k for k in keys.split("\r")]
    if key_lines and key_lines[-1] == "":
        key_lines.pop()

    if DUMP_ROUTINE.search(program):
        run_lines = [k for k in key_lines if k.lower().startswith("run ")]
        # Where PCBASIC.INI is not at hand, the routine's own comment names its RUN.
        said = re.search(r"RUN (\d+) to dump screen|dump screen with RUN (\d+)", program, re.I)
        if not run_lines and said:
            run_lines = ["run " + (said.group(1) or said.group(2))]
        # Or the program itself calls the routine: `N$="output.txt": GOSUB 1000`.
        called = re.search(r'N\$\s*=\s*"[^"]*"\s*:\s*GOSUB\s*(\d+)', program, re.IGNORECASE)
        # Or the program runs into the routine at its end, dumping to a .DAT file.
        dumps = [p for p in models if p.suffix.upper() == ".DAT"]
        kept = cut_dump_routine(program)
        if not texts and len(dumps) == 1 and not run_lines and not called and kept:
            case.program = kept
            rows = [row.rstrip(" ") for row in normalise_model(dumps[0].read_bytes()).split("\n")]
            while rows and rows[-1] == "":
                rows.pop()
            case.expected = "\n".join(rows) + "\n" if rows else ""
            case.screen = True
            case.echo = True
            case.inputs = "".join(k + "\n" for k in key_lines)
            return case
        if not texts:
            case.outcome, case.why = NOT_APPLICABLE, "screen dump without a model"
            case.program = cut_dump_routine(program)
            case.inputs = "".join(k + "\n" for k in key_lines if k.lower() != "system"
                                  and not k.lower().startswith("run"))
            case.versus_pcbasic = case.program is not None
            return case
        if len(texts) != 1 or not (run_lines or called):
            case.outcome, case.why = NOT_APPLICABLE, "screen dump without its RUN or model"
            return case
        if run_lines:
            dump_from = int(run_lines[0].split()[1])
        else:
            dump_from = int(called.group(1))
            program = program.replace(called.group(0), "KEY OFF")
            run_lines = ["run %d" % dump_from]
        kept = [line for line in program.splitlines() if (line_number(line) or 0) < dump_from]
        case.program = "\n".join(kept) + "\n"
        rows = [row.rstrip(" ") for row in normalise_model(texts[0].read_bytes()).split("\n")]
        cut = next((i for i, row in enumerate(rows) if row.strip().lower() == run_lines[0].lower()), len(rows))
        rows = rows[:cut]
        if rows and rows[-1].rstrip("\xff") == "Ok":
            rows.pop()
        # The rest of the screen is blank rows; the transcript has no such tail.
        while rows and rows[-1] == "":
            rows.pop()
        rows = [row.removesuffix("\xff").rstrip(" ") for row in rows]
        case.expected = "\n".join(rows) + "\n" if rows else ""
        case.screen = True
        other = [k for k in key_lines if k not in run_lines and k.lower() != "system"]
        case.inputs = "".join(k + "\n" for k in other)
        return case

    if "\\n" in keys:
        case.outcome, case.why = NOT_APPLICABLE, "types a line feed inside an input line"
        return case
    if any(k.split()[0].lower() in DIRECT_COMMANDS for k in key_lines if k.split()):
        case.outcome, case.why = REFUSED, "types direct-mode commands (" + keys.replace("\r", "\\r")[:40] + ")"
        return case
    if any(("\\x" in k or "\\e" in k or "^" in k or "\x1b" in k) for k in key_lines):
        case.outcome, case.why = REFUSED, "keyboard events in its keys"
        return case
    if not texts:
        case.outcome, case.why = NOT_APPLICABLE, "no model/*.TXT stored"
        # Still worth knowing whether basic-runner would refuse it by design.
        opened = [m.group(3) for m in OPEN_OUTPUT.finditer(program)]
        if len(set(opened)) == 1 and len(OPEN_ANY.findall(program)) == len(opened):
            case.program = map_file_output(program, opened[0])
            case.versus_pcbasic = True
        elif len(opened) == 1:
            case.program = map_file_output(program, opened[0])
        elif not OPEN_ANY.search(program):
            case.program = program
            case.versus_pcbasic = True
        else:
            # Several files: only worth running to see whether it is refused.
            case.program = program
        case.inputs = "".join(k + "\n" for k in key_lines)
        return case
    if len(texts) > 1:
        case.outcome, case.why = NOT_APPLICABLE, "writes several files (" + ", ".join(p.name for p in texts) + ")"
        return case
    model = texts[0]
    opened = {m.group(1).upper(): m.group(3) for m in OPEN_OUTPUT.finditer(program)}
    numbers = [number for name, number in opened.items() if name == model.name.upper()]
    n_dollar = re.search(r'N\$\s*=\s*"([^"]*)"', program, re.IGNORECASE)
    if not numbers and n_dollar and n_dollar.group(1).upper() == model.name.upper():
        numbers = re.findall(r"OPEN\s+N\$\s+FOR\s+OUTPUT\s+AS\s*#?\s*(\d+)", program, re.I)
    if not numbers:
        case.outcome, case.why = NOT_APPLICABLE, f"{model.name} is not opened FOR OUTPUT by name"
        return case
    if len(OPEN_ANY.findall(program)) > len(set(opened)) or len(opened) > 1:
        case.outcome, case.why = REFUSED, "opens files other than the model's"
        return case
    case.program = map_file_output(program, numbers[0])
    case.expected = normalise_model(model.read_bytes())
    case.inputs = "".join(k + "\n" for k in key_lines)
    return case


def cut_dump_routine(program):
    """A screen test's program without its PEEK dump routine, or None."""
    lines = program.splitlines()
    for index, line in enumerate(lines):
        if re.search(r"'\s*dump screen", line, re.IGNORECASE) or (
            DUMP_ROUTINE.search(line) and index > 0
        ):
            start = index if "dump screen" in line.lower() else index - 1
            return "\n".join(lines[:start]) + "\n"
    return None


def run_pcbasic(binary, program_text, inputs, timeout, scratch):
    """PC-BASIC's screen text for the mapped program, normalised as
    scripts/oracle-basic.py does (0xFF after an error message, CR LF, cp437)."""
    scratch.write_text(program_text, encoding="utf-8")
    data = inputs.replace("\n", "\r\n").encode("utf-8")
    command = [binary, str(scratch), "-n", "-q", "--utf8"]
    try:
        done = subprocess.run(command, input=data, capture_output=True, timeout=timeout,
                              cwd=scratch.parent)
    except subprocess.TimeoutExpired:
        return None
    raw = re.sub(rb"( in \d+|[a-z])\xff", rb"\1", done.stdout)
    raw = raw.replace(b"\xff", b"")
    return raw.replace(b"\r\n", b"\n").decode("cp437")


def run_runner(binary, program_text, inputs, timeout, scratch, echo=False):
    scratch.write_text(program_text, encoding="utf-8")
    command = [binary, str(scratch), "--rnd", "gwbasic"] + (["--echo-input"] if echo else [])
    try:
        done = subprocess.run(
            command, input=inputs.encode("utf-8"), capture_output=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return None, "no end within %s s" % timeout, ""
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def diff(expected, actual, context):
    a = expected.split("\n")
    b = actual.split("\n")
    lines = list(difflib.unified_diff(a, b, "gwbasic", "tavern", n=1, lineterm=""))[2:]
    shown = [repr(line)[1:-1] for line in lines[:context]]
    if len(lines) > context:
        shown.append(f"... ({len(lines) - context} more diff lines)")
    return shown


def compare(case, runner, timeout, scratch):
    code, out, err = run_runner(runner, case.program, case.inputs, timeout, scratch, case.echo)
    if code is None:
        case.outcome, case.why = DIFFERS, out
        case.actual = ""
        return
    if code == 1 and not out and "not allowed here" in err:
        case.outcome, case.why = REFUSED, err.strip().splitlines()[-1][:160]
        return
    if code == 1 and not out:
        case.outcome, case.why = DIFFERS, "load error: " + (err.strip().splitlines() or ["?"])[-1]
        case.actual = ""
        return
    if code == 3:
        case.why = "stopped at a limit"
    if case.versus_pcbasic:
        # Both sides printed to a screen: nothing is cut, but CLS writes a form
        # feed here where PC-BASIC's `-n` console writes nothing.
        out = out.replace("\x0c", "")
        case.actual = out
        case.outcome = SAME if out == case.expected else DIFFERS
        return
    if not case.screen:
        # RANDOMIZE's prompt is GW-BASIC's screen text, never the file's.
        out = out.replace(SEED_PROMPT, "")
        rows = out.rstrip("\n").split("\n")
        if rows and ERROR_LINE.match(rows[-1]):
            case.why = case.why or f"ended with the screen error '{rows[-1]}'"
            out = "\n".join(rows[:-1]) + ("\n" if len(rows) > 1 else "")
    else:
        # CLS clears GW-BASIC's screen: only what follows the last one is dumped.
        out = out.rsplit("\x0c", 1)[-1]
        rows = [row.rstrip(" ") for row in out.split("\n")]
        while rows and rows[-1] == "":
            rows.pop()
        out = "\n".join(rows) + "\n" if rows else ""
    case.actual = out
    case.outcome = SAME if out == case.expected else DIFFERS


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path, help="a folder of PC-BASIC test folders")
    parser.add_argument("--runner", default="target/debug/examples/run")
    parser.add_argument("--only", help="only the test of this name")
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--context", type=int, default=12, help="diff lines per difference")
    parser.add_argument("--pcbasic", help="PC-BASIC's command: check tests with no model against it")
    args = parser.parse_args()
    if not Path(args.runner).is_file():
        sys.exit(f"{args.runner}: not found (cargo build -p basic-runner --example run)")

    folders = sorted(p for p in args.directory.iterdir() if p.is_dir())
    if args.only:
        folders = [p for p in folders if p.name == args.only]
    scratch = Path("/tmp") / "gw-corpus-program.bas"
    counts = dict.fromkeys(OUTCOMES, 0)
    details = []
    for folder in folders:
        case = prepare(folder)
        if case.outcome is None:
            compare(case, args.runner, args.timeout, scratch)
        elif case.outcome == NOT_APPLICABLE and case.program:
            code, _, err = run_runner(args.runner, case.program, "", args.timeout, scratch)
            if code == 1 and "not allowed here" in err:
                case.outcome, case.why = REFUSED, err.strip().splitlines()[-1][:160]
                case.program = None
            elif args.pcbasic and case.versus_pcbasic:
                expected = run_pcbasic(args.pcbasic, case.program, case.inputs, args.timeout,
                                       scratch)
                if expected is None:
                    case.why = "PC-BASIC did not end"
                    case.program = None
                else:
                    case.expected, case.echo, case.why = expected, True, "vs PC-BASIC"
                    compare(case, args.runner, args.timeout, scratch)
            else:
                case.program = None
        counts[case.outcome] += 1
        kind = "screen" if case.screen else "file"
        print(f"{case.outcome:<18} {case.name}" + (f"  ({case.why})" if case.why else "")
              + (f" [{kind}]" if case.program else ""))
        if case.outcome == DIFFERS:
            details.append((case.name, diff(case.expected or "", case.actual, args.context)))
    for name, lines in details:
        print(f"\n--- {name}")
        print("\n".join("    " + line for line in lines))
    print("\ntests: %d; " % len(folders) + ", ".join(f"{o} {counts[o]}" for o in OUTCOMES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
