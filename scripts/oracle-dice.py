#!/usr/bin/env python3
"""The peers as live oracles for Tavern's dice language.

Every expression of scripts/oracle/expressions.txt (collected from the test suites
of Avrae's d20 and of rpg-dice-roller) is put to both peers and to Tavern
(`tavern roll --samples N`). Where one accepts it, it is sampled N times (2,000 by
default). Each pair (expression, peer) is then one of:

- agree: both accept, and the samples tell the same distribution: the means within
  a statistical tolerance (Welch's z below --z, 5 by default), the ranges alike (at
  most 1 % of either side's totals outside the other's observed range) and a
  two-sample Kolmogorov-Smirnov test that does not reject at --alpha (1e-6);
- both refuse;
- tavern only: Tavern accepts what the peer refuses (fine, noted);
- GAP: the peer accepts, Tavern refuses;
- MISMATCH: both accept, with another meaning.

The script exits 1 when a gap or mismatch is not in the allowlist
(scripts/oracle/allowlist.txt, each entry saying why Tavern differs on purpose),
0 otherwise. It installs nothing; it needs:

    pip install d20                                         # Avrae's roller
    (cd /tmp/rdr && npm install @dice-roller/rpg-dice-roller)   # or set RDR_MODULES
    scripts/oracle-dice.py --tavern target/debug/tavern

Only the Python standard library, d20 and Node (for scripts/oracle/rpg-dice-roller.mjs)
are used. The tolerances are chosen so that over the whole corpus a false alarm
is far less likely than one in a thousand runs.
"""

import argparse
import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORACLE = HERE / "oracle"
PEERS = ("d20", "rpg-dice-roller")

AGREE = "agree"
BOTH_REFUSE = "both refuse"
TAVERN_ONLY = "tavern only"
GAP = "GAP"
MISMATCH = "MISMATCH"
OUTCOMES = (AGREE, BOTH_REFUSE, TAVERN_ONLY, GAP, MISMATCH)

# Share of one side's totals that may fall outside the range the other side showed
# before the ranges count as different (rare extremes of wide distributions are
# not seen in every 2,000 samples).
RANGE_SLACK = 0.01


class Answer:
    """What one roller said about one expression: refused (why), or its totals."""

    def __init__(self, totals=None, error=None, note=None):
        self.totals = totals
        self.error = error
        self.note = note

    @property
    def accepted(self):
        return self.totals is not None


# ------------------------------------------------------------------ the rollers


def ask_tavern(binary, expression, samples, timeout):
    command = [binary, "roll", "--samples", str(samples), "--", expression]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Answer(error=f"no answer within {timeout} s")
    if done.returncode != 0:
        message = done.stderr.strip().splitlines()
        return Answer(error=message[-1] if message else f"exit {done.returncode}")
    totals = [int(line) for line in done.stdout.split()]
    if len(totals) != samples:
        return Answer(error=f"printed {len(totals)} totals, not {samples}")
    return Answer(totals=totals)


class D20Timeout(Exception):
    pass


def _alarm(_signum, _frame):
    raise D20Timeout()


def ask_d20(expression, samples, budget_seconds):
    """d20 as Avrae's `!roll` calls it: comments allowed after the expression."""
    import d20

    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(int(budget_seconds * 3) + 1)
    try:
        try:
            tree = d20.parse(expression, allow_comments=True)
        except d20.RollError as error:
            return Answer(error=f"{type(error).__name__}: {error}")
        totals = []
        started = time.monotonic()
        while len(totals) < samples:
            try:
                total = d20.roll(tree, allow_comments=True).total
            except d20.RollError as error:
                return Answer(error=f"{type(error).__name__}: {error}")
            totals.append(total)
            if time.monotonic() - started > budget_seconds and len(totals) >= 200:
                break
        note = None if len(totals) == samples else f"{len(totals)} samples in {budget_seconds} s"
        return Answer(totals=totals, note=note)
    except D20Timeout:
        return Answer(error="no answer in time")
    except (RecursionError, ArithmeticError, ValueError, TypeError) as error:
        # Not one of d20's own errors: still a refusal, but say so.
        return Answer(error=f"unhandled {type(error).__name__}: {error}")
    finally:
        signal.alarm(0)


