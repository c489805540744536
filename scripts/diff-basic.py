#!/usr/bin/env python3
"""A generated differential campaign for numbers: basic-runner against PC-BASIC.

Generates many small cases, one BASIC line each, in areas of GW-BASIC's number
handling, batches them into programs (PC-BASIC starts slowly), runs every program
in basic-runner's `run` example and in PC-BASIC 2.0.5, and reports the cases whose
output differs, one line each: the case's source line, PC-BASIC's output and
basic-runner's, with the difference's cause.

Areas (`--area`, several allowed, default all):

- `print`: PRINT of integer, single and double literals (`%`, `!`, `#`, `E`, `D`,
  near the 7- and 16-digit edges, tiny and huge), arithmetic (`+ - * / \\ MOD ^`,
  unary minus, mixed types), comparisons, `AND OR XOR EQV IMP NOT`, `CINT CSNG
  CDBL INT FIX ABS SGN SQR`, integer variables and stores into typed variables;
- `convert`: `STR$`, `VAL` of generated texts, `HEX$`, `OCT$`, `MKI$/CVI`,
  `MKS$/CVS`, `MKD$/CVD` round trips and bytes;
- `using`: PRINT USING with generated formats and values;
- `math`: `SIN COS TAN ATN EXP LOG SQR` and `^` on singles and doubles, and
  their errors (Overflow 6, Division by zero 11, Illegal function call 5).

A batch is `ON ERROR GOTO` a handler that prints `ERR` and `ERL` and resumes
with the next statement, then one line per case; each case first prints a tag
`@N` (its line number) on a line of its own, by which the two outputs are cut
into cases. A case that stops an interpreter (PC-BASIC crashes on a few) is
reported and the batch goes on after it in a new program. A difference is
counted once per case and given a cause: a known one from KNOWN_CAUSES (Tavern
on purpose per basic-runner/README.md, or PC-BASIC's fault per GW-BASIC's
source, each naming the transcript test that shows it; the oracle's allowlist,
scripts/oracle/basic-allowlist.txt, gives the routines), else `unexplained`.
An unexplained case of several values is run again one value at a time: it is
explained when every value that still differs is, else the first unexplained
value is what the report shows. The script exits 1 when a case differs for no
known cause. It is not part of `cargo test` (PC-BASIC may be absent).

Another area can be added by writing a generator (a function from a
`random.Random` to one BASIC statement) and listing it in AREAS; the statement
and control-flow campaign is scripts/diff-basic-stmt.py.

Usage (only the Python standard library; run from the repository root):

    cargo build -p basic-runner --example run
    scripts/diff-basic.py --runner target/debug/examples/run --seed 27 --cases 10000
    scripts/diff-basic.py --area using --cases 500 --only-diffs
    scripts/diff-basic.py --area math --show-known    # print known differences too

scripts/oracle-basic.py runs both interpreters; this script uses its
`run_tavern` and `run_pcbasic`, so both see a program the same way there and
here.
"""

import argparse
import importlib.util
import random
import re
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
_SPEC = importlib.util.spec_from_file_location("oracle_basic", HERE / "oracle-basic.py")
oracle = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(oracle)

FIRST_LINE = 100
HANDLER_LINE = 60000

# ---------------------------------------------------------------------------
# Numbers


def digits(rng, count):
    return "".join(rng.choice("0123456789") for _ in range(count))


def integer_literal(rng):
    edge = rng.choice(
        [0, 1, -1, 2, 7, 10, 255, 256, 1000, 32767, -32767, -32768, 32768, 65535, 65536]
    )
    if rng.random() < 0.4:
        return str(edge) + rng.choice(["", "", "%"]) if -32768 < edge <= 32767 else str(edge)
    value = rng.randint(-32768, 32767)
    return str(value) + rng.choice(["", "%"]) if value > -32768 else str(value)


def mantissa(rng, count):
    """A decimal mantissa of `count` significant digits with the point anywhere."""
    text = str(rng.randint(1, 9)) + digits(rng, count - 1)
    point = rng.randint(0, len(text))
    return text[:point] + "." + text[point:] if point < len(text) else text


