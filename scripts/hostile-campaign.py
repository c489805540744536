#!/usr/bin/env python3
"""Hostile-input campaign against the `tavern` binary (issue 11).

Runs `tavern roll`, `tavern odds`, `tavern basic`, `tavern npc check|play`,
`tavern effects check|play` and `tavern console` (with `/effect` and `/init`
lines: effect libraries, encounters, hostile names and numbers beyond i64) over
thousands of generated inputs (nested, huge, repeated and random), each under an address-space cap (RLIMIT_AS, 2 GiB by default) and a
wall-clock timeout (10 s), and reports panics, aborts (stack overflow, failed
allocation, other signals), hangs, slow cases and peak memory per engine.
Inputs that fail are written to the findings directory, to become regression
tests. `basic costly` runs loops of the BASIC statements whose work grows with
their operands, to check that the step budget bounds CPU time (the summary's
"max CPU s"); `--engines` picks some engines only.

    cargo build --release -p tavern
    scripts/hostile-campaign.py --bin target/release/tavern --seconds 600

Only the Python standard library and GNU time (`/usr/bin/time`, for the peak
resident memory of each run) are needed.

Web mode (issue 25): `--web` starts `tavern web --dev-login` on a fresh SQLite
database on a free loopback port (under the same address-space cap), logs in
through the development login, and posts generated hostile form input to every
form of the dashboard (macros set and delete, the generator editor's check, save
and try of a draft, a saved program's try, the default program, the NPC editor's
and the effect file's check, save and play, settings, character use, delete and
answer) and GETs hostile paths. About a fifth of the forms are sent as an
attacker would (no CSRF token, another session's token, another origin, no
session); each of those carries a marker in every field. It reports any 5xx
answer, a panic in the server's log, the server's death, answers slower than 2 s,
and the server's peak memory; at the end it reads the database and reports any
row that holds a refused request's marker.

    cargo build -p tavern           # debug is fine; the lead reruns on release
    scripts/hostile-campaign.py --web --bin target/debug/tavern --seconds 120
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


def costly_basic_program(rng):
    """A BASIC loop of the statements whose work grows with their operands (arrays
    made, erased and wiped by RUN and CLEAR with live values to write out, strings
    built and searched, PRINT USING), which must still stop within the step budget
    in bounded CPU time."""
    size = lambda: rng.choice([1, 10, 100, 1000, 10000, 30000, 100000, 700000])
    lines = [f"10 DIM A({size()}), B$({size()}), C({rng.choice([10, 100, 255])},"
             f"{rng.choice([10, 100, 255])})"]
    if rng.random() < 0.7:
        lines.append("20 A(1) = 1: B$(1) = \"X\": X = 1: N$ = \"NAME\": SWAP X%, X%: D(I, J) = SQR(I)")
    if rng.random() < 0.5:
        needle = rng.choice([1, 2, 50, 127, 200, 254])
        lines.append(f"30 S$ = STRING$(255, \"A\"): T$ = STRING$({needle}, \"A\") + \"B\""
                     f": P = INSTR(S$, T$): P = INSTR(1, S$ + \"\", MID$(T$, 2))")
    if rng.random() < 0.5:
        lines.append("40 U$ = SPACE$(255): U$ = LEFT$(U$, 100) + LEFT$(U$, 100): V$ = HEX$(P) + STR$(X) + U$")
    if rng.random() < 0.2:
        lines.append("50 PRINT USING \"###.## \\   \\ \"; 1.5, \"ABCDEF\";")
    lines.append("60 " + rng.choice(["RUN", "RUN 10", "CLEAR: GOTO 10", "ERASE A, B$, C: GOTO 10",
                                     "ERASE A, B$, C: CLEAR: GOTO 10"]))
    return "\n".join(lines) + "\n"


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


# Names as users type them: markdown, mentions, backticks, new lines, long words,
# multi-byte and combining characters, right-to-left and zero-width ones.
HOSTILE_NAMES = ["Orc", "**Orc**", "@everyone", "<@11>", "`Orc`", "```", "Orc\nOrc",
                 "x" * 32, "x" * 64, "x" * 5000, "Ölgötz", "😀" * 32, "e\u0301" * 16,
                 "\u202eOrc", "O\u200br\u200bc", "||Orc||", "_", "", " ", ",", "Orc,Orc",
                 "\u0000", "🏳️‍🌈" * 8, "\ufeff", "a:b", "name:x", "Orc_1"]

# Numbers at and beyond what an i64 holds, and the usual edges.
HOSTILE_NUMBERS = ["0", "-0", "1", "-1", "20", "21", "2147483647", "2147483648",
                   "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                   "-9223372036854775809", "99999999999999999999999999", "1e400", "NaN",
                   "0x10", "+", "-", "=", "1.5", "١٢"]

EFFECT_SUBJECTS = ["HitPoints", "Protections", "Immunity", "Existence", "LoseTurn",
                   "Strength", "ArmorClass", "Dexterity", "Nonsense"]
EFFECT_HOOKS = ["HpReduced", "TurnStart", "TurnEnd", "Applied", "Nonsense"]


def hostile_name(rng):
    return rng.choice(HOSTILE_NAMES) if rng.random() < 0.7 else \
        "".join(chr(rng.randint(32, 0x2FFF)) for _ in range(rng.randint(1, 80)))


def hostile_number(rng):
    return rng.choice(HOSTILE_NUMBERS) if rng.random() < 0.7 else dice_expr(rng)[:200]


def effect_value(rng):
    return rng.choice(["-1", "+1", "-3d6", "+2d4+2", "true", "false", "new", "+POISON",
                       "-9223372036854775808", "+9223372036854775807",
                       "-99999999999999999999", "-1000d1000000", "-" + dice_expr(rng)[:300],
                       "+" + "1+" * 5000 + "1", "=" + hostile_number(rng)])


def set_expression(rng, elements, depth):
    """A method set nested `depth` deep (one nested operand per level, so the text
    grows linearly)."""
    text = rng.choice(elements) if elements else "NOPE"
    for _ in range(depth):
        other = rng.choice(elements) if elements else "NOPE"
        op = rng.choice(["|", "&", "-"])
        text = ("~" if rng.random() < 0.2 else "") + f"({text}{op}{other})"
    return text


def effect_declaration(rng, name, elements):
    lines = [f"EFFECT {name} {{",
             f"  target_type {rng.choice(['Character', 'Character', 'Effect', 'Tile'])}",
             f"  subject {rng.choice(EFFECT_SUBJECTS)}",
             f"  value {effect_value(rng)}",
             f"  method {set_expression(rng, elements, rng.choice([1, 3, 10, 64, 65, 1000]))}"]
    if rng.random() < 0.6:
        lines.append(f"  duration {rng.choice(['0', '1', '3', '-1', '1000000', '9223372036854775807', '99999999999999999999', '1d4470'])}")
    if rng.random() < 0.3:
        lines.append(f"  hook {rng.choice(EFFECT_HOOKS)}")
        lines.append(f"  target_method {rng.choice(['Effected', 'Source', 'All'])}")
    if rng.random() < 0.3:
        lines.append(f"  probability {rng.choice(['1', '0', '0.25', '1.5', '-1', 'NaN', '1e-400'])}")
    if rng.random() < 0.3:
        lines.append(f"  cumulative {rng.choice(['yes', 'no', 'maybe'])}")
    if rng.random() < 0.2:
        lines.append(f"  mode {rng.choice(['while_active', 'once', 'x'])}")
    if rng.random() < 0.3:
        # Issue 26: a save /init save takes from the file (and hostile ones).
        lines.append(f"  save {rng.choice(['DEX', 'con', 'LUCK', ''])} "
                     f"{rng.choice(['15', '0', '101', '-1', '99999999999999999999', ''])} "
                     f"{rng.choice(['', 'half', 'none', 'x'])}")
    lines.append("}")
    return "\n".join(lines) + "\n"


# Hooks that split and hurt each other: each step may fire more (element MAGIC).
SPLITTING_HOOKS = (
    "\nEFFECT Split { target_type Character; target_method Effected; subject Existence;"
    " hook HpReduced; source (); value new; probability 1 }\n"
    "EFFECT Hurt { target_type Character; target_method Effected; subject HitPoints;"
    " hook HpReduced; value -1; method (MAGIC); duration -1 }\n"
    "EFFECT Tick { target_type Character; subject HitPoints; value -1; method (MAGIC);"
    " duration -1; cumulative yes }\n"
    "EFFECT Blast { target_type Character; subject HitPoints; value -20d20; method (MAGIC);"
    " save DEX 15 half }\n")


def effect_library(rng, samples):
    """A GhulScript effect file: a damaged sample, thousands of effects or elements,
    deep set expressions, long names, numbers beyond i64, splitting hooks that fire
    each other, or noise."""
    kind = rng.randrange(11)
    if kind < 3 and samples:
        text = rng.choice(samples)
        if kind == 0:
            cut = rng.randrange(len(text) + 1)
            return text[:cut] + rng.choice(["", "}", "{", "\n", "EFFECT", "(", "~"]) + text[cut:]
        # A file that loads, so that plays and encounters reach the engine: the
        # sample, with the hooks that fire each other.
        return text + (SPLITTING_HOOKS if kind == 1 else "")
    elements = [f"E{i}" for i in range(rng.choice([1, 5, 255, 256, 257, 5000]))]
    head = "ELEMENTS { " + " ".join(elements) + " }\n"
    if kind == 3:
        count = rng.choice([10, 255, 256, 257, 5000])
        return head + "".join(effect_declaration(rng, f"Fx{i}", elements[:300]) for i in range(count))
    if kind == 4:
        depth = rng.choice([10, 63, 64, 65, 1000, 50000])
        method = "(" * depth + "E0" + ")" * depth
        return head + f"EFFECT Deep {{ target_type Character; subject HitPoints; value -1; method {method} }}\n"
    if kind == 5:
        long = "N" * rng.choice([64, 65, 1000, 10**5])
        return head + effect_declaration(rng, long, elements[:10])
    if kind == 6:
        return head.replace("E0", "E0 MAGIC", 1) + SPLITTING_HOOKS
    if kind == 7:
        return head + "".join(effect_declaration(rng, hostile_name(rng).replace("}", ""), elements[:20])
                              for _ in range(rng.randint(1, 30)))
    if kind == 8:
        return "ELEMENTS { " + "X " * rng.choice([10**4, 10**6]) + "}\n"
    if kind == 9:
        return head + effect_declaration(rng, "Big", elements[:5]).replace(
            "value", "value " + "-1" * rng.choice([1000, 20000]) + " //", 1)
    words = ["EFFECT", "ELEMENTS", "{", "}", "(", ")", "~", "|", "target_type", "subject",
             "value", "method", "duration", "hook", "Character", "HitPoints", "-1", "E0",
             ";", "\n", "//", "/*", "*/", "new", "probability"]
    return " ".join(rng.choice(words) for _ in range(rng.randint(1, 5000)))


def effects_stdin(rng):
    """Directives for `tavern effects play`: hostile names and numbers, many
    combatants, floods of applies and turns."""
    lines = []
    for _ in range(rng.randint(1, 60)):
        pick = rng.randrange(9)
        if pick < 2:
            name = hostile_name(rng).replace(" ", "").replace("\n", "") or "A"
            lines.append(f"@add {name} init={hostile_number(rng)} hp={hostile_number(rng)}"
                         + rng.choice(["", " immune=E0", " protect=E0:9223372036854775807",
                                       " ac=-9223372036854775808", " str=99999999999999999999"]))
        elif pick == 2:
            for i in range(rng.choice([1, 10, 100, 1000])):
                lines.append(f"@add C{i} init={i} hp=9223372036854775807")
        elif pick == 3:
            targets = ",".join(f"C{i}" for i in range(rng.choice([1, 10, 1000])))
            lines.append(f"@apply {rng.choice(['Split', 'Hurt', 'Tick', 'Fireball', 'Poison', 'Fx0', 'Deep'])} {targets}")
        elif pick == 4:
            lines.append(f"@hp C{rng.randint(0, 9)} {rng.choice(['+', '-', '='])}{hostile_number(rng)}")
        elif pick == 5:
            lines.extend(["@next"] * rng.choice([1, 10, 1000]))
        elif pick == 6:
            lines.append(rng.choice(["@dice max", "@dice min", "@chance always", "@chance never",
                                     "@dice seed 18446744073709551615", "@dice seed 18446744073709551616"]))
        elif pick == 7:
            lines.append(rng.choice(["@state", "@remove C0", "@remove " + "x" * 2000, "x" * 10**5]))
        else:
            lines.append("".join(chr(rng.randint(1, 0x2FFF)) for _ in range(rng.randint(0, 200))))
    return "\n".join(lines) + "\n"


def console_value(text):
    """A value the console reads as one option's: no line breaks."""
    return text.replace("\n", " ").replace("\r", " ")


