import fc from 'fast-check';
import { expect } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/errors.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import type { NodeInput, Transaction } from '../../src/schema/types.js';
import { arbitraryScript, toTransactions } from './arbitrary-ledger.js';

/**
 * Shared pieces of the adversarial suite (test/adversarial/). Every property runs with a seed
 * printed up front (fast-check also prints it, with the shrunk path, on failure); set FC_SEED to
 * replay a run. Each suite counts the fresh random ledgers it opened and prints the figure.
 */
export const SEED = process.env.FC_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.FC_SEED);

export function runOptions(numRuns: number, label: string): fc.Parameters<unknown> {
  console.log(`[adversarial] ${label}: seed ${SEED}, ${numRuns} runs (replay with FC_SEED=${SEED})`);
  return { numRuns, seed: SEED, endOnFailure: true };
}

/**
 * Characters a hostile caller would try, weighted so most strings still commit: lone surrogates
 * (high, low, reversed), U+FEFF, NUL and other controls, RTL overrides and marks, combining marks,
 * noncharacters, U+FFFD, astral pairs, quotes and SQL, then ordinary text.
 */
const HOSTILE = [
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\ufeff',
  '\u0000',
  '\u0007',
  '\u001f',
  '\u007f',
  '\u202e',
  '\u202d',
  '\u200f',
  '\u061c',
  '\u0301',
  '\u0308',
  '\u20dd',
  '\ufffe',
  '\uffff',
  '\ufffd',
  '\ud83d\ude00',
  '\ud834\udd1e',
  "'",
  '"',
  '\\',
  "'; DROP TABLE nodes; --",
  '\u05e9',
  '\u0627',
  '\u00e9',
  'e\u0301',
];
const unit = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('a', 'b', 'c', ' ', 'x', '1', ':', '/', '.', '-') },
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
);

/** A string of hostile units; `rare` keeps the bad ones rarer (for ids, so ledgers grow). */
export const hostileString = (maxLength: number, minLength = 0): fc.Arbitrary<string> =>
  fc.string({ unit, minLength, maxLength });

/** Oracle, written independently of src/schema/text-rule.ts: does `s` read back exactly? */
export function roundTrips(s: string, name: boolean): boolean {
  if (!(s as string & { isWellFormed(): boolean }).isWellFormed()) return false;
  if (s.startsWith('\ufeff')) return false;
  return !(name && s.includes('\ufeff'));
}

/** Strings to put into every string field of generated transactions. */
export const hostileFields = fc.record({
  idPrefix: fc.oneof({ weight: 3, arbitrary: fc.constant('n') }, { weight: 2, arbitrary: hostileString(6, 1) }),
  bodies: fc.array(hostileString(40), { minLength: 1, maxLength: 6 }),
  names: fc.array(hostileString(12, 1), { minLength: 1, maxLength: 4 }),
  metaKeys: fc.array(hostileString(6, 1), { minLength: 1, maxLength: 3 }),
});
export type HostileFields = typeof hostileFields extends fc.Arbitrary<infer T> ? T : never;

/** Random ledgers whose every string field carries hostile text. */
export const hostileLedger = fc.record({ script: arbitraryScript, fields: hostileFields, salt: fc.nat() });
export type HostileLedger = typeof hostileLedger extends fc.Arbitrary<infer T> ? T : never;

export function hostileTransactions({ script, fields, salt }: HostileLedger): Transaction[] {
  const pick = <T>(list: readonly T[], i: number): T => list[(i * 7 + salt) % list.length]!;
  let k = 0;
  return toTransactions(script, fields.idPrefix).map((tx) => ({
    ...tx,
    nodes: (tx.nodes ?? []).map((n): NodeInput => {
      const i = k++;
      const out: NodeInput = { ...n };
      if (i % 3 !== 2) out.body = pick(fields.bodies, i);
      if (i % 2 === 0) out.authority = pick(fields.names, i);
      if (n.path !== undefined) out.path = pick(fields.names, i + 1);
      if (n.revision !== undefined) out.revision = pick(fields.names, i + 2);
      if (n.verifier !== undefined) out.verifier = pick(fields.names, i + 3);
      if (n.kind === 'tool_call') out.tool = pick(fields.names, i);
      if (i % 4 === 1) out.meta = { [pick(fields.metaKeys, i)]: pick(fields.bodies, i + 1), n: i };
      return out;
    }),
  }));
}

/** Every string of a transaction with whether it is a name. */
export function* stringsOf(tx: Transaction): Generator<[string, boolean]> {
  for (const n of tx.nodes ?? []) {
    yield [n.id, true];
    for (const key of ['authority', 'path', 'revision', 'verifier', 'tool'] as const) {
      const v = n[key];
      if (v !== undefined) yield [v, true];
    }
    if (n.body !== undefined) yield [n.body, false];
    for (const [k, v] of Object.entries(n.meta ?? {})) {
      yield [k, false];
      if (typeof v === 'string') yield [v, false];
    }
  }
  for (const e of tx.edges ?? []) {
    yield [e.from, true];
    yield [e.to, true];
  }
  for (const t of tx.transitions ?? []) yield [t.id, true];
}

/** A rejection must be a coded LedgerError from the catalogue. */
export function expectCoded(e: unknown): string {
  const code = (e as { code?: string })?.code;
  expect(code && code in ERROR_CATALOGUE, `uncoded error: ${String(e)}\n${(e as Error)?.stack}`).toBe(true);
  return code!;
}

/** Every read the suite compares, serialised: views at each epoch, a working set, a retrieval. */
export async function readsOf(
  ledger: Ledger,
  probe: { tokens: number; text: string; scopes: string[] },
  everyEpoch: boolean,
): Promise<string> {
  const out: unknown[] = [];
  if (everyEpoch) for (let epoch = 0; epoch <= ledger.lastEpoch + 1; epoch++) out.push(await ledger.asOf({ epoch }));
  else out.push(await ledger.asOf({ epoch: ledger.lastEpoch }));
  out.push(await settle(ledger.materialize({ budget: { tokens: probe.tokens }, authority: probe.scopes })));
  out.push(await settle(ledger.retrieve({ text: probe.text, authority: probe.scopes })));
  if (everyEpoch) {
    out.push(await settle(ledger.materialize({ budget: { tokens: probe.tokens } })));
    out.push(await settle(ledger.retrieve({ text: probe.text })));
  }
  return JSON.stringify(out);
}

/** A read's value, or its error code (a coded error is a legitimate answer to compare). */
async function settle(p: Promise<unknown>): Promise<unknown> {
  try {
    return await p;
  } catch (e) {
    return { error: expectCoded(e) };
  }
}