def single_literal(rng):
    choice = rng.random()
    if choice < 0.15:
        return rng.choice(
            [
                ".1", ".5", "1.5", "2.5", "9999999", "99999999", "16777216", "16777217",
                "1E38", "1.7E38", "1E-38", "2.9E-39", "3E-39", "1E-45", ".1E-38",
                "1234567", "12345678", "1.234567", "9999999.5", ".0000001", "1E6",
                "1E7", "1E15", "1E16", "999999.9", "1.5E+10", "0.0", "-0", "-.0",
            ]
        )
    count = rng.choice([1, 2, 3, 5, 6, 7, 7, 7, 8])
    text = mantissa(rng, count)
    if rng.random() < 0.4:
        exponent = rng.choice([rng.randint(-40, 40), rng.randint(-8, 8)])
        text += rng.choice(["E", "e", "E+", "E-"]).rstrip("-+") + (
            str(exponent) if exponent < 0 else rng.choice(["", "+"]) + str(exponent)
        )
    elif count <= 7 and rng.random() < 0.4:
        text += "!"
    return text


def double_literal(rng):
    choice = rng.random()
    if choice < 0.15:
        return rng.choice(
            [
                ".1#", "1#", "1D0", "1.7D38", "1.701411834604692D+38", "1D-38", "3D-39",
                "9999999999999999", "99999999999999999", "1234567890123456#",
                "12345678901234567", ".1234567890123456", "2.5#", "0.5D0", "1D16",
                "1D15", "9007199254740993", "0#", "-0#", "1.0000000000000001",
            ]
        )
    count = rng.choice([3, 8, 9, 12, 15, 16, 16, 17, 18])
    text = mantissa(rng, count)
    if rng.random() < 0.5:
        exponent = rng.choice([rng.randint(-40, 40), rng.randint(-17, 17)])
        text += rng.choice(["D", "d", "D+"]) .rstrip("+") + str(exponent)
    elif rng.random() < 0.5:
        text += "#"
    return text


def literal(rng):
    pick = rng.random()
    if pick < 0.3:
        text = integer_literal(rng)
    elif pick < 0.65:
        text = single_literal(rng)
    else:
        text = double_literal(rng)
    if rng.random() < 0.15 and not text.startswith("-"):
        text = "-" + text
    return text


def small_literal(rng):
    """A number that keeps `^` and `*` chains mostly in range."""
    return rng.choice(
        [
            str(rng.randint(-20, 20)),
            mantissa(rng, rng.randint(1, 4)),
            mantissa(rng, rng.randint(1, 4)) + "#",
            "." + digits(rng, rng.randint(1, 3)),
            str(rng.randint(-20, 20)) + "%",
        ]
    )


OPERATORS = ["+", "-", "*", "/", "\\", " MOD ", "^"]
DIVIDE = ["/", "\\", " MOD "]
LOGIC = [" AND ", " OR ", " XOR ", " EQV ", " IMP "]
COMPARE = ["=", "<", ">", "<>", "<=", ">="]
FUNCTIONS = ["CINT", "CSNG", "CDBL", "INT", "FIX", "ABS", "SGN", "SQR", "-"]


def operand(rng, depth=0):
    if depth < 2 and rng.random() < 0.3:
        return "(" + arithmetic(rng, depth + 1) + ")"
    if rng.random() < 0.2:
        return rng.choice(FUNCTIONS) + "(" + operand(rng, depth + 1) + ")"
    return rng.choice([literal, small_literal])(rng)


def arithmetic(rng, depth=0):
    op = rng.choice(OPERATORS)
    left = operand(rng, depth)
    right = small_literal(rng) if op == "^" else operand(rng, depth)
    return left + op + right


def print_literal(rng):
    return "PRINT " + "; ".join(literal(rng) for _ in range(rng.randint(1, 3)))


def print_arithmetic(rng):
    return "PRINT " + arithmetic(rng)


def print_function(rng):
    return "PRINT " + rng.choice(FUNCTIONS) + "(" + rng.choice([literal, arithmetic])(rng) + ")"