def encounter_lines(rng, workdir, index, samples):
    """`/effect` and `/init` lines for the console: a library, an encounter with
    hostile names and numbers, effects on combatants, turns."""
    lines = []
    if rng.random() < 0.5:
        path = os.path.join(workdir, f"e{index}.ghul")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(effect_library(rng, samples))
        lines.append(f"/effect install file:{path}")
        lines.append("/press Install anyway")
    else:
        lines.append(f"/effect install file:{os.path.join(workdir, 'zero.bas')}")
        lines.append("/effect install code:" + console_value(effect_library(rng, samples))[:6000])
    lines.append(rng.choice(["/effect list", "/effect list everything:true",
                             f"/effect show name:{console_value(hostile_name(rng))}"]))
    lines.append("/init begin")
    for _ in range(rng.randint(1, 12)):
        pick = rng.randrange(12)
        name = console_value(hostile_name(rng))
        if pick < 3:
            lines.append(f"/init add name:{name} init:{console_value(hostile_number(rng))} "
                         f"hp:{console_value(hostile_number(rng))} "
                         f"count:{rng.choice(['1', '20', '21', '0', '-1', '99999999999999999999'])}"
                         + rng.choice(["", " hidden:true", " ac:-100", " ac:9223372036854775808"])
                         + rng.choice(["", " attack:+5 1d12+3 POISON", " save:DEX+1",
                                       f" attack:{console_value(hostile_number(rng))}",
                                       f" save:DEX{console_value(hostile_number(rng))}"]))
        elif pick == 3:
            lines.append(f"/init hp target:{name} amount:{rng.choice(['-', '+', '='])}"
                         f"{console_value(hostile_number(rng))}")
        elif pick == 4:
            targets = ",".join([name] * rng.choice([1, 5, 100]))[:500]
            effect = rng.choice(["Split", "Hurt", "Tick", "Fx0", "Deep", "Big", name])
            lines.append(f"/init effect targets:{targets} effect:{effect}")
        elif pick == 5:
            lines.append(f"/init cure target:{name} effect:{rng.choice(['Split', 'Tick', name])}")
        elif pick == 6:
            lines.extend(rng.choice([["/init next"] * rng.choice([1, 20, 200]), ["/init prev"]]))
        elif pick == 7:
            lines.append(rng.choice([f"/init remove target:{name}", "/init list",
                                     f"/init join character:{name}"]))
        elif pick == 9:
            targets = ",".join([name] * rng.choice([1, 5, 100]))[:500]
            number = console_value(hostile_number(rng))
            lines.append(f"/init attack targets:{targets} "
                         + rng.choice([f"hit:{number} damage:1d8", f"hit:+5 damage:{number}",
                                       "hit:1d20+@STR_MOD damage:1d8+@STR_MOD means:POISON",
                                       f"attacker:{name}", "hit:+0 damage:8d6 means:" + name])
                         + rng.choice(["", " advantage:true", " disadvantage:true"]))
        elif pick == 10:
            targets = ",".join([name] * rng.choice([1, 5, 100]))[:500]
            lines.append(f"/init save targets:{targets} "
                         f"dc:{rng.choice(['15', '0', '-9223372036854775808', '99999999999999999999'])} "
                         f"ability:{rng.choice(['DEX', 'wis', 'luck', name])} "
                         + rng.choice([f"damage:{console_value(hostile_number(rng))}",
                                       "damage:8d6 means:POISON half:false",
                                       f"effect:{rng.choice(['Split', 'Tick', name])}"]))
        elif pick == 8:
            # An effect that brings its own save (Blast), with nothing else typed.
            targets = ",".join([name] * rng.choice([1, 5, 100]))[:500]
            lines.append(f"/init save targets:{targets} effect:{rng.choice(['Blast', 'Tick', name])}")
        else:
            lines.append(rng.choice(["/init end", "/press End the encounter", "/press Next"]))
    return lines


