#!/usr/bin/env python3
"""A generated differential campaign for BASIC statements and control flow.

Generates many small random programs that always end (loops have bounded
ranges or counters, every retry of an error handler is counted, every jump goes
to a line that exists unless the program means it not to), runs each one in
basic-runner's `run` example (GW-BASIC random numbers, typed input echoed) and
in PC-BASIC (`-n -q`, the way scripts/oracle-basic.py runs it) with the same
input lines, and reports the programs whose transcripts differ, each shrunk to
a small reproducer: lines, then statements of a line, are dropped while the
two interpreters still disagree.

The areas are the ones GW-BASIC's own language tests exercise: FOR/NEXT
(several names in NEXT, wrong names, jumps out of and into loops, loops never
entered, negative and fractional steps), WHILE/WEND, GOSUB/RETURN (RETURN n),
ON x GOTO/GOSUB with x out of the list, IF/THEN/ELSE with `:` lists, END and
STOP, ON ERROR GOTO with ERR, ERL, RESUME in its forms and ERROR n, errors in
handlers and subroutines, statements broken after good ones on their line,
DATA/READ/RESTORE, DIM/ERASE/OPTION BASE, DEF FN, SWAP, the MID$ statement,
the string functions at their edge arguments, string comparison, INPUT and
LINE INPUT with generated answers, and PRINT's TAB, SPC, `,` and `;` near the
width (80 and WIDTH 40). Deeper areas: fnmore (FN calls nested in arguments
and bodies, string FNs, parameters shadowing globals, errors in a body),
arrays (DIM, ERASE and OPTION BASE in sequences, implicit and multi-dimension
arrays), stredge (string functions at 0, 255, 256, -1, INSTR past the end,
STR$/VAL round trips, comparisons, String too long), swap (each type, array
elements, mismatches), tron (TRON/TROFF marks), printpos (TAB past the
width, large SPC, items at columns 38-80 with `,` and `;`, WIDTH 40), memory
(FRE(0), FRE("") and FRE(1) after each kind of scalar, array and string,
ERASE, CLEAR with its sizes, DEF FN, nesting and lines of various statements;
strings until Out of string space and arrays until Out of memory, trapped),
deftype (DEFINT/DEFSNG/DEFDBL/DEFSTR met in another order than the text's:
inside loops, in subroutines placed after their callers, on IF branches,
before jumps back, with FOR, arrays, DEF FN, READ and INPUT on retyped names),
misc (RANDOMIZE and RND, MKx$/CVx, logical operators, CINT's ties, HEX$/OCT$,
STR$/VAL, \\ and MOD by zero, ^, STOP), justify (LSET and RSET on plain
string variables: literals, string space, empty, array elements, numbers,
broken forms, FRE after), keys (INPUT$ from the keyboard and INKEY$ after
it) and mutate (a valid statement broken at a random token: what runs before the
bad token).

gen_misc meets differences of known cause only: VAL reads a double
(fidelity_val_double), x^-n is GW-BASIC's inverted power (power_negative_
overflow), HEX$/OCT$ take FRQINT's word (oct_hex_range), MOD of a negative
dividend (mod_negative), VAL of &O (val_radix_reader) and the math pack's
last digit of a fractional power (gw_math_pack).

gen_mutate still meets differences that are not fixed or are PC-BASIC's: text
after a PRINT USING value or a COLOR/LOCATE value (allowlisted:
using_text_after_values, color_text_after), COLOR's ranges, a trailing comma and
no argument at all, `MID$(A$,2,1)=` (Missing operand here, Syntax error there),
`WIDTH 80 +`, `X = 2 THEN ...` (PC-BASIC runs the THEN), `40000 * 40000 ^ ;`
(PC-BASIC says Overflow), negative TAB and refused WRITE #.

Kept out because PC-BASIC 2.0.5 is wrong there by GW-BASIC's source (each has
a transcript test allowlisted in scripts/oracle/basic-allowlist.txt): RESUME
outside a handler with ON ERROR set (resume_without_error_trapped), an FN
argument naming an earlier parameter (def_fn_arguments_in_caller), DIM with an
index 0 under OPTION BASE 1 (dim_base_checked_before_duplicate), STRING$(n, "")
(string_of_empty_string), RESUME n to a missing line inside a handler
(resume_missing_line_in_handler), a CLEAR top higher than the one set
before or one that leaves the program no room (clear_sizes_checked). Where a
string or variable takes the very last free byte PC-BASIC 2.0.5 says Out of
string space or Out of memory (string_space_exact_fit), and after a trapped
error in a string expression it counts the next string assigned twice in
FRE("") (string_room_after_trapped_error): the memory area's loops meet both
now and then.

It avoids what basic-runner/README.md and scripts/oracle/basic-allowlist.txt
list as deliberate differences (STEP 0, MOD of negatives, negative TAB,
math-function digits, text glued to keywords, bad DATA items, CLEAR, number
formatting, which scripts/diff-basic.py covers).

Only the Python standard library is used. Run from the repository root:

    cargo build -p basic-runner --example run
    scripts/diff-basic-stmt.py --seed 1 --programs 300 --only-diffs --keep /tmp/stmt-diffs
    scripts/diff-basic-stmt.py --areas input,print --programs 100   # some areas only
    scripts/diff-basic-stmt.py --shrink-file PROG.bas                # shrink one program

A program that does not end within --timeout on either side is counted as
failed, not compared. Exit status 1 when any program differed, else 0.
"""

import argparse
import importlib.util
import os
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The oracle script's way of running PC-BASIC and normalising its output is the
# one this campaign must share, so it is imported, not repeated.
_spec = importlib.util.spec_from_file_location("oracle_basic", ROOT / "scripts" / "oracle-basic.py")
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)

MAX_STEPS = "200000"


# --------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------


class Program:
    """A program under construction: main lines, lines placed after END, inputs."""

    def __init__(self, rng):
        self.rng = rng
        self.main = []  # [text] numbered later
        self.tail = []  # subroutines and handlers, after the END
        self.inputs = []
        self.labels = {}  # label -> index in main/tail, resolved at render
        self.counter = 0

    def fresh(self, stem="L"):
        self.counter += 1
        return f"{stem}{self.counter}"

    def render(self):
        """Numbered lines; labels `@name` in text become the line numbers."""
        texts = list(self.main) + ["END"] + list(self.tail)
        numbers = {}
        lines = []
        for i, text in enumerate(texts):
            label = None
            if isinstance(text, tuple):
                label, text = text
            number = 10 * (i + 1)
            if label:
                numbers[label] = number
            lines.append([number, text])
        out = []
        for number, text in lines:
            for label, target in sorted(numbers.items(), key=lambda kv: -len(kv[0])):
                text = text.replace("@" + label, str(target))
            out.append(f"{number} {text}")
        return out


def pick(rng, *items):
    return rng.choice(items)


def small_int(rng):
    return rng.choice([0, 1, 2, 3, 5, -1, -2, 4, 10])


def gen_for(p):
    r = p.rng
    v, w = pick(r, "I", "J", "K%", "X"), pick(r, "N", "M", "Y")
    start = pick(r, "1", "0", "5", "-2", "1.5", "3")
    end = pick(r, "3", "1", "0", "-1", "2.5", "4", "5")
    step = pick(r, "", "", " STEP 1", " STEP -1", " STEP 2", " STEP .5", " STEP -.5", " STEP .25", " STEP -2")
    if v == "K%" and "." in step:  # an integer loop's step .5 is CINT'd to 0 or 1: STEP 0 never ends
        step = " STEP 1"
    shape = r.randrange(9)
    if shape == 0:  # plain loop, value after it
        p.main.append(f"FOR {v}={start} TO {end}{step}: PRINT {v};: NEXT {v}: PRINT {v}")
    elif shape == 1:  # nested, closed by one NEXT with two names (maybe the wrong order)
        order = pick(r, f"{w},{v}", f"{v},{w}", f"{w}", "")
        p.main.append(f"FOR {v}={start} TO {end}{step}")
        # an inner loop never entered that ends at NEXT w,v: PC-BASIC says Syntax
        # error, GW-BASIC goes on with v (NEXT86.ASM's LOOPDN), as basic-runner
        # does (next_names_after_skipped_loop)
        inner = pick(r, "2", "3") if "," in order else pick(r, "2", "0", "3")
        p.main.append(f"FOR {w}=1 TO {inner}: PRINT {v};{w};")
        p.main.append(f"NEXT {order}".rstrip())
        p.main.append(f"PRINT \"AFTER\";{v};{w}")
    elif shape == 2:  # jump out of a loop, then back into its body
        out, body = p.fresh(), p.fresh()
        p.main.append(f"FOR {v}=1 TO 5")
        p.main.append((body, f"PRINT {v};: IF {v}>={pick(r, '2', '3', '9')} THEN GOTO @{out}"))
        p.main.append(f"NEXT {v}")
        p.main.append((out, f"PRINT \"OUT\";{v}: C=C+1: IF C<{pick(r, '2', '3')} THEN GOTO @{body}"))
    elif shape == 3:  # never entered: skipped to the textually matching NEXT
        p.main.append(f"FOR {v}=5 TO 1: PRINT \"IN\": FOR {w}=1 TO 2: NEXT {w}: PRINT \"IN2\"")
        p.main.append(f"NEXT {pick(r, v, w, '')}".rstrip() + f": PRINT \"PAST\";{v}")
    elif shape == 4:  # wrong name in NEXT
        p.main.append(f"FOR {v}=1 TO 2: PRINT {v};: NEXT {w}: PRINT \"X\"")
    elif shape == 5:  # NEXT without FOR, FOR without NEXT
        p.main.append(pick(r, f"NEXT {v}", "NEXT", f"PRINT 1: NEXT {v}: PRINT 2"))
    elif shape == 6:  # restart: FOR on a running loop's variable
        p.main.append(f"FOR {v}=1 TO 3: FOR {w}=1 TO 2: IF {w}=2 THEN FOR {v}=7 TO 8: PRINT {v};: NEXT {v}")
        p.main.append(f"NEXT {w}: PRINT \"W\";{w}")
        p.main.append(f"NEXT {v}: PRINT \"V\";{v}")
    elif shape == 7:  # loop leaving by a GOSUB'd RETURN
        sub = p.fresh()
        p.main.append(f"FOR {v}=1 TO 3: GOSUB @{sub}: NEXT: PRINT \"R\";{v}")
        p.tail.append((sub, f"FOR {w}=1 TO 2: PRINT {v}*10+{w};: {pick(r, 'RETURN', 'NEXT: RETURN', f'NEXT {w}: RETURN')}"))
    else:  # integer loop variable past 32767, limits that are expressions
        # not -32766 TO -32768 STEP -1: PC-BASIC wraps the integer past -32768
        # to 32767 and goes on, where GW-BASIC says Overflow (next_integer_overflow_down)
        p.main.append(f"FOR K%={pick(r, '32765', '1')} TO {pick(r, '32767', '-32768', '3')} STEP {pick(r, '1', '-1', '2')}")
        p.main.append("PRINT K%;: C=C+1: IF C>6 THEN PRINT \"STOP\": GOTO @" + (lbl := p.fresh()))
        p.main.append("NEXT K%")
        p.main.append((lbl, "PRINT \"K\";K%"))