def print_compare(rng):
    return "PRINT (" + operand(rng) + rng.choice(COMPARE) + operand(rng) + ")"


def print_logic(rng):
    if rng.random() < 0.25:
        return "PRINT NOT " + rng.choice([integer_literal, literal])(rng)
    return "PRINT " + rng.choice([integer_literal, literal])(rng) + rng.choice(LOGIC) + rng.choice(
        [integer_literal, literal]
    )(rng)


def print_mixed_variables(rng):
    """Type promotion through typed variables, as programs write it."""
    a, b = literal(rng), literal(rng)
    return (
        f"A%=0:B!=0:C#=0:A%={integer_literal(rng)}:B!={a}:C#={b}:PRINT "
        + rng.choice(["A%", "B!", "C#"])
        + rng.choice(OPERATORS[:5])
        + rng.choice(["A%", "B!", "C#"])
    )


def print_integer_ops(rng):
    """Integer variables: \\, MOD and the operators that overflow a 16-bit result."""
    a, b = integer_literal(rng).rstrip("%"), integer_literal(rng).rstrip("%")
    return f"A%=0:B%=0:A%={a}:B%={b}:PRINT A%" + rng.choice(["+", "-", "*"] + DIVIDE) + "B%"


def print_assign(rng):
    """A number stored in a typed variable: CINT's rounding, CSNG's, Overflow."""
    target = rng.choice(["A%", "A!", "A#", "A"])
    # the 0 first, so that a failed store leaves the same value in both
    return f"{target}=0:{target}={rng.choice([literal, arithmetic])(rng)}:PRINT {target}"


# ---------------------------------------------------------------------------
# Conversions


def val_text(rng):
    pick = rng.random()
    if pick < 0.2:
        body = "&H" + "".join(rng.choice("0123456789ABCDEFabcdef") for _ in range(rng.randint(1, 5)))
    elif pick < 0.3:
        body = "&O" + "".join(rng.choice("01234567") for _ in range(rng.randint(1, 7)))
    elif pick < 0.35:
        body = "&" + "".join(rng.choice("01234567") for _ in range(rng.randint(1, 6)))
    else:
        body = literal(rng)
    prefix = rng.choice(["", "", " ", "  ", "+", "-", " -"])
    suffix = rng.choice(["", "", "", "X", " 5", "%", "!", "#", ",3", "E", "D", "E+", "-1", " "])
    return prefix + body.lstrip("-") + suffix


def convert_val(rng):
    return f'PRINT VAL("{val_text(rng)}")'


def convert_str(rng):
    return "PRINT STR$(" + rng.choice([literal, arithmetic])(rng) + ")"


def convert_radix(rng):
    return "PRINT " + rng.choice(["HEX$", "OCT$"]) + "(" + rng.choice(
        [integer_literal, literal, small_literal]
    )(rng) + ")"


def convert_binary(rng):
    make, read = rng.choice([("MKI$", "CVI"), ("MKS$", "CVS"), ("MKD$", "CVD")])
    value = rng.choice([integer_literal, literal])(rng)
    if rng.random() < 0.3:
        # The bytes themselves, as GW-BASIC stores them.
        return f"A$=\"\":A$={make}({value}):FOR I=1 TO LEN(A$):PRINT ASC(MID$(A$,I,1));:NEXT:PRINT"
    return f"PRINT {read}({make}({value}))"


# ---------------------------------------------------------------------------
# PRINT USING


def using_field(rng):
    lead = rng.choice(["", "", "", "+", "$$", "**", "**$", "+$$", "+**"])
    whole = "#" * rng.choice([0, 1, 1, 2, 3, 4, 6, 9])
    if whole and rng.random() < 0.2:
        where = rng.randint(0, len(whole))
        whole = whole[:where] + "," + whole[where:]
    point = ""
    if rng.random() < 0.6:
        point = "." + "#" * rng.choice([0, 1, 2, 3, 5, 8])
    if not whole and not point and not lead:
        whole = "#"
    tail = ""
    pick = rng.random()
    if pick < 0.2:
        tail = rng.choice(["^^^^", "^^^^^"])
    if rng.random() < 0.15 and not lead.startswith("+"):
        tail += rng.choice(["-", "+"])
    return lead + whole + point + tail