def console_stream(rng, workdir, samples=()):
    """Lines for `tavern console`: commands with hostile options and files."""
    lines = []
    for index in range(rng.randint(3, 25)):
        pick = rng.randrange(14)
        if pick >= 12:
            lines.extend(encounter_lines(rng, workdir, index, samples))
        elif pick < 3:
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
            lines.append(rng.choice(["/press Roll again", "/press Nochmal würfeln",
                                     f"/config language {rng.choice(['de', 'en', 'auto'])}",
                                     f"/würfeln {dice_expr(rng)}", f"/chancen {dice_expr(rng)}"]))
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
    """Runs one case; returns (outcome, seconds, peak_kib, exit, stderr_tail, cpu_seconds)."""
    stats = tempfile.NamedTemporaryFile(delete=False)
    stats.close()
    command = ["/usr/bin/time", "-q", "-o", stats.name, "-f", "%M %e %x %U %S"] + args
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
    try:
        cpu = float(last[3]) + float(last[4])
    except (IndexError, ValueError):
        cpu = 0.0
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
    return outcome, seconds, peak_kib, exit_code, text[-400:], cpu


# ---------------------------------------------------------------- the web dashboard

REFUSED_MARK = "zzrefused"


def hostile_text(rng, limit=4000):
    """A form field's text: markup, quotes, control and far Unicode, long runs."""
    choice = rng.random()
    if choice < 0.25:
        return rng.choice(["<script>alert(1)</script>", "</textarea><b>x</b>", "\"'><img src=x>",
                           "&amp;&lt;", "%00%ff", "a=b&c=d", "{{7*7}}", "${x}", "\u202e\u0000",
                           "..%2f..%2fetc%2fpasswd", "", " ", "\r\n\r\n", "é" * 100])
    if choice < 0.45:
        return hostile_name(rng)
    if choice < 0.60:
        return hostile_number(rng)
    if choice < 0.75:
        return dice_expr(rng)[:limit]
    if choice < 0.85:
        return rng.choice(["x", "<", "\u0000", "9"]) * rng.choice([100, 1000, limit, limit * 4])
    return "".join(chr(rng.randint(1, 0x2FFF)) for _ in range(rng.randint(0, 200)))