def gen_while(p):
    r = p.rng
    shape = r.randrange(6)
    n = pick(r, "0", "1", "3")
    if shape == 0:
        p.main.append(f"W=0: WHILE W<{n}: W=W+1: PRINT W;: WEND: PRINT \"W\";W")
    elif shape == 1:  # nested
        p.main.append(f"A=0: WHILE A<{n}: A=A+1: B=0")
        p.main.append(f"WHILE B<{pick(r, '0', '2')}: B=B+1: PRINT A;B;: WEND")
        p.main.append("WEND: PRINT \"DONE\"")
    elif shape == 2:  # jumped out, then a later WHILE and WEND
        out = p.fresh()
        p.main.append(f"W=0: WHILE W<5: W=W+1: IF W={pick(r, '2', '3')} THEN GOTO @{out}")
        p.main.append("WEND")
        p.main.append((out, f"PRINT \"OUT\";W: {pick(r, 'WEND', 'PRINT 0', 'WHILE W<4: W=W+1: WEND: PRINT W')}"))
    elif shape == 3:
        p.main.append(pick(r, "WEND", "PRINT 1: WEND: PRINT 2", "IF 1 THEN WEND"))
    elif shape == 4:  # WHILE without WEND
        p.main.append(f"WHILE {pick(r, '0', '1', 'X')}: PRINT \"IN\"")
    else:  # WHILE with a one-line body and a string condition
        p.main.append(f"S$=\"\": WHILE LEN(S$)<{n}: S$=S$+\"*\": WEND: PRINT S$")


def gen_gosub(p):
    r = p.rng
    shape = r.randrange(6)
    sub, sub2, back = p.fresh(), p.fresh(), p.fresh()
    if shape == 0:
        p.main.append(f"GOSUB @{sub}: PRINT \"BACK\"")
        p.tail.append((sub, f"PRINT \"SUB\": {pick(r, 'RETURN', 'RETURN: PRINT 9', 'GOSUB @' + sub2 + ': RETURN')}"))
        p.tail.append((sub2, "PRINT \"SUB2\": RETURN"))
    elif shape == 1:  # RETURN n
        p.main.append(f"GOSUB @{sub}: PRINT \"NOT HERE\"")
        p.main.append((back, "PRINT \"LANDED\""))
        p.tail.append((sub, f"PRINT \"S\": RETURN {pick(r, '@' + back, '@' + back, '65000')}"))
    elif shape == 2:
        p.main.append(pick(r, "RETURN", "PRINT 1: RETURN: PRINT 2"))
    elif shape == 3:  # GOSUB from inside a FOR; the subroutine's NEXT
        p.main.append(f"FOR I=1 TO 2: GOSUB @{sub}: PRINT I;: NEXT I")
        p.tail.append((sub, f"{pick(r, 'NEXT I', 'PRINT 5', 'FOR J=1 TO 2: NEXT J')}: RETURN"))
    elif shape == 4:  # GOSUB to a line that does not exist
        p.main.append(f"PRINT 1: GOSUB {pick(r, '9999', '15')}: PRINT 2")
    else:  # recursive GOSUB with a depth counter
        p.main.append(f"D=0: GOSUB @{sub}: PRINT \"D\";D")
        p.tail.append((sub, f"D=D+1: IF D<{pick(r, '3', '10')} THEN GOSUB @{sub}"))
        p.tail.append("RETURN")


def gen_on(p):
    r = p.rng
    x = pick(r, "0", "1", "2", "3", "4", "-1", "255", "256", "1.5", "2.5", "-.5", ".4", "3.5", "32768", "\"A\"")
    a, b, c, done = p.fresh(), p.fresh(), p.fresh(), p.fresh()
    kind = pick(r, "GOTO", "GOSUB")
    p.main.append(f"X={x}" if not x.startswith('"') else f"X$={x}")
    expr = "X" if not x.startswith('"') else "X$"
    p.main.append(f"ON {expr} {kind} @{a},@{b},@{c}: PRINT \"FELL\"")
    p.main.append(f"GOTO @{done}")
    tail = "RETURN" if kind == "GOSUB" else f"GOTO @{done}"
    p.main.append((a, f"PRINT \"A\": {tail}"))
    p.main.append((b, f"PRINT \"B\": {tail}"))
    p.main.append((c, f"PRINT \"C\": {tail}"))
    p.main.append((done, "PRINT \"ON DONE\""))


def gen_if(p):
    r = p.rng
    cond = lambda: pick(r, "1", "0", "X>1", "A$=\"B\"", "X", "NOT X", "X AND 2", "-1", "\"\"=\"\"")  # noqa: E731
    stmt = lambda: pick(r, "PRINT 1", "PRINT 2;", "X=X+1", "PRINT \"T\"", "A$=\"B\"")  # noqa: E731
    shape = r.randrange(4)
    if shape == 0:
        p.main.append(f"IF {cond()} THEN {stmt()}: {stmt()} ELSE {stmt()}: {stmt()}")
    elif shape == 1:
        p.main.append(f"IF {cond()} THEN IF {cond()} THEN {stmt()} ELSE {stmt()} ELSE {stmt()}")
    elif shape == 2:
        tgt = p.fresh()
        p.main.append(f"IF {cond()} GOTO @{tgt} ELSE {stmt()}: PRINT \"E\"")
        p.main.append((tgt, "PRINT \"T\""))
    else:
        p.main.append(f"IF {cond()} THEN {stmt()} ELSE IF {cond()} THEN {stmt()}: {stmt()}")
    if r.random() < 0.3:
        p.main.append(pick(r, "STOP", "END", "IF 1 THEN END", "IF X>50 THEN STOP"))


# (RESUME to a missing line inside a handler is not generated: PC-BASIC traps
# its Undefined line number and loops, resume_missing_line_in_handler.)
# Every handler counts the errors it takes and ends the program after a few,
# so that an error repeated by RESUME or by a jump back cannot loop for ever.
BOUND = "EC=EC+1: IF EC>12 THEN END"

ERRORS = ["1", "2", "3", "4", "5", "6", "7", "9", "11", "13", "14", "19", "20", "22", "24", "27", "30",
          "50", "52", "53", "57", "61", "62", "68", "71", "73", "76", "0", "255", "256", "100", "200", "-1",
          "21", "23", "26", "29", "31", "72", "74", "75", "77", "1.5", "254.6"]


def ensure_handler(p):
    if getattr(p, "handler", None):
        return
    p.handler = h = p.fresh("H")
    r = p.rng
    p.main.insert(0, f"ON ERROR GOTO @{h}")
    how = pick(r, "RESUME NEXT", "RESUME NEXT", "RESUME NEXT", "RESUME", "RESUME 0", "ON ERROR GOTO 0")
    if how in ("RESUME", "RESUME 0"):  # a retry, bounded by a counter
        how = f"IF EC<3 THEN {how} ELSE RESUME NEXT"
    p.tail.append((h, f"PRINT \"ERR\";ERR;\"ERL\";ERL: {BOUND}"))
    p.tail.append(how)