def using_format(rng):
    parts = [using_field(rng)]
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        parts.append(rng.choice([" ", "  ", " X ", "_#", "__", "=", ", "]) + using_field(rng))
    if rng.random() < 0.2:
        parts.insert(0, rng.choice(["A", "N=", "_+", "$ "]))
    if rng.random() < 0.15:
        parts.append(rng.choice([" END", "_^", "!"]))
    return "".join(parts)


def using_value(rng):
    pick = rng.random()
    if pick < 0.2:
        return rng.choice(
            [
                "0", ".5", "-.5", "1.5", "2.5", "-2.5", ".005", ".015", ".125", "1E10",
                "-1E-10", "123456789", "1D20", ".999", "9.995", "-0", "999.5", "0.05#",
                "12345.675#", "1.7E38", "1E-38", "32767", "-32768",
            ]
        )
    return literal(rng)


def print_using(rng):
    values = [using_value(rng) for _ in range(rng.choice([1, 1, 2, 3]))]
    return f'PRINT USING "{using_format(rng)}"; ' + rng.choice([", ", "; "]).join(values)


# ---------------------------------------------------------------------------
# Math functions


def math_argument(rng):
    pick = rng.random()
    if pick < 0.2:
        return rng.choice(
            [
                "0", "1", "-1", ".5", "2", "3.14159", "1E-10", "1E10", "88", "89", "-88",
                "-89", "1E38", "4E16", "1E17", "-1E-30", "0#", "1#", "87.5#", "1D30",
                "1.5707963267949#", "10", "100", "-100",
            ]
        )
    return rng.choice([small_literal, literal])(rng)


def math_function(rng):
    name = rng.choice(["SIN", "COS", "TAN", "ATN", "EXP", "LOG", "SQR"])
    return f"PRINT {name}({math_argument(rng)})"


def math_power(rng):
    return "PRINT " + rng.choice([small_literal, math_argument])(rng) + "^" + rng.choice(
        [small_literal, math_argument, lambda r: str(r.randint(-40, 40))]
    )(rng)


def math_error(rng):
    """The math pack's errors: Illegal function call, Overflow, Division by zero."""
    return "PRINT " + rng.choice(
        [
            f"LOG({rng.choice(['0', '-1', '-.5', '0#', '-1E-30'])})",
            f"SQR({rng.choice(['-1', '-1E-30', '-4#'])})",
            f"EXP({rng.choice(['88', '88.03', '89', '-89', '-88.8', '87.9#', '1E3'])})",
            f"{rng.choice(['0', '0#', '0!'])}^{rng.choice(['-1', '-.5', '-2#', '0'])}",
            f"{rng.choice(['-8', '-2', '-.5'])}^{rng.choice(['.5', '1/3', '2.5', '-1.5'])}",
            small_literal(rng) + rng.choice(DIVIDE) + rng.choice(["0", "0#", ".4", "-.4"]),
            f"{rng.choice(['1E38', '-1.7E38', '1D38'])}*{rng.choice(['10', '2', '-1.1'])}",
            f"TAN({rng.choice(['1.5707963', '1.5707963267949#', '-1.570796'])})",
        ]
    )


AREAS = {
    "print": [
        (3, print_literal),
        (4, print_arithmetic),
        (2, print_function),
        (2, print_compare),
        (2, print_logic),
        (1, print_mixed_variables),
        (1, print_integer_ops),
        (1, print_assign),
    ],
    "convert": [(4, convert_val), (2, convert_str), (2, convert_radix), (2, convert_binary)],
    "using": [(1, print_using)],
    "math": [(3, math_function), (2, math_power), (1, math_error)],
}
AREA_WEIGHTS = {"print": 4, "convert": 2, "using": 3, "math": 2}


