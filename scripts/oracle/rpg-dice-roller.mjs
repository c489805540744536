// Asks rpg-dice-roller about dice expressions, for scripts/oracle-dice.py.
//
// Reads one expression per line on stdin; for each prints one JSON line:
// {"expression": e, "accepted": true, "totals": [...], "min": m, "max": M}
// (min and max are the library's own minTotal and maxTotal), or
// {"expression": e, "accepted": false, "error": "..."}.
// Usage: node rpg-dice-roller.mjs SAMPLES < expressions (at most $RDR_BUDGET_SECONDS,
// default 5, of sampling each; fewer totals are printed when it runs out).
// The package is looked up in $RDR_MODULES (default /tmp/rdr/node_modules),
// since the repository does not vendor it.

import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const modules = process.env.RDR_MODULES || '/tmp/rdr/node_modules';
const entry = join(modules, '@dice-roller', 'rpg-dice-roller', 'lib', 'esm', 'bundle.js');
const { DiceRoll } = await import(pathToFileURL(entry).href);

const samples = Number.parseInt(process.argv[2] || '2000', 10);
// Sampling stops early (after at least 200 rolls) once this many seconds are spent,
// so that a slow expression (thousands of capped explosions) still gets an answer.
const budgetMs = Number.parseFloat(process.env.RDR_BUDGET_SECONDS || '5') * 1000;

function ask(expression) {
  let first;
  try {
    first = new DiceRoll(expression);
  } catch (error) {
    return { expression, accepted: false, error: String(error && error.message ? error.message : error) };
  }
  const totals = [first.total];
  try {
    const started = Date.now();
    for (let i = 1; i < samples; i += 1) {
      totals.push(new DiceRoll(expression).total);
      if (totals.length >= 200 && Date.now() - started > budgetMs) break;
    }
  } catch (error) {
    // Accepted, but a later roll failed: report it as refused with the reason.
    return { expression, accepted: false, error: `roll failed: ${error && error.message ? error.message : error}` };
  }
  if (totals.some((total) => typeof total !== 'number' || !Number.isFinite(total))) {
    return { expression, accepted: false, error: `not a finite number: ${totals.find((t) => !Number.isFinite(t))}` };
  }
  return { expression, accepted: true, totals, min: first.minTotal, max: first.maxTotal };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line.length === 0) continue;
  process.stdout.write(`${JSON.stringify(ask(line))}\n`);
}