def gen_error(p):
    r = p.rng
    if r.random() < 0.8:
        ensure_handler(p)
    shape = r.randrange(7)
    if shape == 0:
        p.main.append(f"PRINT \"E\": ERROR {pick(r, *ERRORS)}: PRINT \"AFTER\"")
    elif shape == 1:  # error in a GOSUB'd routine
        sub = p.fresh()
        p.main.append(f"GOSUB @{sub}: PRINT \"BACK\";ERR")
        p.tail.append((sub, f"PRINT \"IN\": {pick(r, 'ERROR 5', 'X=1/0', 'A(11)=1', 'RETURN 9999', 'Y%=40000')}: PRINT \"ON\": RETURN"))
    elif shape == 2:
        # RESUME outside a handler only with trapping off: with ON ERROR set,
        # GW-BASIC traps the RESUME without error (REERR, then ERROR's
        # NTMDCN) where PC-BASIC stops (resume_without_error_trapped)
        p.main.append("ON ERROR GOTO 0: " + pick(r, "RESUME", "RESUME NEXT", "PRINT 1: RESUME 10"))
    elif shape == 3:  # an error the handler itself makes
        h2 = p.fresh("H")
        p.main.append(f"ON ERROR GOTO @{h2}: ERROR {pick(r, '5', '11', '200')}: PRINT \"AFTER2\"")
        p.tail.append((h2, f"PRINT \"H2\";ERR;ERL: {BOUND}: {pick(r, 'ERROR 7', 'ON ERROR GOTO 0', 'X=1/0', 'RESUME NEXT', 'ERROR ERR')}"))
        p.tail.append("RESUME NEXT")
    elif shape == 4:  # RESUME to a line number
        tgt = p.fresh()
        h3 = p.fresh("H")
        p.main.append(f"ON ERROR GOTO @{h3}: PRINT 1: ERROR 9: PRINT \"SKIPPED\"")
        p.main.append((tgt, "PRINT \"RESUMED\";ERR;ERL"))
        p.tail.append((h3, f"PRINT ERR;ERL: {BOUND}: RESUME @{tgt}"))
    elif shape == 5:  # error values of ERR and ERL outside a handler; ON ERROR GOTO a missing line
        p.main.append(pick(r, "PRINT ERR;ERL", "ON ERROR GOTO 9999: PRINT 1: ERROR 5", "ON ERROR GOTO 0: PRINT 2"))
    else:  # a run-time error of a statement in a handled program
        p.main.append(pick(r, "X=1/0: PRINT X", "X%=32768", "A$=STRING$(300,65)", "PRINT CHR$(256)",
                           "X=LOG(0)", "PRINT ASC(\"\")", "A(-1)=1", "DIM Q(5): DIM Q(3)",
                           "PRINT MID$(\"A\",0)", "PRINT 1: GOTO 9999", "PRINT \"A\"+1", "X=\"A\""))


def gen_trap(p):
    """Handlers that leave by other ways than RESUME, and errors inside loops."""
    r = p.rng
    h = p.fresh("T")
    sub = p.fresh("U")
    shape = r.randrange(6)
    p.main.append(f"ON ERROR GOTO @{h}")
    if shape == 0:  # an error inside a loop, resumed
        p.main.append(f"FOR I=1 TO 3: PRINT I;: IF I=2 THEN {pick(r, 'ERROR 5', 'X=1/0', 'NEXT J', 'RETURN')}")
        p.main.append("NEXT I: PRINT \"DONE\";I")
        p.tail.append((h, f"PRINT \"T\";ERR;ERL: {BOUND}: {pick(r, 'RESUME NEXT', 'RESUME NEXT', 'RESUME')}"))
    elif shape == 1:  # the handler RETURNs from the subroutine the error was in
        p.main.append(f"GOSUB @{sub}: PRINT \"BACK\": ERROR {pick(r, '6', '7')}: PRINT \"AFTER\"")
        p.tail.append((sub, "PRINT \"IN\": ERROR 5: PRINT \"NOT\": RETURN"))
        p.tail.append((h, f"PRINT \"T\";ERR;ERL: {BOUND}: RETURN"))
    elif shape == 2:  # the handler calls a subroutine, then resumes
        p.main.append(f"PRINT 1: ERROR {pick(r, '5', '11', '300')}: PRINT 2")
        p.tail.append((h, f"GOSUB @{sub}: {BOUND}: RESUME NEXT"))
        p.tail.append((sub, f"PRINT \"U\";ERR;ERL: {pick(r, 'RETURN', 'ERROR 9', 'RESUME NEXT')}"))
    elif shape == 3:  # the handler jumps back without RESUME: a later error finds it still running
        back = p.fresh("B")
        p.main.append(f"PRINT \"A\": ERROR 5")
        p.main.append((back, f"PRINT \"B\";ERR;ERL: {pick(r, 'ERROR 6', 'PRINT 1', 'RESUME', 'ON ERROR GOTO 0')}"))
        p.tail.append((h, f"PRINT \"T\";ERR;ERL: {BOUND}: GOTO @{back}"))
    elif shape == 4:  # a second handler set inside the first
        h2 = p.fresh("T")
        p.main.append(f"ERROR 5: PRINT \"M\";ERR;ERL: ERROR 6: PRINT \"N\"")
        p.tail.append((h, f"PRINT \"T\";ERR;ERL: {BOUND}: ON ERROR GOTO @{h2}: RESUME NEXT"))
        p.tail.append((h2, f"PRINT \"T2\";ERR;ERL: {BOUND}: RESUME NEXT"))
    else:  # an error inside a user function, in a WHILE, after RETURN
        p.main.append(f"DEF FNE(X)=1/X+LEN(STRING$(X,65)): PRINT FNE({pick(r, '0', '-1', '300', '2')})")
        p.main.append("W=0: WHILE W<2: W=W+1: PRINT FNE(W-1);: WEND: PRINT \"W\";W")
        p.tail.append((h, f"PRINT \"T\";ERR;ERL: {BOUND}: {pick(r, 'RESUME NEXT', 'RESUME NEXT', 'RESUME 0')}"))


def gen_syntax(p):
    r = p.rng
    good = pick(r, "PRINT \"G\";", "X=X+1", "PRINT X", "A$=\"Q\"")
    # RESUME X only with trapping off: with ON ERROR set GW-BASIC traps its
    # RESUME without error (REERR) where PC-BASIC stops (see gen_error)
    bad = pick(r,
               "PRINT 1+", "X=", "FOR I=1 TO", "NEXT I J", "GOTO", "GOSUB X", "IF THEN 10",
               "PRINT (1", "X=1)", "DIM A(", "INPUT", "ON X GOTO", "READ", "RESTORE X", "DEF FNA(X",
               "SWAP A", "ERASE", "WHILE", "ERROR", "ON ERROR GOTO 0: RESUME X", "LET 5=1", "PRINT \"A\" \"B\" ++",
               "X=2 3 +", "A$=LEFT$(\"AB\")", "PRINT MID$(\"AB\",1,2,3)", "PRINT CHR$()", "PRINT INSTR(\"A\")",
               "END 5", "STOP X", "X=1 2", "IF X THEN ELSE", "ON ERROR 10", "OPTION BASE 2",
               "PRINT LEN(\"A\",1)", "WEND 5", "RETURN X", "PRINT TAB(", "MID$(A$)=\"X\"")
    p.main.append(f"PRINT \"S\": {good}: {bad}: PRINT \"NOT\"")


def gen_data(p):
    r = p.rng
    # a string item read into a number is a Syntax error whose line GW-BASIC
    # and PC-BASIC name differently (allowlisted: read_error_lines), so numbers
    # are read only from DATA that holds numbers alone
    if not hasattr(p, "numeric_data"):  # one kind for all of a program's DATA
        p.numeric_data = r.random() < 0.5
    numeric = p.numeric_data
    if numeric:
        items = [pick(r, "1", "2.5", "-3", "1E3", "&H10", ".5", "", " 7 ") for _ in range(r.randrange(2, 6))]
        names = ("N", "N%", "A$", "N,M", "A$,N")
    else:
        items = [pick(r, "1", "\"A,B\"", "HELLO", " SP ", "\"\"", "", "1E3", "X Y") for _ in range(r.randrange(2, 6))]
        names = ("A$", "B$", "A$,B$", "A$,N$")
    dl = p.fresh()
    p.tail.append((dl, "DATA " + ",".join(items)))
    if r.random() < 0.5:
        p.tail.append("DATA 7,8" if numeric else "DATA 7,\"X\",8")
    reads = [pick(r, *names) for _ in range(r.randrange(1, 4))]
    p.main.append(f"READ {', '.join(reads)}: PRINT {';'.join(x for rd in reads for x in rd.split(','))}")
    if r.random() < 0.5:
        p.main.append(f"{pick(r, 'RESTORE', 'RESTORE @' + dl, 'RESTORE 9999')}: READ C$: PRINT C$")
    if r.random() < 0.4 and not numeric:
        p.main.append("FOR Z=1 TO 8: READ D$: PRINT D$;\"/\";: NEXT Z")


def gen_dim(p):
    r = p.rng
    shapes = [
        [f"{pick(r, '', 'OPTION BASE 1: ', 'OPTION BASE 0: ')}DIM A({pick(r, '3', '0', '10', '2,2')})",
         f"A({pick(r, '0', '1', '3', '4', '11', '-1', '2.5', '1,1', '3,3')})=5: PRINT \"OK\""],
        ["DIM B(2): B(1)=7: ERASE B: PRINT B(1): DIM B(5): PRINT B(5)"],
        [pick(r, "DIM C(3): DIM C(3)", "C(2)=1: DIM C(4)", "ERASE Z", "OPTION BASE 1: OPTION BASE 0",
              "DIM C(2): OPTION BASE 1", "OPTION BASE 3", "DIM E(32768)", "DIM E(-1)")],
        [f"DIM S$(2): S$(1)=\"X\": PRINT S$(1);S$(2);LEN(S$(0)): PRINT S$({pick(r, '3', '2')})"],
        # an undeclared array is 0..10 on first use
        [f"PRINT U({pick(r, '10', '11', '0')}): U(5)=2: PRINT U(5)"],
        ["DIM M%(2,3): M%(2,3)=4: PRINT M%(2,3): PRINT M%(3,2)"],
    ]
    p.main.extend(r.choice(shapes))