# ---------------------------------------------------------------------------
# Known causes. Each is (name, test of the case's statement and of PC-BASIC's
# and Tavern's output); the first that holds names a difference's cause. The
# names say whose the difference is: "Tavern on purpose" (basic-runner/README.md)
# or "PC-BASIC's fault" (GW-BASIC's source says otherwise), each with the test
# program that shows it and its entry in scripts/oracle/basic-allowlist.txt.

NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[ED][-+]\d+)?")


def numbers(text):
    return [float(n.replace("D", "E")) for n in NUMBER.findall(text)]


def close(pcbasic, tavern, relative):
    """Both print the same words and numbers within `relative` of each other."""
    if NUMBER.sub("#", pcbasic).split() != NUMBER.sub("#", tavern).split():
        return False
    a, b = numbers(pcbasic), numbers(tavern)
    if len(a) != len(b):
        return False
    return all(x == y or abs(x - y) <= relative * max(abs(x), abs(y)) for x, y in zip(a, b))


def has(pattern):
    return re.compile(pattern).search


MATH = has(r"\b(SIN|COS|TAN|ATN|EXP|LOG|SQR)\(|\^")
HUGE_ANGLE = re.compile(r"\b(SIN|COS|TAN)\((-?\d{6,}|[^)]*[ED]\+?[1-9])", re.I).search
USING = has(r"USING")
EXPONENT_FIELD = has(r'USING "[^"]*\^\^\^\^')
USING_COMMA_EXPONENT = has(r'USING "[^"]*,[^"]*\^\^\^\^')
NEGATIVE_ZERO = has(r"(^|[-;,(*/+^ ])-(0+\.?0*|\.0+)[#!%]?(?=[,;):]|$)")


def double(case):
    """A double takes part: a # or D number, one of 8 digits or more, CDBL, CVD, VAL."""
    case = re.sub(r'"[^"]*"', '""', case)
    if re.search(r"#|\d[Dd]|CDBL|CVD|VAL", case):
        return True
    return any(len(re.sub(r"\D", "", n)) >= 8 for n in re.findall(r"[\d.]+", case))


def changed(pcbasic, tavern):
    """The pairs of characters that differ, or None when the lengths differ."""
    if len(pcbasic) != len(tavern):
        return None
    return {(x, y) for x, y in zip(pcbasic, tavern) if x != y}


def below_one(case, pcbasic, tavern):
    """PC-BASIC prints 0 where Tavern rounds a number below 1 up to 1, .1, .01..."""
    # PC-BASIC's 0.0 may not fit where Tavern's .1 does: a % of its own
    if not USING(case) or re.sub(r"[ *\d.%]", "", pcbasic) != re.sub(r"[ *\d.%]", "", tavern):
        return False
    a, b = numbers(pcbasic), numbers(tavern)
    ups = {10.0**-k for k in range(17)}
    return len(a) == len(b) and a != b and all(
        x == y or (x == 0 and round(abs(y), 17) in ups) for x, y in zip(a, b)
    )


def no_digit_fits(case, pcbasic, tavern):
    """A ^^^^ field with room for no digit beside the sign (`#^^^^`, `#.^^^^`, `.^^^^`)."""
    form = re.search(r'USING "([^"]*)"', case)
    if not form:
        return False
    text = re.sub(r"_.", "X", form.group(1))
    return re.search(r"(^|[^#*$,.+])(#\.?|\.)\^{4}\^?(?![-+])", text) is not None


def negative_zero(case, pcbasic, tavern):
    """Every number printed is a zero, and PC-BASIC gives one a minus."""
    return (
        USING(case)
        and "-" in pcbasic
        and all(x == 0 for x in numbers(pcbasic) + numbers(tavern))
    )


def trailing_zero_digit(case, pcbasic, tavern):
    """A literal whose eighth digit is a 0 after the point (`1234567.0`)."""
    for literal in re.findall(r"(?<![\dA-Z$#!%])\d*\.\d*0(?![\d#!DdEe])", case):
        digits = re.sub(r"\D", "", literal).lstrip("0")
        if len(digits) >= 8 and len(digits.rstrip("0")) <= 7:
            return close(pcbasic, tavern, 1e-6)
    return False