def hostile_segment(rng):
    """A path segment: ids that are not, names with slashes and dots, huge numbers."""
    from urllib.parse import quote
    raw = rng.choice(["1", "0", "-1", "9223372036854775807", "9223372036854775808",
                      "99999999999999999999999", "abc", "%", "..", ".", "guard", "short",
                      "<script>", " ", "a/b", "x" * 3000, hostile_name(rng)])
    return quote(raw, safe="")


def web_form(rng, guild, samples, effect_samples, programs):
    """(path, fields) of one form of the dashboard with hostile values."""
    base = f"/servers/{guild}"
    kind = rng.choice(["macro", "macro delete", "program check", "program save",
                       "program try draft", "program try", "program default", "npc",
                       "effects", "language", "macro role", "character use",
                       "character delete", "character answer"])
    if kind == "macro":
        # Some well-formed, so that accepted forms store rows beside the refused.
        plain = rng.random() < 0.4
        return kind, f"{base}/macros", {
            "name": f"m{rng.randint(0, 99)}" if plain else hostile_text(rng, 200),
            "expr": dice_expr(rng)[:200] if plain else hostile_text(rng),
            "description": hostile_text(rng, 500),
            "scope": rng.choice(["personal", "server", "", hostile_text(rng, 50)])}
    if kind == "macro delete":
        return kind, f"{base}/macros/delete", {
            "name": hostile_text(rng, 200), "scope": rng.choice(["personal", "server", "x"])}
    if kind.startswith("program") and kind != "program try" and kind != "program default":
        action = {"program check": "check", "program save": "save",
                  "program try draft": "try"}[kind]
        name = rng.choice(["p" + str(rng.randint(0, 9)), hostile_text(rng, 100)])
        fields = {"name": name, "source": basic_program(rng)[:200_000],
                  "map": rng.choice(["", "at 10 NAME=N$", hostile_text(rng, 1000)]),
                  "action": action}
        if rng.random() < 0.5:
            fields["confirmed"] = "1"
        if action == "try":
            fields.update({"seed": rng.choice(["1", "-1", "x", "99999999999999999999999"]),
                           "answers": rng.choice(["[]", "[\"a\"]", "{", "[" + "\"x\"," * 500 + "\"y\"]",
                                                  hostile_text(rng, 500)]),
                           "answer": hostile_text(rng, 500)})
        if action == "save":
            programs.append(name)
        return kind, f"{base}/programs/edit", fields
    if kind == "program try":
        name = rng.choice(programs) if programs and rng.random() < 0.7 else hostile_segment(rng)
        from urllib.parse import quote
        return kind, f"{base}/programs/{quote(name, safe='')}/try", {
            "seed": rng.choice(["", "7", "-3", "18446744073709551616"]),
            "answers": rng.choice(["[]", "[\"\"]", hostile_text(rng, 300)]),
            "answer": hostile_text(rng, 300)}
    if kind == "program default":
        return kind, f"{base}/programs/default", {
            "name": rng.choice(programs) if programs and rng.random() < 0.5 else hostile_text(rng, 100)}
    if kind in ("npc", "effects"):
        action = rng.choice(["check", "save", "play", "", "x"])
        if kind == "npc":
            fields = {"name": hostile_text(rng, 64), "display": hostile_text(rng, 64),
                      "source": npc_script(rng, samples)[:200_000],
                      "play": npc_stdin(rng)[:20_000], "action": action}
            return kind, f"{base}/npcs/edit", fields
        return kind, f"{base}/effects", {"source": effect_library(rng, effect_samples)[:200_000],
                                         "play": effects_stdin(rng)[:20_000], "action": action}
    if kind == "language":
        return kind, f"{base}/settings/language", {
            "language": rng.choice(["de", "en", "auto", "", hostile_text(rng, 100)])}
    if kind == "macro role":
        return kind, f"{base}/settings/macro-role", {
            "role": rng.choice(["", "42", "-1", "99999999999999999999", hostile_text(rng, 100)])}
    if kind == "character answer":
        return kind, f"{base}/characters/answer", {
            "custom_id": rng.choice(["tv1:cd:1", "tv1:" + hostile_text(rng, 200), hostile_text(rng)])}
    verb = "use" if kind == "character use" else "delete"
    return kind, f"{base}/characters/{hostile_segment(rng)}/{verb}", {}