def gen_deffn(p):
    r = p.rng
    # not a body that is only the parameter: PC-BASIC 2.0.5 gives 0 for it
    arg = pick(r, '"S"', "1", "A$")
    shapes = [
        "X=5: DEF FNA(X)=X*2+1: PRINT FNA(3);X",
        pick(r, "PRINT FNQ(1)", "DEF FNR(X)=FNR(X-1): PRINT FNR(2)", "DEF FNS$(A$)=A$+\"!\": PRINT FNS$(\"HI\")"),
        f"DEF FNT(A,B)=A-B: PRINT FNT(5,{pick(r, '2', '2,3', '')})",
        "Y=1: DEF FNU=Y*10: PRINT FNU: Y=2: PRINT FNU",
        f"DEF FNV(X)=X+1: PRINT FNV({arg})",
    ]
    p.main.append(r.choice(shapes))


def gen_swap_mid(p):
    r = p.rng
    shape = r.randrange(4)
    if shape == 0:
        # not a second variable nothing assigns: basic-runner decides that by the
        # program's text (README, SWAP), GW-BASIC when SWAP's PTRGET makes it
        p.main.append(f"A=1: B=2: SWAP A,B: PRINT A;B: {pick(r, 'SWAP A,C$', 'B%=3: SWAP A%,B%', 'SWAP A,B')}: PRINT A;B")
    elif shape == 1:
        m, n = pick(r, "1", "2", "5", "0", "6", "256", "-1"), pick(r, "", ",0", ",1", ",3", ",255", ",256")
        if m in ("0", "256", "-1") and n == ",0":  # PC-BASIC lets these pass (mid_assign_position_checked)
            n = ",1"
        p.main.append(f"A$=\"HELLO\": MID$(A$,{m}{n})=\"XYZ\": PRINT A$")
    elif shape == 2:
        p.main.append("A$=\"AB\": B$=\"CD\": SWAP A$,B$: PRINT A$;B$")
    else:
        p.main.append(f"DIM Z(2): Z(1)=3: SWAP Z(1),Z({pick(r, '2', '3')}): PRINT Z(1);Z(2)")


def gen_strings(p):
    r = p.rng
    num = lambda: pick(r, "0", "1", "2", "5", "255", "256", "-1", "3.5", "32768")  # noqa: E731
    # codes below 32 print as control characters, and CHR$(0) is not written
    # (basic-runner/README.md): the edges are checked with printable codes
    code = lambda: pick(r, "65", "255", "256", "-1", "32", "126", "65.5", "32768")  # noqa: E731
    s = pick(r, "\"HELLO\"", "\"\"", "\"A\"", "S$")
    f = pick(r, f"LEFT$({s},{num()})", f"RIGHT$({s},{num()})", f"MID$({s},{num()})", f"MID$({s},{num()},{num()})",
             f"INSTR({s},\"L\")", f"INSTR({num()},{s},\"L\")", f"INSTR({s},\"\")", f"INSTR({num()},{s},\"\")",
             f"STRING$({num()},\"AB\")", f"STRING$(3,{code()})", f"SPACE$({num()})", f"ASC({s})",
             f"CHR$({code()})", f"LEN({s})", f"LEN(SPACE$({num()}))", f"LEN(STRING$({num()},42))")
    cmp = pick(r, "\"A\"<\"B\"", "\"AB\">\"A\"", "\"\"<\"A\"", "\"a\">\"B\"", "\"ABC\"=\"ABC \"", "S$>=\"HE\"")
    p.main.append(f"S$=\"HELLO\": PRINT \"[\";{f};\"]\": PRINT {cmp}")


def gen_input(p):
    r = p.rng
    shape = r.randrange(5)
    answer = lambda: pick(r, "5", "1,2", "ABC", "\"Q,R\"", "", "1,2,3", " 7 ", "1E3", "X1", "\"A\" B",  # noqa: E731
                          "-0", "3.5", ",", "&H1F", "1 2", "40000", "\"\"")
    if shape == 0:
        p.main.append(f"INPUT {pick(r, 'A', 'A$', 'A,B', 'A$,B', 'A%')}: PRINT \"GOT\"")
    elif shape == 1:
        prompt = pick(r, '"NUM";', '"NUM",', ";", "")
        p.main.append(f"INPUT {prompt}A$,N: PRINT A$;N")
    elif shape == 2:
        prompt = pick(r, '"L? ";', "", ";")
        p.main.append(f"LINE INPUT {prompt}L$: PRINT \"[\";L$;\"]\"")
    elif shape == 3:
        p.main.append("PRINT \"AB\";: INPUT X: PRINT X")
    else:
        p.main.append("INPUT \"N\";N%: PRINT N%")
    for _ in range(r.randrange(1, 4)):
        p.inputs.append(answer())


def gen_print(p):
    r = p.rng
    item = lambda: pick(r, "\"ABCDEFGHIJ\"", "123", "-4.5", "STRING$(30,\"X\")", "STRING$(75,\"Y\")",  # noqa: E731
                        f"TAB({pick(r, '10', '39', '40', '41', '79', '80', '81', '1', '0', '255')})",
                        f"SPC({pick(r, '5', '39', '79', '80', '81', '0', '255')})", "POS(0)", "\"\"")
    sep = lambda: pick(r, ";", ",", " ", ";")  # noqa: E731
    if r.random() < 0.2:
        p.main.append(f"WIDTH {pick(r, '40', '80')}")
    items = "".join(item() + sep() for _ in range(r.randrange(1, 6)))
    p.main.append(f"PRINT {items}".rstrip())
    if r.random() < 0.3:
        p.main.append("PRINT POS(0)")


def gen_fnmore(p):
    """DEF FN deeper: calls nested in calls and in other bodies, string
    functions, parameters that shadow globals, errors inside a body."""
    r = p.rng
    if not getattr(p, "fns", False):
        p.fns = True
        # defined once, before any use; bodies call each other one way only
        p.main.append("X=7: Y=3: A$=\"G\": DEF FNA(X)=X*X+Y: DEF FNB(X,Y)=FNA(Y)-X")
        p.main.append("DEF FNS$(A$,N)=LEFT$(A$+A$,N)+\"|\": DEF FNL(A$)=LEN(A$)+X")
        p.main.append("DEF FNE(X)=1/X+FNA(X): DEF FNI%(X)=X*1000: DEF FNC$(X)=CHR$(64+X)")
    arg = lambda: pick(r, "1", "0", "-2", "X", "Y", "2.5", "FNA(1)", "FNB(1,2)", "40")  # noqa: E731
    # FNB's second argument names no parameter and calls no FN: GW-BASIC reads
    # every argument in the caller's variables (PTRGET searches PARM1 only),
    # PC-BASIC binds X before it reads the next one (def_fn_arguments_in_caller)
    late = lambda: pick(r, "1", "0", "-2", "Y", "2.5", "40")  # noqa: E731
    text = lambda: pick(r, "\"AB\"", "A$", "\"\"", "FNS$(\"Q\",3)", "STRING$(200,65)", "FNC$(2)")  # noqa: E731
    p.main.append(pick(r,
                       f"PRINT FNA({arg()});FNB({arg()},{late()});X;Y",
                       f"PRINT FNS$({text()},{pick(r, '0', '1', '3', '255', '256', '-1')});A$",
                       f"PRINT FNL({text()});FNE({arg()});X",
                       f"PRINT FNI%({arg()})", f"PRINT FNC$({arg()});FNC$(FNA(1))",
                       f"Z=FNA(FNB({arg()},{late()})): PRINT Z;X;Y",
                       f"PRINT FNS$(FNS$({text()},4),9);FNL(FNC$(3))",
                       "PRINT FNZ(1)", "PRINT FNA(\"S\")", "PRINT FNS$(1,2)", "PRINT FNA(1,2)"))


def gen_arrays(p):
    """DIM, ERASE and OPTION BASE in sequences, implicit arrays, several dimensions."""
    r = p.rng
    name = pick(r, "P", "Q%", "R$", "T#")
    idx = lambda: pick(r, "0", "1", "3", "10", "11", "-1", "2.5", "2.4")  # noqa: E731
    val = "\"V\"" if name.endswith("$") else "4"
    # no DIM with an index of 0: under OPTION BASE 1 GW-BASIC's PTRGET says
    # Subscript out of range before it finds the array, PC-BASIC Duplicate
    # Definition (dim_base_checked_before_duplicate)
    steps = [
        f"DIM {name}({pick(r, '3', '10', '2,3', '1,1,1', '255')})",
        f"{name}({idx()})={val}", f"PRINT {name}({idx()})", f"PRINT {name}({idx()},{idx()})",
        f"ERASE {name}", f"DIM {name}({pick(r, '5', '2', '12')})",
        f"OPTION BASE {pick(r, '0', '1')}", f"{name}({idx()},{idx()})={val}",
        f"PRINT {name}({pick(r, '10', '11')})", f"ERASE {name},{name}",
    ]
    p.main.append(": ".join(r.choice(steps) for _ in range(r.randrange(2, 5))) + ": PRINT \"A\"")