def exponent_only(case, pcbasic, tavern):
    """Only ^^^^ exponents differ (and digits PC-BASIC rounds to 0 below 1, as above)."""
    strip = re.compile(r"[ED][-+]\d\d")
    if not EXPONENT_FIELD(case):
        return False
    return changed(strip.sub("E", pcbasic), strip.sub("E", tavern)) in ({("0", "1")}, set())


KNOWN_CAUSES = [
    (
        "PC-BASIC's fault: it crashes (a Python error) where GW-BASIC raises an error",
        lambda case, a, b: "pcbasic stopped" in a and "tavern stopped" not in b,
    ),
    (
        "PC-BASIC's fault: an overflow inside $FPWR, x^-n's power or y*LOG(x)"
        " (power_negative_overflow, power_log_overflow)",
        lambda case, a, b: "^" in case
        and ("ERR 6" in b or "Overflow" in b)
        and not ("ERR 6" in a or "Overflow" in a),
    ),
    (
        "PC-BASIC's fault: EXP of a large negative number is 0, $EXP's EXP110 (exp_underflow_zero)",
        lambda case, a, b: re.search(r"EXP\(|\^", case)
        and ("ERR 6" in a or "Overflow" in a)
        and not ("ERR 6" in b or "Overflow" in b),
    ),
    (
        "Tavern on purpose: GW-BASIC's math pack, last digits (fidelity_math, gw_math_pack)",
        # ^ through EXP(y*LOG(x)) carries LOG's last bit times y into EXP
        lambda case, a, b: MATH(case) and close(a, b, 1e-4 if "^" in case else 1e-5),
    ),
    (
        "PC-BASIC's fault: a trailing 0 is an eighth digit, $FIDIG (literal_trailing_zero_double)",
        trailing_zero_digit,
    ),
    (
        "Tavern on purpose: SIN/COS/TAN of a huge angle reduced in 56 bits (gw_math_pack)",
        lambda case, a, b: HUGE_ANGLE(case),
    ),
    (
        "Tavern on purpose: doubles are IEEE f64, the 16th digit (doubles.bas)",
        lambda case, a, b: double(case) and close(a.replace(",", ""), b.replace(",", ""), 2e-15),
    ),
    (
        "Tavern on purpose: VAL reads a double, BISTRS.ASM FINDBL (fidelity_val_double)",
        lambda case, a, b: "VAL(" in case and close(a, b, 1e-6),
    ),
    (
        "PC-BASIC's fault: VAL of &H/&O is OCTCNS's (val_radix_reader)",
        lambda case, a, b: re.search(r'VAL\(" *[-+]?&', case)
        and ("ERR 5" in a or "ERR 6" in b or "ERR 2" in b),
    ),
    (
        "Tavern on purpose: MKD$ of an f64 leaves the last 3 of 56 bits 0 (README)",
        lambda case, a, b: "MKD$" in case,
    ),
    (
        "PC-BASIC's fault: HEX$/OCT$ take their word from FRQINT (oct_hex_range)",
        lambda case, a, b: re.search(r"\b(HEX|OCT)\$\(", case) and ("ERR 6" in a + b),
    ),
    (
        "PC-BASIC's fault: MOD of a negative dividend (mod_negative)",
        lambda case, a, b: " MOD " in case and "-" in case,
    ),
    (
        "PC-BASIC's fault: PRINT USING rounds below 1 in $PUF (using_below_one_rounds)",
        below_one,
    ),
    # after the rounding below 1, which prints a 0 of its own
    (
        "PC-BASIC's fault: a double product below about 1D-29 is 0, $AEXPS"
        " (double_product_small, double_product_smallest)",
        lambda case, a, b: re.search(r"[DdEe]-[23]\d", case)
        and double(case)
        and re.search(r"(^| )0( |$)|ERR 11", a, re.M),
    ),
    (
        "PC-BASIC's fault: a ^^^^ field with room for no digit (fidelity_print_using)",
        lambda case, a, b: re.search(r"%-?\.\d+[ED]", a) or no_digit_fits(case, a, b),
    ),
    (
        "PC-BASIC's fault: a comma in a ^^^^ format groups digits, $PUFE (fidelity_using_edges)",
        lambda case, a, b: USING_COMMA_EXPONENT(case),
    ),
    (
        "PC-BASIC's fault: a ^^^^ exponent, $PUFE (using_exponent_wide_field)",
        exponent_only,
    ),
    (
        "PC-BASIC's fault: a negative zero has no sign, $PUFOT's $SIGNS (using_negative_zero)",
        lambda case, a, b: USING(case) and NEGATIVE_ZERO(case) or negative_zero(case, a, b),
    ),
]