def ask_rpg_dice_roller(expression, samples, budget_seconds, timeout):
    script = ORACLE / "rpg-dice-roller.mjs"
    env = dict(os.environ, RDR_BUDGET_SECONDS=str(budget_seconds))
    try:
        done = subprocess.run(
            ["node", str(script), str(samples)],
            input=expression + "\n",
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return Answer(error=f"no answer within {timeout} s")
    if done.returncode != 0 or not done.stdout.strip():
        return Answer(error=f"node failed: {done.stderr.strip()[-300:]}")
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    if not answer["accepted"]:
        return Answer(error=answer["error"])
    totals = answer["totals"]
    note = None if len(totals) == samples else f"{len(totals)} samples in {budget_seconds} s"
    return Answer(totals=totals, note=note)


# ------------------------------------------------------------------ statistics


def mean_and_variance(values):
    count = len(values)
    mean = math.fsum(values) / count
    variance = math.fsum((v - mean) ** 2 for v in values) / max(count - 1, 1)
    return mean, variance


def welch_z(a, b):
    mean_a, var_a = mean_and_variance(a)
    mean_b, var_b = mean_and_variance(b)
    spread = math.sqrt(var_a / len(a) + var_b / len(b))
    if spread == 0:
        return 0.0 if mean_a == mean_b else math.inf
    return abs(mean_a - mean_b) / spread


def ks_statistic(a, b):
    """The largest distance between the two empirical distribution functions."""
    a = sorted(a)
    b = sorted(b)
    i = j = 0
    largest = 0.0
    while i < len(a) and j < len(b):
        value = min(a[i], b[j])
        while i < len(a) and a[i] == value:
            i += 1
        while j < len(b) and b[j] == value:
            j += 1
        largest = max(largest, abs(i / len(a) - j / len(b)))
    return largest


def ks_threshold(n, m, alpha):
    return math.sqrt(-math.log(alpha / 2) / 2) * math.sqrt((n + m) / (n * m))


def outside_share(values, low, high):
    return sum(1 for v in values if v < low or v > high) / len(values)


def compare(tavern, peer, z_limit, alpha):
    """The reasons the two samples tell different distributions (empty: agree)."""
    reasons = []
    if any(not float(v).is_integer() for v in peer):
        reasons.append("the peer gives fractions")
    z = welch_z(tavern, peer)
    if z > z_limit:
        reasons.append(f"means differ (z = {z:.1f})")
    if outside_share(tavern, min(peer), max(peer)) > RANGE_SLACK or outside_share(
        peer, min(tavern), max(tavern)
    ) > RANGE_SLACK:
        reasons.append("ranges differ")
    d = ks_statistic(tavern, peer)
    if d > ks_threshold(len(tavern), len(peer), alpha):
        reasons.append(f"distributions differ (KS D = {d:.3f})")
    return reasons


def summary(answer):
    if not answer.accepted:
        return f"refused ({answer.error[:90]})"
    mean, _ = mean_and_variance(answer.totals)
    text = f"{min(answer.totals):g}..{max(answer.totals):g}, mean {mean:.3f}"
    return text + (f" [{answer.note}]" if answer.note else "")


# ------------------------------------------------------------------ files


def read_corpus(path):
    """(peer, test file, expression) per line; '#' lines and blank lines skipped."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3 or fields[0] not in PEERS:
            sys.exit(f"{path}:{number}: expected PEER<tab>FILE<tab>EXPRESSION")
        rows.append(tuple(fields))
    return rows


def read_allowlist(path):
    """{(peer, expression): (kind, why)}; kind is GAP or MISMATCH."""
    allowed = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4 or fields[0] not in PEERS or fields[2] not in (GAP, MISMATCH):
            sys.exit(f"{path}:{number}: expected PEER<tab>EXPRESSION<tab>GAP|MISMATCH<tab>WHY")
        if not fields[3].strip():
            sys.exit(f"{path}:{number}: an entry must say why Tavern differs")
        allowed[(fields[0], fields[1])] = (fields[2], fields[3])
    return allowed


# ------------------------------------------------------------------ main


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tavern", default="target/debug/tavern", help="the tavern binary")
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--corpus", type=Path, default=ORACLE / "expressions.txt")
    parser.add_argument("--allowlist", type=Path, default=ORACLE / "allowlist.txt")
    parser.add_argument("--z", type=float, default=5.0, help="largest Welch z of agreeing means")
    parser.add_argument("--alpha", type=float, default=1e-6, help="KS test's false-alarm rate")
    parser.add_argument("--budget", type=float, default=5.0, help="seconds of sampling per peer")
    parser.add_argument("--only", help="only expressions containing this text")
    parser.add_argument("--json", type=Path, help="write every answer and outcome here")
    parser.add_argument("--verbose", action="store_true", help="print agreements too")
    args = parser.parse_args()

    corpus = read_corpus(args.corpus)
    allowed = read_allowlist(args.allowlist)
    expressions = []
    for _, _, expression in corpus:
        if expression not in expressions and (args.only is None or args.only in expression):
            expressions.append(expression)
    sources = {}
    for peer, _, expression in corpus:
        sources.setdefault(expression, set()).add(peer)

    # outcome counts by the peer the expression came from, then by the peer asked
    counts = {asked: {source: dict.fromkeys(OUTCOMES, 0) for source in PEERS} for asked in PEERS}
    unexplained = []
    explained = []
    records = []
    seen_allowed = set()
    for expression in expressions:
        tavern = ask_tavern(args.tavern, expression, args.samples, timeout=60)
        answers = {
            "d20": ask_d20(expression, args.samples, args.budget),
            "rpg-dice-roller": ask_rpg_dice_roller(
                expression, args.samples, args.budget, timeout=args.budget * 6 + 30
            ),
        }
        for asked, answer in answers.items():
            reasons = []
            if answer.accepted and tavern.accepted:
                reasons = compare(tavern.totals, answer.totals, args.z, args.alpha)
                outcome = MISMATCH if reasons else AGREE
            elif answer.accepted:
                outcome = GAP
            elif tavern.accepted:
                outcome = TAVERN_ONLY
            else:
                outcome = BOTH_REFUSE
            for source in sources[expression]:
                counts[asked][source][outcome] += 1
            line = (
                f"{outcome:<12} {asked:<16} {expression!r}\n"
                f"    tavern: {summary(tavern)}\n    {asked}: {summary(answer)}"
            )
            if reasons:
                line += "\n    why: " + "; ".join(reasons)
            entry = allowed.get((asked, expression))
            if outcome in (GAP, MISMATCH):
                if entry and entry[0] == outcome:
                    seen_allowed.add((asked, expression))
                    explained.append(line + f"\n    allowed: {entry[1]}")
                else:
                    unexplained.append(line)
            elif args.verbose or outcome == TAVERN_ONLY:
                print(line)
            records.append(
                {
                    "expression": expression,
                    "from": sorted(sources[expression]),
                    "peer": asked,
                    "outcome": outcome,
                    "reasons": reasons,
                    "allowed": entry[1] if entry and entry[0] == outcome else None,
                    "tavern": summary(tavern),
                    "answer": summary(answer),
                }
            )

    if explained:
        print("\n=== gaps and mismatches on purpose (allowlist) ===")
        print("\n".join(explained))
    if unexplained:
        print("\n=== gaps and mismatches NOT in the allowlist ===")
        print("\n".join(unexplained))
    stale = sorted(set(allowed) - seen_allowed)
    stale = [key for key in stale if args.only is None or args.only in key[1]]
    if stale:
        print("\n=== allowlist entries that no longer differ (remove them) ===")
        for peer, expression in stale:
            print(f"{peer:<16} {expression!r}")

    print("\n=== figures (rows: the peer asked; columns: whose tests hold the expression) ===")
    for source in PEERS:
        print(f"{source}'s tests: {sum(1 for e in expressions if source in sources[e])} expressions")
    for asked in PEERS:
        for source in PEERS:
            row = counts[asked][source]
            cells = ", ".join(f"{outcome} {row[outcome]}" for outcome in OUTCOMES)
            print(f"asked {asked:<16} about {source}'s: {cells}")
    print(f"unexplained gaps and mismatches: {len(unexplained)}; allowed: {len(explained)}")

    if args.json:
        args.json.write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