def gen_stredge(p):
    """String functions at their edge arguments, round trips, comparisons, 255."""
    r = p.rng
    n = lambda: pick(r, "0", "1", "4", "5", "6", "255", "256", "-1", "65535", "2.5")  # noqa: E731
    s = pick(r, '"HELLO"', '""', "S$", "B$")
    sought = pick(r, '"L"', '""', '"LO"', "S$")
    # not STRING$(n, ""): GW-BASIC's STRNG$ is Illegal function call there
    # (ASC2), PC-BASIC an empty string (string_of_empty_string); no VAL of a
    # number past 7 digits: VAL is a double (README, Dialect: VAL)
    filler = pick(r, '"XY"', "S$", "66")
    number = pick(r, "1.5", "-3", "1E5", "1234567", ".1", "-0")
    digits = pick(r, '" 12 3"', '"1E"', '"&H10"', '"-.5E1"', '""', '"+"')
    other = pick(r, '"HELL"', '"HELLO "', '""', '"hello"', "B$")
    tail = pick(r, "B$", "S$", '""', 'STRING$(55,33)', 'STRING$(56,33)')
    p.main.append(f"S$=\"HELLO\": B$=STRING$({pick(r, '200', '255', '10')},\"-\")")
    p.main.append(pick(r,
                       f"PRINT \"[\";LEFT$({s},{n()});\"]\";\"[\";RIGHT$({s},{n()});\"]\"",
                       f"PRINT \"[\";MID$({s},{n()});\"]\";\"[\";MID$({s},{n()},{n()});\"]\"",
                       f"PRINT INSTR({n()},{s},{sought});INSTR({s},{s})",
                       f"PRINT STRING$({n()},{filler});\"|\"",
                       f"PRINT LEN(SPACE$({n()}));\"[\";SPACE$({pick(r, '0', '1', '3')});\"]\"",
                       f"PRINT VAL(STR$({number}));STR$(VAL({digits}))",
                       f"PRINT {s}{pick(r, '<', '>', '=', '<>', '<=')}{other}",
                       f"A$={s}+{s}: PRINT LEN(A$)", f"A$=B$+{tail}: PRINT LEN(A$)",
                       f"PRINT LEN({s}+{pick(r, 'B$', 'SPACE$(56)', 'SPACE$(55)')})"))


def gen_swap(p):
    """SWAP of every type, of array elements, and of mismatched types."""
    r = p.rng
    pairs = ["A%,B%", "A!,B!", "A#,B#", "A$,B$", "A%,B!", "A$,B%", "D(1),D(2)", "D(1),A!", "E$(0),E$(2)",
             "E$(1),A$", "D(1),D(11)", "A#,D(2)", "F%(1,2),F%(2,1)"]
    if not getattr(p, "swapped", False):
        p.swapped = True
        p.main.append("DIM D(5),E$(3),F%(2,2)")
    p.main.append("A%=1: B%=2: A!=1.5: B!=-2.5: A#=1/3#: B#=2#: A$=\"X\": B$=\"YY\"")
    p.main.append("D(1)=10: D(2)=20: E$(0)=\"E0\": E$(2)=\"E2\": F%(1,2)=12")
    pair = pick(r, *pairs)
    p.main.append(f"SWAP {pair}: PRINT {pair.replace(',', ';')}")


def gen_tron(p):
    """TRON and TROFF: [n] for each line entered, through jumps and loops."""
    r = p.rng
    p.main.append(pick(r, "TRON", "TRON: PRINT \"T\"", "PRINT \"A\";: TRON"))
    p.main.append(pick(r, "FOR I=1 TO 2: PRINT I;: NEXT", "PRINT \"B\"", "GOSUB @TRSUB", "PRINT \"C\";"))
    if not getattr(p, "trsub", False):
        p.trsub = True
        p.tail.append(("TRSUB", "PRINT \"S\": RETURN"))
    p.main.append(pick(r, "TROFF", "PRINT \"D\": TROFF", "TROFF: PRINT \"E\"", "PRINT"))


def gen_printpos(p):
    """PRINT near the width: TAB past it, SPC large, `,` and `;` at column 80 or 40."""
    r = p.rng
    if r.random() < 0.3:
        p.main.append(f"WIDTH {pick(r, '40', '80')}")
    pre = pick(r, "STRING$(70,\"A\")", "STRING$(78,\"A\")", "STRING$(79,\"A\")", "STRING$(80,\"A\")",
               "STRING$(38,\"A\")", "STRING$(39,\"A\")", "STRING$(27,\"A\")", "\"\"")
    item = lambda: pick(r, "\"BC\"", "123", "-1", "STRING$(14,\"Z\")", "\"\"",  # noqa: E731
                        f"TAB({pick(r, '1', '40', '41', '79', '80', '81', '100', '255', '256', '32767')})",
                        f"SPC({pick(r, '0', '1', '39', '40', '79', '80', '81', '200', '255', '256', '32767')})")
    items = "".join(item() + pick(r, ";", ",", ";", "") for _ in range(r.randrange(1, 5)))
    p.main.append(f"PRINT {pre};{items}".rstrip())
    p.main.append("PRINT POS(0)")


# Statements mixed at random, a few to a line: the interactions the shapes
# above do not reach (an error in the middle of a loop, a NEXT met after a
# jump, a RETURN with loops open, PRINT after INPUT). Loops close within a
# statement or are left open on purpose; nothing jumps backwards.
SOUP = [
    "PRINT X;Y$", "PRINT TAB(12);\"*\";", "PRINT SPC(3);X", "PRINT ,\"Z\",", "PRINT", "PRINT X,;Y$;",
    "X=X+1", "Y$=Y$+\"A\"", "Z%=Z%*2+1", "A(X)=X", "PRINT A(X)",
    "FOR I=1 TO 2: PRINT I;: NEXT", "FOR I=1 TO 3", "NEXT", "NEXT I", "FOR J=3 TO 1 STEP -1", "NEXT J,I", "PRINT I;J",
    "K=0: WHILE K<2: K=K+1: WEND", "WHILE K<1: K=K+1", "WEND",
    "ERROR 5", "X=1/0", "Z%=40000", "A(20)=1", "Y$=STRING$(200,\"A\")+STRING$(100,\"B\")", "PRINT ERR;ERL",
    "GOSUB @SUB", "RETURN", "ON X GOSUB @SUB,@SUB", "ON X GOTO @NEXTLINE",
    "IF X>2 THEN PRINT \"BIG\" ELSE PRINT \"SMALL\"", "IF X THEN NEXT", "IF K THEN WEND ELSE PRINT K",
    "READ D$: PRINT D$", "RESTORE", "PRINT LEFT$(Y$,X);LEN(Y$)", "MID$(Y$,2)=\"Q\"",
    "DIM B(X)", "ERASE A", "PRINT FRE(0)>0", "PRINT POS(0)",
]


def gen_soup(p):
    r = p.rng
    if not hasattr(p, "soup_sub"):
        p.soup_sub = p.fresh("SUB")
        p.tail.append((p.soup_sub, "PRINT \"SUB\";X: RETURN"))
        # numbers, which every READ of the program can take (see gen_data)
        p.tail.append("DATA 1,2.5,-3")
    for _ in range(r.randrange(2, 6)):
        here = p.fresh("S")
        stmts = [r.choice(SOUP) for _ in range(r.randrange(1, 4))]
        text = ": ".join(stmts).replace("@SUB", "@" + p.soup_sub).replace("@NEXTLINE", "@" + here)
        p.main.append(text)
        p.main.append((here, "REM"))


def clear_with_sizes(p, *choices):
    """One of the CLEARs given whose top (CLEAR ,n) is no higher than the last
    one the program set: PC-BASIC 2.0.5 refuses a higher top with Out of
    memory, where GW-BASIC's CLEAR allows up to MAXMEM (clear_sizes_checked)."""
    top = getattr(p, "clear_top", 65534)
    fits = [c for c in choices if clear_top(c) is None or clear_top(c) <= top]
    choice = p.rng.choice(fits or [""])
    if clear_top(choice) is not None:
        p.clear_top = clear_top(choice)
    return choice


def clear_top(text):
    parts = text.removeprefix("CLEAR").split(":")[0].split(",")
    return int(parts[1]) if len(parts) > 1 and parts[1].strip() else None