UNEXPLAINED = "unexplained"
SEVERAL = "several known causes at once (each value alone differs for a known one)"


def cause_of(case, pcbasic, tavern):
    for name, test in KNOWN_CAUSES:
        if test(case, pcbasic, tavern):
            return name
    return UNEXPLAINED


# ---------------------------------------------------------------------------
# Running


def generate(rng, areas, count):
    generators = []
    for area in areas:
        total = sum(weight for weight, _ in AREAS[area])
        for weight, function in AREAS[area]:
            generators.append((AREA_WEIGHTS[area] * weight / total, area, function))
    weights = [weight for weight, _, _ in generators]
    cases = []
    for _ in range(count):
        _, area, function = rng.choices(generators, weights)[0]
        cases.append((area, function.__name__, function(rng)))
    return cases


def program_text(statements):
    lines = [f"10 ON ERROR GOTO {HANDLER_LINE}"]
    for number, statement in enumerate(statements):
        line = FIRST_LINE + number * 10
        lines.append(f'{line} PRINT "@{line}":{statement}')
    lines.append(f'{FIRST_LINE + len(statements) * 10} PRINT "@END":END')
    lines.append(f'{HANDLER_LINE} PRINT "ERR";ERR;"ERL";ERL:RESUME NEXT')
    return "\n".join(lines) + "\n"


TAG = re.compile(r"@(\d+|END)\n")


def split_cases(text):
    """{line number: output} from a transcript of tagged cases."""
    parts = TAG.split(text)
    return dict(zip(parts[1::2], parts[2::2]))


def run_batch(batch, args, path):
    """Both outputs of each statement of `batch`, up to the first that stopped
    an interpreter (PC-BASIC crashes on a few: HEX$(-75474) is a Python
    struct.error there); that one's outputs say so, and the rest are left."""
    path.write_text(program_text(batch), encoding="utf-8")
    tavern = oracle.run_tavern(args.runner, path, b"", args.timeout)
    pcbasic = oracle.run_pcbasic(args.pcbasic, path, b"", args.timeout)
    ours, theirs = split_cases(tavern.text), split_cases(pcbasic.text)
    outputs = []
    for number in range(len(batch)):
        line, after = str(FIRST_LINE + number * 10), str(FIRST_LINE + number * 10 + 10)
        a, b = theirs.get(line, ""), ours.get(line, "")
        if number + 1 == len(batch):
            after = "END"
        stopped = [
            f"{name} stopped: {run.failure or 'ran'}"
            for name, run, cases in (("pcbasic", pcbasic, theirs), ("tavern", tavern, ours))
            if line in cases and after not in cases
        ]
        if stopped:
            outputs.append((a + " / ".join(stopped), b + " / ".join(stopped)))
            print(f"STOPPED at {batch[number]}: {'; '.join(stopped)}")
            break
        outputs.append((a, b))
    return outputs


def run_all(statements, args, folder, name):
    """[(PC-BASIC's output, Tavern's output)] of each statement, in batches."""
    outputs = []
    programs = 0
    while len(outputs) < len(statements):
        batch = statements[len(outputs) : len(outputs) + args.batch]
        outputs += run_batch(batch, args, folder / f"{name}{programs:04d}.bas")
        programs += 1
        if not args.only_diffs:
            print(f"# {name}{programs - 1:04d}: {len(outputs)} of {len(statements)}", file=sys.stderr)
    return outputs, programs