def web_request(port, method, path, body=None, headers=None, timeout=10):
    """(status, headers, body) of one request, redirects not followed; status 0 when
    the connection failed."""
    import http.client
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        return response.status, dict(response.getheaders()), data
    except (OSError, http.client.HTTPException) as error:
        return 0, {}, str(error).encode()
    finally:
        connection.close()


def web_campaign(options, binary, samples, effect_samples):
    """`--web`: hostile forms through a real `tavern web`; exits 1 on any finding."""
    import socket
    import sqlite3
    from urllib.parse import urlencode
    rng = random.Random(options.seed)
    work = tempfile.mkdtemp(prefix="tavern-hostile-web-")
    os.makedirs(options.findings, exist_ok=True)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    origin = f"http://127.0.0.1:{port}"
    config = os.path.join(work, "tavern.toml")
    with open(config, "w", encoding="utf-8") as handle:
        handle.write("[rate_limit]\nburst = 100000\nper_minute = 100000\n")
    database = os.path.join(work, "web.db")
    log_path = os.path.join(work, "server.log")
    log = open(log_path, "wb")
    server = subprocess.Popen([binary, "--config", config, "web", "--db", database,
                               "--address", f"127.0.0.1:{port}", "--dev-login"],
                              stdout=log, stderr=subprocess.STDOUT,
                              preexec_fn=limit_memory(options.mem))
    # The server is up when it answers; a script may wait (this is not a test).
    for _ in range(300):
        if web_request(port, "GET", "/", timeout=2)[0] == 200:
            break
        if server.poll() is not None:
            sys.exit(f"tavern web exited at start: see {log_path}")
        time.sleep(0.1)

    def login():
        status, headers, _ = web_request(port, "POST", "/login/dev", b"",
                                         {"Origin": origin, "Content-Length": "0"})
        cookie = headers.get("set-cookie", headers.get("Set-Cookie", "")).split(";")[0]
        page = web_request(port, "GET", "/servers", headers={"Cookie": cookie})[2].decode("utf-8", "replace")
        marker = 'name="csrf" value="'
        start = page.find(marker)
        if status != 303 or start < 0:
            sys.exit(f"the development login failed ({status}): see {log_path}")
        start += len(marker)
        return cookie, page[start:page.index('"', start)]

    cookie, csrf = login()
    other_cookie, other_csrf = login()
    guild = 1
    programs = []
    summary = {}
    findings = 0
    refused_sent = 0
    slowest = 0.0
    deadline = time.monotonic() + options.seconds
    total = 0

    def finding(kind, what, detail):
        nonlocal findings
        findings += 1
        name = f"web-{kind.replace(' ', '-')}-{total}"
        with open(os.path.join(options.findings, name + ".input"), "w",
                  encoding="utf-8", errors="replace") as handle:
            handle.write(what)
        print(f"finding: web {kind}: {detail}: {what[:100]!r}", flush=True)

    while total < options.cases and time.monotonic() < deadline:
        total += 1
        roll = rng.random()
        if roll < 0.1:
            # A hostile GET: pages with ids that are not ids, names that are not names.
            path = rng.choice([f"/servers/{hostile_segment(rng)}/encounters/{hostile_segment(rng)}",
                               f"/servers/{guild}/programs/{hostile_segment(rng)}",
                               f"/servers/{guild}/npcs/{hostile_segment(rng)}",
                               f"/servers/{guild}/characters/{hostile_segment(rng)}",
                               f"/servers/{hostile_segment(rng)}/macros",
                               "/" + hostile_segment(rng)])
            kind, method, body, headers = "get", "GET", None, {"Cookie": cookie}
            what = path
        else:
            kind, path, fields = web_form(rng, guild, samples, effect_samples, programs)
            attack = rng.random() < 0.2
            headers = {"Content-Type": "application/x-www-form-urlencoded", "Origin": origin,
                       "Cookie": cookie}
            if attack:
                refused_sent += 1
                fields = {name: REFUSED_MARK + value for name, value in fields.items()}
                way = rng.choice(["no token", "other token", "other origin", "no session"])
                if way == "other token":
                    fields["csrf"] = other_csrf
                elif way == "other origin":
                    fields["csrf"] = csrf
                    headers["Origin"] = "http://evil.example"
                elif way == "no session":
                    fields["csrf"] = csrf
                    del headers["Cookie"]
                kind = f"{kind} ({way})"
            else:
                fields["csrf"] = csrf
            pairs = list(fields.items())
            rng.shuffle(pairs)
            body = urlencode(pairs).encode()
            if not attack and rng.random() < 0.05:
                # Not a form at all: bytes that are no UTF-8, broken escapes.
                body = rng.choice([b"%", b"csrf=" + csrf.encode() + b"&name=%ff%fe",
                                   bytes(rng.randint(0, 255) for _ in range(200)),
                                   b"csrf=" + csrf.encode() + b"&" + b"a=1&" * 5000])
            method, what = "POST", f"{path}\n{body[:3000].decode('utf-8', 'replace')}"
        started = time.monotonic()
        status, _, answer = web_request(port, method, path, body, headers, options.timeout)
        seconds = time.monotonic() - started
        slowest = max(slowest, seconds)
        row = summary.setdefault(kind.split(" (")[0], {"requests": 0, "statuses": {}, "slow": 0})
        row["requests"] += 1
        row["statuses"][status] = row["statuses"].get(status, 0) + 1
        if seconds > SLOW_SECONDS:
            row["slow"] += 1
        if status == 0 or status >= 500:
            finding(kind, what, f"status {status} {answer[:200]!r}")
        if " (" in kind and status not in (401, 403, 404, 405, 413, 415, 422, 400):
            finding(kind, what, f"a refused form answered {status}")
        if server.poll() is not None:
            finding(kind, what, f"the server died (exit {server.returncode})")
            break
        if status == 303 and web_request(port, "GET", "/servers",
                                         headers={"Cookie": cookie})[0] != 200:
            # The session ended (a character's deletion does not, but be sure).
            cookie, csrf = login()

    peak_kib = 0
    try:
        with open(f"/proc/{server.pid}/status", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    peak_kib = int(line.split()[1])
    except OSError:
        pass
    alive = server.poll() is None
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()
    with open(log_path, encoding="utf-8", errors="replace") as handle:
        server_log = handle.read()
    panics = server_log.count("panicked at")
    if panics:
        findings += 1
        shutil.copy(log_path, os.path.join(options.findings, "web-server.log"))
        print(f"finding: {panics} panic(s) in the server's log", flush=True)
    # Nothing a refused request carried may be stored anywhere.
    stored = []
    with sqlite3.connect(database) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            columns = [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')]
            for column in columns:
                count = db.execute(f'SELECT COUNT(*) FROM "{table}" WHERE CAST("{column}" AS TEXT) '
                                   f"LIKE ?", (f"%{REFUSED_MARK}%",)).fetchone()[0]
                if count:
                    stored.append(f"{table}.{column}: {count}")
        macros = db.execute("SELECT COUNT(*) FROM macros").fetchone()[0]
        installed = db.execute("SELECT COUNT(*) FROM programs").fetchone()[0] \
            if "programs" in tables else 0
    if stored:
        findings += 1
        print(f"finding: refused requests stored something: {', '.join(stored)}", flush=True)
    shutil.rmtree(work, ignore_errors=True)
    print(f"\n{total} requests in {options.seconds - max(0, deadline - time.monotonic()):.0f} s "
          f"({refused_sent} sent as an attacker), cap {options.mem >> 20} MiB\n")
    print("| form | requests | statuses | slow (>2 s) |")
    print("| --- | ---: | --- | ---: |")
    for kind in sorted(summary):
        row = summary[kind]
        statuses = ", ".join(f"{code}: {count}" for code, count in sorted(row["statuses"].items()))
        print(f"| {kind} | {row['requests']} | {statuses} | {row['slow']} |")
    print(f"\nslowest answer {slowest:.2f} s; server alive at the end: {alive}; "
          f"panics in the log: {panics}; peak RSS {peak_kib / 1024:.0f} MiB; "
          f"stored from refused requests: {', '.join(stored) or 'nothing'}; "
          f"rows stored by accepted forms: {macros} macros, {installed} programs")
    if options.json:
        with open(options.json, "w", encoding="utf-8") as handle:
            json.dump({"requests": total, "refused_sent": refused_sent, "forms": summary,
                       "slowest_seconds": slowest, "alive": alive, "panics": panics,
                       "peak_kib": peak_kib, "stored_from_refused": stored}, handle, indent=2)
    sys.exit(1 if findings or not alive else 0)


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
    parser.add_argument("--engines", help="only these engines, comma-separated "
                        "(e.g. `basic,basic costly`)")
    parser.add_argument("--web", action="store_true",
                        help="hostile forms through `tavern web` (see the header)")
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
    # The effect files among the samples (`ELEMENTS`/`EFFECT`), for /effect and `effects`.
    effect_samples = [text for text in samples if "EFFECT " in text]
    if options.web:
        shutil.rmtree(work, ignore_errors=True)
        web_campaign(options, binary, samples, effect_samples)

    # `tavern npc` and `tavern effects`: a GhulScript file to check or play, and
    # what is typed while playing.
    GHUL_TOOLS = {
        "npc": (lambda rng: npc_script(rng, samples), npc_stdin),
        "effects": (lambda rng: effect_library(rng, effect_samples), effects_stdin),
    }

    def case(engine):
        """(args, stdin, description) of one generated case of `engine`."""
        # One argument may hold 128 KiB (Linux's MAX_ARG_STRLEN); the bot takes 2,000.
        if engine == "roll":
            expr = dice_expr(rng)[:100_000]
            return [binary, "roll", "--", expr], "", expr
        if engine == "odds":
            expr = dice_expr(rng)[:100_000]
            return [binary, "odds", "--", expr], "", expr
        if engine in ("basic", "basic costly"):
            path = os.path.join(work, "case.bas")
            source = costly_basic_program(rng) if engine == "basic costly" else basic_program(rng)
            with open(path, "w", encoding="latin-1", errors="replace") as handle:
                handle.write(source)
            return [binary, "basic", path], basic_stdin(rng), source
        tool, _, mode = engine.partition(" ")
        if tool in GHUL_TOOLS and mode in ("check", "play"):
            make_source, make_stdin = GHUL_TOOLS[tool]
            path = os.path.join(work, f"case-{tool}.ghul")
            source = make_source(rng)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(source)
            stdin = make_stdin(rng) if mode == "play" else ""
            return [binary, tool, mode, path], stdin, source
        database = os.path.join(work, "console.db")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(database + suffix):
                os.unlink(database + suffix)
        if engine == "encounter console":
            stream = "\n".join(encounter_lines(rng, work, total, effect_samples)) + "\n"
        else:
            stream = console_stream(rng, work, effect_samples)
        config = os.path.join(work, "tavern.toml")
        with open(config, "w", encoding="utf-8") as handle:
            handle.write("[rate_limit]\nburst = 100000\nper_minute = 100000\n")
        # Both languages: German numbers, plurals and sentences have their own lengths.
        lang = rng.choice(["de", "en"])
        return ([binary, "--config", config, "console", "--db", database, "--lang", lang],
                stream, f"--lang {lang}\n{stream}")

    engines = ["roll", "odds", "basic", "npc check", "npc play", "console",
               "effects check", "effects play", "encounter console", "basic costly"]
    weights = [30, 20, 15, 10, 10, 15, 10, 10, 15, 10]
    if options.engines:
        chosen = options.engines.split(",")
        weights = [weight for engine, weight in zip(engines, weights) if engine in chosen]
        engines = [engine for engine in engines if engine in chosen]
    summary = {engine: {"cases": 0, "ok": 0, "findings": {}, "slow": 0, "max_seconds": 0.0,
                        "max_cpu_seconds": 0.0, "max_cpu_case": "",
                        "peak_kib": 0, "peak_case": ""} for engine in engines}
    deadline = time.monotonic() + options.seconds
    total = 0
    while total < options.cases and time.monotonic() < deadline:
        engine = rng.choices(engines, weights)[0]
        args, stdin, description = case(engine)
        outcome, seconds, peak_kib, _, tail, cpu = run(args, stdin, options, options.timeout)
        total += 1
        row = summary[engine]
        row["cases"] += 1
        if seconds > SLOW_SECONDS:
            row["slow"] += 1
        row["max_seconds"] = max(row["max_seconds"], round(seconds, 2))
        if cpu > row["max_cpu_seconds"]:
            row["max_cpu_seconds"], row["max_cpu_case"] = round(cpu, 2), description[:300]
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
    print("| engine | cases | ok | panics/aborts/hangs | slow (>2 s) | max s | max CPU s "
          "| peak RSS MiB |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    for engine in engines:
        row = summary[engine]
        found = ", ".join(f"{count} {kind}" for kind, count in sorted(row["findings"].items()))
        print(f"| {engine} | {row['cases']} | {row['ok']} | {found or 'none'} | {row['slow']} | "
              f"{row['max_seconds']} | {row['max_cpu_seconds']} | {row['peak_kib'] / 1024:.0f} |")
    if options.json:
        with open(options.json, "w", encoding="utf-8") as handle:
            json.dump(summary, handle, indent=2)
    failed = any(row["findings"] for row in summary.values())
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