def gen_memory(p):
    """FRE(0), FRE("") and FRE(1) after each kind of thing that takes memory:
    scalars and arrays of each type, strings built by concatenation and string
    functions, ERASE, CLEAR with its sizes, DEF FN, nested GOSUB/FOR/WHILE,
    lines of various statements, and loops that fill the string space until
    error 14 or the segment until error 7 with a handler that reports ERR and FRE."""
    r = p.rng
    fre = lambda: pick(r, "FRE(0)", 'FRE("")', "FRE(1)", 'FRE(0);FRE("")')  # noqa: E731
    name = pick(r, "A", "B%", "C!", "D#", "E$", "LONGNAME", "XY%", "ZZ$", "N.1#")
    value = '"TEXT"' if name.endswith("$") else "3"
    dims = pick(r, "0", "1", "10", "100", "2,3", "20,20", "1,1,1", "500")
    arr = pick(r, "P", "Q%", "R!", "T#", "S$", "ARR%", "LONG$")
    clear = clear_with_sizes(p, "CLEAR", "CLEAR ,30000", "CLEAR 1000", "CLEAR ,20000", "CLEAR 100,40000",
                             "CLEAR ,,1000", "CLEAR ,40000,500")
    stmt = pick(r, "REM A COMMENT", "REM", "' NOTE", "GOTO @NEXT", "ON 1 GOTO @NEXT", "IF 1 THEN PRINT ELSE PRINT",
                "A=1.5#+2.5!", "DATA 1,2,3", "PRINT TAB(3);SPC(2);", "A=&H10+&O7", "X=ABS(-1)+SGN(2)+INT(3.5)",
                "WHILE 0: WEND", "X=1E10+123456789#", "MID$(A$,1)=\"Q\"", "SWAP A,B", "LOCATE 1,1")
    elem = '"V"+"W"' if arr.endswith("$") else "1"
    shapes = [
        f"PRINT {fre()}: {name}={value}: PRINT {fre()}",
        f"PRINT {fre()}: DIM {arr}({dims}): PRINT {fre()}: {arr}(0)={elem}: PRINT {fre()}",
        f"DIM {arr}({dims}): PRINT {fre()}: ERASE {arr}: PRINT {fre()}",
        f"A$=\"AB\": FOR I=1 TO {pick(r, '3', '5', '10')}: A$=A$+A$: NEXT: PRINT LEN(A$);{fre()}",
        f"A$=STRING$({pick(r, '10', '100', '255')},\"X\"): B$=MID$(A$,{pick(r, '2', '5')},{pick(r, '3', '50')}): C$=LEFT$(A$,{pick(r, '1', '20')}): PRINT {fre()}",
        f"A$=\"HELLO\"+\"\": B$=A$: PRINT {fre()}: A$=\"\": PRINT {fre()}: B$=\"\": PRINT {fre()}",
        f"DIM S$({pick(r, '5', '20')}): FOR I=0 TO {pick(r, '3', '5')}: S$(I)=STR$(I)+\"Z\": NEXT: PRINT {fre()}: ERASE S$: PRINT {fre()}",
        f"X=1: Y$=\"Q\": DIM W({pick(r, '5', '9')}): PRINT {fre()}: {clear}: PRINT {fre()}",
        f"PRINT {fre()}: DEF FN{pick(r, 'A', 'B$', 'LONG')}({pick(r, 'X', 'X,Y', 'Q$')})={pick(r, '1', '2')}: PRINT {fre()}",
        f"PRINT {fre()}: FOR I=1 TO 2: FOR J=1 TO 2: PRINT {fre()}: NEXT J,I: PRINT {fre()}",
        (f"I=0: WHILE I<{pick(r, '1', '2')}: I=I+1: PRINT {fre()}: WEND: PRINT {fre()}"),
        f"GOSUB @{p.fresh('M')}G: PRINT {fre()}",
        f"PRINT {fre()}: {stmt}: PRINT {fre()}",
    ]
    shape = r.randrange(len(shapes) + 3)
    if shape < len(shapes):
        text = shapes[shape]
        if "@NEXT" in text:
            label = p.fresh("N")
            text = text.replace("@NEXT", "@" + label)
            p.main.append(text)
            p.main.append((label, f"PRINT {fre()}"))
            return
        if "GOSUB @" in text:
            label = text.split("@")[1].split(":")[0]
            p.main.append(text)
            p.tail.append((label, f"PRINT {fre()}: GOSUB @{label}X: RETURN"))
            p.tail.append((label + "X", f"PRINT {fre()}: RETURN"))
            return
        p.main.append(text)
        return
    handler = p.fresh("H")
    done = p.fresh("D")
    shape -= len(shapes)
    # a CLEAR first: it ends ON ERROR. Not a size that leaves the program no
    # room: GW-BASIC's CLEAR says Out of memory there, PC-BASIC 2.0.5 goes on
    # with less than nothing free (clear_sizes_checked)
    clear = clear_with_sizes(p, "CLEAR ,30000: ", "CLEAR ,20000: ", "CLEAR ,,2000: ", "", "")
    if shape == 0:  # strings until Out of string space
        p.main.append(f"{clear}ON ERROR GOTO @{handler}: N=0: DIM Z$(300)")
        p.main.append(f"FOR N=0 TO 300: Z$(N)=STRING$({pick(r, '200', '255', '100')},\"A\"): NEXT: PRINT \"NO ERROR\"")
    elif shape == 1:  # strings, then arrays until Out of memory
        # arrays GW-BASIC's segment could not hold even without strings run
        # here (README, Limits: max_memory_bytes), so the strings fill it first
        kind = pick(r, "%", "!", "#", "$")
        p.main.append(f"{clear}ON ERROR GOTO @{handler}: N=0: DIM Z$(150)")
        p.main.append(f"FOR N=0 TO {pick(r, '100', '150', '120')}: Z$(N)=STRING$(255,\"A\"): NEXT: Z$({pick(r, '1', '7')})=\"\"")
        p.main.append(f"FOR N=1 TO 50: DIM X{kind}(N*{pick(r, '100', '70', '31')}): {pick(r, 'PRINT N;: ', '')}ERASE X{kind}: NEXT")
    else:  # one string grows until Out of string space (or String too long)
        p.main.append(f"{clear}ON ERROR GOTO @{handler}: A$=\"\": N=0")
        p.main.append(f"FOR N=1 TO 300: B$(N MOD 10)=A$+STRING$(N,\"B\"): NEXT")
    p.main.append((done, f"ON ERROR GOTO 0: PRINT \"DONE\";{fre()}"))
    p.tail.append((handler, f"PRINT \"ERR\";ERR;\"N\";N;{fre()}: RESUME @{done}"))
# Valid statements as tokens, which gen_mutate breaks at a random token. The
# values before the break are chosen to show what ran: functions that raise
# (LOG(0), SQR(-1), CHR$(300)), Division by zero and Overflow, which print a
# message and go on, and items printed before the break. `TAB(`/`SPC(` are one
# word as in GW-BASIC's reserved word table (IBMRES.ASM); `@T` is a line that
# prints where a jump lands.
MUTATE = [
    'PRINT 1 ; LOG ( X ) ; "A" ; 2',
    'PRINT "A" ; 1 / 0 ; SQR ( -1 ) , CHR$ ( 65 )',
    'PRINT TAB( 5 ) ; "T" ; SPC( 2 ) ; X',
    'PRINT X + 1 , ASC ( "" ) ; LEN ( B$ )',
    'PRINT 40000 * 40000 ^ 9 ; "O"',
    'A = 1 + X * 2',
    'A = ( 2 + X ) / 3',
    'A = FNX ( 3 ) + 1',
    'A = 1 / 0 + 2',
    'A = LOG ( 0 ) + 1',
    'A% = 40000 + X',
    'B$ = LEFT$ ( B$ , 2 ) + MID$ ( B$ , 2 , 1 )',
    'A = INSTR ( B$ , "L" ) + VAL ( STR$ ( X ) )',
    'B$ = CHR$ ( 300 ) + "Q"',
    'FOR I = 1 TO 3 STEP 1',
    'FOR I = X TO LOG ( 0 ) STEP 2',
    'FOR I = 1 / 0 TO 2',
    'IF X > 1 GOTO @T',
    'IF X THEN @T ELSE PRINT "E"',
    'IF X = 2 THEN PRINT "Y" ELSE @T',
    'COLOR 7 , 0',
    'COLOR 300 , 0',
    'LOCATE , 1',
    'WIDTH 80',
    'PRINT USING "##.#" ; X ; 1.5',
    'PRINT USING "!" ; B$ , "Q"',
    'MID$ ( B$ , 2 , 1 ) = "Z"',
    'ON ERROR GOTO @H',
    'ERROR 5 + X',
    'ERROR LOG ( 0 )',
    'ON X GOTO @T , @T',
    'ON X GOSUB @S',
    'WRITE X , B$ , 1 / 0',
    'SWAP A , X',
    'GOSUB @S',
    'RETURN',
    'WHILE X < 0',
    'RANDOMIZE X',
    'NEXT I',
]

STRAYS = [')', '(', ',', ';', '+', '*', '=', 'THEN', 'TO', 'ELSE', 'STEP', 'PRINT', 'NOT', 'GOTO', '"S"', '1', 'X',
          'TAB', 'SPC', 'USING', 'FNX', '#', ':']


def gen_mutate(p):
    """A valid statement broken at a random token, between statements that show what ran."""
    r = p.rng
    if r.random() < 0.85:
        ensure_handler(p)
    if not hasattr(p, "mutate_lines"):
        p.mutate_lines = (p.fresh("T"), p.fresh("S"))
        t, s = p.mutate_lines
        p.main.insert(0, 'X=2: B$="HELLO": DEF FNX(Z)=Z*2')
        p.tail.append((t, 'PRINT "T";X;A;I;B$'))
        p.tail.append((s, 'PRINT "S": RETURN'))
    t, s = p.mutate_lines
    h = getattr(p, "handler", None) or t
    tokens = r.choice(MUTATE).split()
    how = r.randrange(5)
    at = r.randrange(len(tokens) + 1)
    if how == 0 and len(tokens) > 1:  # a token dropped
        del tokens[min(at, len(tokens) - 1)]
    elif how in (1, 2):  # a stray token
        tokens.insert(at, r.choice(STRAYS))
    elif how == 3 and at > 0:  # cut short
        tokens = tokens[:at]
    else:  # a token replaced
        tokens[min(at, len(tokens) - 1)] = r.choice(STRAYS)
    text = " ".join(tokens)
    text = text.replace("@T", "@" + t).replace("@S", "@" + s).replace("@H", "@" + h)
    p.main.append(f'PRINT "B";: {text}: PRINT "C";X;A;I;B$')