def top_level_items(text):
    """`text` cut at the commas and semicolons outside quotes and parentheses."""
    items, depth, quoted, current = [], 0, False, ""
    for char in text:
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "()":
            depth += 1 if char == "(" else -1
        elif not quoted and depth == 0 and char in ",;":
            items.append(current.strip())
            current = ""
            continue
        current += char
    items.append(current.strip())
    return [item for item in items if item]


def reductions(statement):
    """Smaller statements that may keep a difference: each value of a PRINT alone."""
    using = re.fullmatch(r'(PRINT USING "[^"]*"; )(.*)', statement)
    if using:
        head, values = using.group(1), top_level_items(using.group(2))
    elif statement.startswith("PRINT ") and ":" not in statement:
        head, values = "PRINT ", top_level_items(statement[len("PRINT ") :])
    else:
        return []
    return [head + value for value in values] if len(values) > 1 else []


def split_up(differences, args, folder):
    """Each value of an unexplained case alone: {statement: [(value's statement,
    PC-BASIC's output, Tavern's, cause)]} of the values that still differ."""
    candidates = [(statement, smaller) for statement in differences for smaller in reductions(statement)]
    if not candidates:
        return {}
    outputs, _ = run_all([smaller for _, smaller in candidates], args, folder, "split")
    found = {}
    for (statement, smaller), (a, b) in zip(candidates, outputs):
        if a != b:
            found.setdefault(statement, []).append((smaller, a, b, cause_of(smaller, a, b)))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=2000, help="cases to generate")
    parser.add_argument("--batch", type=int, default=100, help="cases per program")
    parser.add_argument("--area", action="append", choices=sorted(AREAS), help="default: all")
    parser.add_argument("--runner", default="target/debug/examples/run")
    parser.add_argument("--pcbasic", default="pcbasic")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--only-diffs", action="store_true", help="print nothing but differences")
    parser.add_argument("--show-known", action="store_true", help="list differences of known cause")
    parser.add_argument("--keep", type=Path, help="write the generated programs into this folder")
    args = parser.parse_args()

    if shutil.which(args.pcbasic) is None:
        sys.exit(f"{args.pcbasic}: not found (apt-get install -y python3-pcbasic)")
    if not Path(args.runner).is_file():
        sys.exit(f"{args.runner}: not found (cargo build -p basic-runner --example run)")

    areas = args.area or sorted(AREAS)
    cases = generate(random.Random(args.seed), areas, args.cases)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="diff-basic-"))
    folder.mkdir(parents=True, exist_ok=True)
    outputs, programs = run_all([statement for _, _, statement in cases], args, folder, "batch")

    by_area = Counter(area for area, _, _ in cases)
    differ_by_area = Counter()
    differences = []
    for (area, kind, statement), (a, b) in zip(cases, outputs):
        if a != b:
            differ_by_area[area] += 1
            differences.append([kind, statement, a, b, cause_of(statement, a, b)])
    # A case of several values can differ for several known causes at once:
    # each value is run alone, and the case is explained when every value
    # that still differs is; otherwise the first unexplained value is shown.
    parts = split_up([d[1] for d in differences if d[4] == UNEXPLAINED], args, folder)
    for difference in differences:
        values = parts.get(difference[1])
        if not values:
            continue
        unexplained = [v for v in values if v[3] == UNEXPLAINED]
        if unexplained:
            difference[1:4] = unexplained[0][:3]
        else:
            difference[4] = SEVERAL
    causes = Counter(d[4] for d in differences)
    for kind, statement, a, b, cause in differences:
        if cause == UNEXPLAINED or args.show_known:
            print(f"{kind:<22} {statement}")
            print(f"    pcbasic: {a!r}\n    tavern:  {b!r}   [{cause}]")

    print("\n=== figures ===")
    print(f"seed {args.seed}; programs {programs}; cases {len(cases)}")
    for area in areas:
        same = by_area[area] - differ_by_area[area]
        print(f"{area:<8} cases {by_area[area]:>6}  same {same:>6}  differ {differ_by_area[area]:>5}")
    for cause, count in causes.most_common():
        print(f"differ, {cause}: {count}")
    if args.keep is None:
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if causes[UNEXPLAINED] else 0


if __name__ == "__main__":
    sys.exit(main())