def gen_deftype(p):
    """DEFINT/DEFSNG/DEFDBL/DEFSTR met at run time in another order than the text's."""
    r = p.rng
    letter = pick(r, "Q", "V", "G", "H", "U", "Z")
    kind = pick(r, "DEFINT", "DEFDBL", "DEFSTR", "DEFSNG")
    num = kind != "DEFSTR"
    value = pick(r, "1.5", "2.5", "-2.5", "1/3", "7") if num else '"T"'
    shape = r.randrange(12)
    sub, lab, done = p.fresh(), p.fresh(), p.fresh()
    if shape == 0:  # the same name before and after
        p.main.append(f"{letter}=1.5: PRINT {letter}: {kind} {letter}: PRINT {letter}: {letter}={value}: PRINT {letter}")
    elif shape == 1:  # a DEFtype inside a loop: the second pass sees the new type
        p.main.append(f"FOR K%=1 TO 2: PRINT {letter}: {letter}=1.25: PRINT {letter}: {kind} {letter}: NEXT K%")
    elif shape == 2:  # a DEFtype only in a subroutine, placed after the text that uses it
        p.main.append(f"GOSUB @{sub}: {letter}={value}: PRINT {letter}{pick(r, '', ': GOSUB @' + sub)}")
        p.tail.append((sub, f"{kind} {letter}: RETURN"))
    elif shape == 3:  # a DEFtype on one branch of IF
        cond = pick(r, "0", "1")
        other = pick(r, "DEFSNG", "DEFDBL", "DEFINT", "PRINT 0")
        p.main.append(f"IF {cond} THEN {kind} {letter} ELSE {other} {letter if other != 'PRINT 0' else ''}")
        p.main.append(f"PRINT {letter}: {letter}={value}: PRINT {letter}")
    elif shape == 4:  # a jump back to lines above the DEFtype
        p.main.append("C%=0")
        p.main.append((lab, f"C%=C%+1: PRINT {letter}: {letter}={value}: PRINT {letter}"))
        p.main.append(f"IF C%<2 THEN {kind} {letter}: GOTO @{lab}")
    elif shape == 5:  # FOR on a retyped variable
        body = pick(r, "PRINT " + letter + ";", "DEFSNG " + letter, "DEFINT " + letter, "PRINT 1;")
        p.main.append(f"DEFINT {letter}: FOR {letter}=1 TO {pick(r, '2', '2.5', '3')}: {body}: NEXT {letter}: PRINT {letter}")
    elif shape == 6:  # arrays under two types
        p.main.append(f"DIM {letter}(3): {letter}(1)={pick(r, '1.5', '3')}: {kind} {letter}: PRINT {letter}(1): {letter}(1)={value}: PRINT {letter}(1)")
    elif shape == 7:  # DEF FN parameters and bodies typed as at the call
        p.main.append(f"DEF FNP({letter})={letter}*2: PRINT FNP(1.3): {pick(r, 'DEFINT', 'DEFDBL', 'DEFSNG')} {letter}: PRINT FNP(1.3)")
    elif shape == 8:  # READ into a retyped name
        p.main.append(f"RESTORE @{sub}: READ {letter}: PRINT {letter}: {kind} {letter}: READ {letter}: PRINT {letter}")
        p.tail.append((sub, "DATA 1.5,2.5,3.5"))
    elif shape == 9:  # INPUT into a retyped name
        p.main.append(f"INPUT {letter}: PRINT {letter}: {kind} {letter}: INPUT {letter}: PRINT {letter}")
        p.inputs.append(pick(r, "1.5", "7", "2.5"))
        p.inputs.append(pick(r, "1.5", "-2.5", "ABC", "3"))
    elif shape == 10:  # a type mismatch that follows the retyping
        p.main.append(f"{letter}=1: {pick(r, 'DEFSTR', 'DEFINT')} {letter}: {letter}={pick(r, '2', chr(34) + 'S' + chr(34))}: PRINT {letter}")
    else:  # a subroutine reached before and after a DEFtype
        p.main.append(f"GOSUB @{sub}: {kind} {letter}: GOSUB @{sub}: {pick(r, 'DEFSNG', 'DEFDBL')} {letter}: GOSUB @{sub}")
        p.tail.append((sub, f"{letter}={pick(r, '2.5', '1/3')}: PRINT {letter}: RETURN"))


def gen_misc(p):
    """Functions and operators the other areas leave out: the random numbers
    after RANDOMIZE and RND(-x), MKx$/CVx round trips and short strings, the
    logical operators on negatives, fractions and overflowing values, CINT's
    ties, HEX$/OCT$, STR$/VAL round trips, INT/FIX/SGN of negatives, integer
    division and MOD by zero, and STOP."""
    r = p.rng
    if r.randrange(2):
        h = p.fresh("T")
        p.main.append(f"ON ERROR GOTO @{h}")
        p.tail.append((h, f"PRINT \"E\";ERR;ERL: {BOUND}: RESUME NEXT"))
    shape = r.randrange(10)
    num = lambda: pick(r, "0", "1", "-1", "2.5", "-2.5", "32767", "-32768", "32767.5", "40000", "-7", "1E3", "65535")  # noqa: E731
    if shape == 0:
        seed = pick(r, "1", "0", "-1", "42", "32767", "2.5", "1E10", "-32768")
        p.main.append(f"RANDOMIZE {seed}: PRINT RND; RND(0); RND: PRINT RND({pick(r, '-1', '-2.5', '-1E6', '0', '5')}); RND")
    elif shape == 1:
        kind, back, value = pick(r, ("MKI$", "CVI", num()), ("MKS$", "CVS", num()), ("MKD$", "CVD", pick(r, "1.5#", "-2", "1D10")))
        short = pick(r, '""', '"A"', '"ABC"', 'CHR$(0)+CHR$(128)', 'STRING$(4,255)')
        p.main.append(f"X$={kind}({value}): PRINT LEN(X$); {back}(X$): PRINT {back}({short})")
    elif shape == 2:
        op = pick(r, "AND", "OR", "XOR", "EQV", "IMP")
        p.main.append(f"PRINT {num()} {op} {num()}; NOT {num()}; ({num()} {op} {num()}) = 0")
    elif shape == 3:
        p.main.append(f"PRINT CINT({num()}); INT({num()}); FIX({num()}); SGN({num()}); ABS({num()})")
    elif shape == 4:
        p.main.append(f"PRINT HEX$({num()}); \" \"; OCT$({num()})")
    elif shape == 5:
        value = pick(r, "1/3", "-1E-5", "123456.7", "1E38", "-0", ".5", "1D-20", "2^24", "1#/3")
        p.main.append(f"A$=STR$({value}): PRINT \"[\";A$;\"]\"; VAL(A$); LEN(A$)")
    elif shape == 6:
        p.main.append(f"PRINT {num()} \\ {pick(r, '0', '2', '-3', '0.4', '40000')}; {num()} MOD {pick(r, '0', '3', '-3', '0.4')}")
    elif shape == 7:
        text = pick(r, '" 12 "', '"1E"', '"-.5E+2X"', '"&H10"', '"&O7"', '"1D2"', '"++1"', '"."', '"1,5"', '"  -  3"')
        p.main.append(f"PRINT VAL({text}); VAL(\"\"); STR$(VAL({text}))")
    elif shape == 8:
        p.main.append(f"PRINT {num()} ^ {pick(r, '0', '2', '-1', '.5', '3')}; {pick(r, '0', '-8', '2')} ^ {pick(r, '-1', '1/3', '0', '40')}")
    else:
        p.main.append(f"PRINT \"S\": {pick(r, 'STOP', 'PRINT 1: STOP: PRINT 2', 'IF 1 THEN STOP')}")


def gen_justify(p):
    """LSET and RSET on plain string variables: a variable holding a literal,
    one in the string space, an empty one, an array element, a number, values
    longer and shorter than the variable, broken forms, and FRE("") after."""
    r = p.rng
    if r.randrange(2):
        h = p.fresh("T")
        p.main.append(f"ON ERROR GOTO @{h}")
        p.tail.append((h, f"PRINT \"E\";ERR;ERL: {BOUND}: RESUME NEXT"))
    target = pick(r, "A$", "A$", "W$(2)", "N$", "X", "W$(11)")
    setup = pick(r, 'A$="HELLO"', 'A$=STRING$(4,"-")', 'A$=""', 'A$=LEFT$("ABCDEFG",5)',
                 'DIM W$(3): W$(2)="ABC"', 'W$(2)=SPACE$(6)')
    value = pick(r, '"X"', '"ABCDEFGH"', '""', "A$", "A$+A$", '"Q"+"R"', "MID$(A$,2)", "5", "STR$(12)")
    word = pick(r, "LSET", "RSET")
    shape = r.randrange(4)
    if shape == 0:
        p.main.append(f"{setup}: {word} {target}={value}: PRINT \"[\";{target if '$' in target else 'A$'};\"]\";FRE(\"\")")
    elif shape == 1:
        p.main.append(f"{setup}: B$=A$: {word} A$={value}: PRINT \"[\";A$;\"][\";B$;\"]\"")
    elif shape == 2:
        broken = pick(r, f"{word} {target} {value}", f"{word} {target}={value} X", f"{word} {target}=1/0+",
                      f"{word} {target}=", f"{word} ={value}", f"{word} {target}={value}:PRINT 1")
        p.main.append(f"{setup}: PRINT \"B\": {broken}: PRINT \"[\";A$;\"]\"")
    else:
        p.main.append(f"FOR I=1 TO 2: {setup}: PRINT \"[\";A$;\"]\";: {word} A$={value}: PRINT \"[\";A$;\"]\";FRE(\"\"): NEXT")


def gen_keys(p):
    """INPUT$ from the keyboard: counts at their edges, INPUT$ in expressions,
    FN bodies, PRINT USING and loops, the Enter key (an empty line), and
    INKEY$ taking what an INPUT$ left. Each line typed is consumed in full
    before the next is asked for, so PC-BASIC, which gets all the lines as
    keys typed ahead (oracle-basic.py, run_pcbasic_keys), reads the same keys
    at the same places; generate() keeps INPUT out of such a program."""
    r = p.rng
    if r.randrange(2):
        ensure_handler(p)
    word = lambda n: "".join(pick(r, "a", "B", "7", " ", ",", "\"") for _ in range(n))  # noqa: E731
    shape = r.randrange(7)
    if shape == 0:
        n = pick(r, 1, 2, 3, 5)
        p.main.append(f"A$=INPUT$({n}): PRINT \"[\";A$;\"]\";LEN(A$)")
        p.inputs.append(word(n))
    elif shape == 1:
        p.main.append("PRINT VAL(INPUT$(2))*2; ASC(INPUT$(1))")
        p.inputs += [pick(r, "12", "-3", "1E", " 9"), word(1)]
    elif shape == 2:
        n = pick(r, 1, 2)
        p.main.append(f"DEF FNK$(X)=INPUT$(X)+\"!\": PRINT FNK$({n})")
        p.inputs.append(word(n))
    elif shape == 3:
        p.main.append("PRINT USING \"## & ##\";1;INPUT$(3);2")
        p.inputs.append(word(3))
    elif shape == 4:
        count = pick(r, "0", "256", "-1", "\"A\"", "40000", "2.5", "1.5")
        p.main.append(f"PRINT \"C\": D$=INPUT$({count}): PRINT \"[\";D$;\"]\"")
        wanted = {"2.5": 3, "1.5": 2}.get(count)  # CINT: halves away from 0
        if wanted:
            p.inputs.append(word(wanted))
    elif shape == 5:
        p.main.append("K$=\"\": FOR I=1 TO 3: K$=K$+INPUT$(1): NEXT: PRINT \"[\";K$;\"]\"")
        p.inputs += [word(1) for _ in range(3)]
    else:
        # an empty line is the Enter key; one key more than INPUT$ takes is
        # left for INKEY$ (with none left, PC-BASIC's INKEY$ would take the
        # next line's first key, typed ahead there)
        if r.randrange(3) == 0:
            p.main.append("E$=INPUT$(1): PRINT ASC(E$)")
            p.inputs.append("")
        else:
            n = pick(r, 1, 2)
            p.main.append(f"E$=INPUT$({n}): F$=INKEY$: PRINT \"[\";E$;\"][\";F$;\"]\"")
            p.inputs.append(word(n + 1))


AREAS = [  # (weight, generator)
    (14, gen_for), (8, gen_while), (8, gen_gosub), (7, gen_on), (6, gen_if), (12, gen_error),
    (8, gen_syntax), (6, gen_data), (6, gen_dim), (4, gen_deffn), (4, gen_swap_mid), (6, gen_strings),
    (5, gen_input), (6, gen_print), (20, gen_soup), (12, gen_trap),
    (6, gen_fnmore), (6, gen_arrays), (8, gen_stredge), (4, gen_swap), (3, gen_tron), (6, gen_printpos),
    (8, gen_memory),
    (8, gen_mutate),
    (6, gen_deftype),
    (8, gen_misc),
    (4, gen_justify),
    (4, gen_keys),
]


def generate(rng, areas=None):
    p = Program(rng)
    chosen = [(w, g) for w, g in AREAS if not areas or g.__name__.removeprefix("gen_") in areas]
    weights = [w for w, _ in chosen]
    gens = [g for _, g in chosen]
    picked = rng.choices(gens, weights, k=rng.randrange(2, 6))
    if gen_keys in picked:
        # INPUT reads a line where PC-BASIC, given the keys, reads on in them
        picked = [gen_keys if gen in (gen_input, gen_deftype) else gen for gen in picked]
    for gen in picked:
        gen(p)
    return p.render(), p.inputs


# --------------------------------------------------------------------------
# Running and shrinking
# --------------------------------------------------------------------------


class Runner:
    def __init__(self, args, workdir):
        self.args = args
        self.workdir = Path(workdir)

    def both(self, lines, inputs):
        """(tavern text, pcbasic text, failure) for one program."""
        fd, name = tempfile.mkstemp(suffix=".bas", dir=self.workdir)
        path = Path(name)
        with os.fdopen(fd, "w") as f:
            f.write("\n".join(lines) + "\n")
        data = "".join(line + "\n" for line in inputs).encode()
        try:
            tavern = run_tavern(self.args.runner, path, data, self.args.timeout)
            pcbasic = oracle.run_pcbasic(self.args.pcbasic, path, data, self.args.timeout)
        finally:
            path.unlink()
        failure = pcbasic.failure or (tavern.failure if tavern.code not in (0, 1) else None)
        # the page break basic-runner writes where CLS or a new WIDTH clears the
        # screen is deliberate (README); PC-BASIC's stream has nothing there
        return tavern.text.replace("\x0c", ""), pcbasic.text, failure


def run_tavern(binary, program, inputs, timeout):
    # The oracle's run, with a step bound: a generated program is meant to end,
    # and a generator mistake must not cost the campaign its time.
    command = [binary, str(program), "--rnd", "gwbasic", "--echo-input", "--max-steps", MAX_STEPS]
    try:
        done = subprocess.run(command, input=inputs, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return oracle.Run("", failure="no end", code=None)
    text = done.stdout.decode("utf-8", "replace")
    failure = None if done.returncode in (0, 1) else f"exit {done.returncode}"
    return oracle.Run(text, failure=failure, code=done.returncode)


def differs(runner, lines, inputs):
    tavern, pcbasic, failure = runner.both(lines, inputs)
    return failure is None and tavern != pcbasic


def split_statements(text):
    """A line's text cut at the colons outside quotes."""
    parts, cur, quoted = [], "", False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        if ch == ":" and not quoted:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return parts


def drop_one(items, still):
    """`items` with elements dropped one at a time while `still(trial)` holds."""
    i = 0
    while i < len(items):
        trial = items[:i] + items[i + 1:]
        if trial and still(trial):
            items = trial
        else:
            i += 1
    return items


def shrink(runner, lines, inputs):
    """Drop lines, then statements, then input lines, while the runs still differ."""
    while True:
        before = (lines, inputs)
        lines = drop_one(lines, lambda trial: differs(runner, trial, inputs))
        for i in range(len(lines)):
            number, _, text = lines[i].partition(" ")

            def with_parts(parts, i=i, number=number):
                return lines[:i] + [number + " " + ":".join(parts).strip()] + lines[i + 1:]

            parts = drop_one(split_statements(text), lambda trial: differs(runner, with_parts(trial), inputs))
            lines = with_parts(parts)
        if inputs:
            kept = drop_one(inputs, lambda trial: differs(runner, lines, trial))
            # every answer may go: a program can differ with no input at all
            inputs = [] if len(kept) == 1 and differs(runner, lines, []) else kept
        if (lines, inputs) == before:
            return lines, inputs


def first_line_difference(tavern, pcbasic):
    a, b = pcbasic.split("\n"), tavern.split("\n")
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "<end>"
        y = b[i] if i < len(b) else "<end>"
        if x != y:
            return f"  PC-BASIC: {x!r}\n  Tavern:   {y!r}"
    return "  (no line differs)"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--programs", type=int, default=300)
    parser.add_argument("--runner", default=str(ROOT / "target" / "debug" / "examples" / "run"))
    parser.add_argument("--pcbasic", default="pcbasic")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per program and side")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only-diffs", action="store_true", help="print nothing for programs that agree")
    parser.add_argument("--no-shrink", action="store_true")
    names = ", ".join(g.__name__.removeprefix("gen_") for _, g in AREAS)
    parser.add_argument("--areas", help=f"comma-separated areas to draw from (default all: {names})")
    parser.add_argument("--keep", type=Path, help="write each differing program (shrunk) and its input here")
    parser.add_argument("--shrink-file", type=Path, help="only shrink this program (its NAME.in as input) and print it")
    args = parser.parse_args()

    if args.shrink_file:
        lines = args.shrink_file.read_text().splitlines()
        input_path = args.shrink_file.with_suffix(".in")
        inputs = input_path.read_text().splitlines() if input_path.exists() else []
        with tempfile.TemporaryDirectory() as work:
            runner = Runner(args, work)
            if not differs(runner, lines, inputs):
                print("the program does not differ")
                return 0
            lines, inputs = shrink(runner, lines, inputs)
            tavern, pcbasic, _ = runner.both(lines, inputs)
        print("\n".join(lines + ["< " + x for x in inputs]))
        print(first_line_difference(tavern, pcbasic))
        return 1

    rng = random.Random(args.seed)
    areas = set(args.areas.split(",")) if args.areas else None
    cases = [generate(rng, areas) for _ in range(args.programs)]
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    tally = {"same": 0, "differ": 0, "failed": 0}
    with tempfile.TemporaryDirectory() as work:
        runner = Runner(args, work)

        def one(index):
            lines, inputs = cases[index]
            tavern, pcbasic, failure = runner.both(lines, inputs)
            if failure:
                return index, "failed", failure, lines, inputs, tavern, pcbasic
            if tavern == pcbasic:
                return index, "same", None, lines, inputs, tavern, pcbasic
            if not args.no_shrink:
                lines, inputs = shrink(runner, lines, inputs)
                tavern, pcbasic, _ = runner.both(lines, inputs)
            return index, "differ", None, lines, inputs, tavern, pcbasic

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for index, outcome, failure, lines, inputs, tavern, pcbasic in pool.map(one, range(len(cases))):
                tally[outcome] += 1
                if outcome == "same":
                    if not args.only_diffs:
                        print(f"program {index}: same")
                    continue
                if outcome == "failed":
                    print(f"program {index}: FAILED ({failure})")
                    continue
                print(f"program {index}: DIFFERS")
                for line in lines:
                    print("    " + line)
                for line in inputs:
                    print("    < " + line)
                print(first_line_difference(tavern, pcbasic))
                if args.keep:
                    stem = args.keep / f"s{args.seed}_{index}"
                    stem.with_suffix(".bas").write_text("\n".join(lines) + "\n")
                    if inputs:
                        stem.with_suffix(".in").write_text("".join(x + "\n" for x in inputs))
                sys.stdout.flush()
    print(f"{args.programs} programs: {tally['same']} same, {tally['differ']} differ, {tally['failed']} failed to run")
    return 1 if tally["differ"] else 0


if __name__ == "__main__":
    sys.exit(main())
