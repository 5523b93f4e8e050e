/**
 * The conformance suite every runtime runs against the *built* bundle (Node, workerd, Chromium):
 * the same transactions, then every query the library offers, reduced to one JSON-able result.
 * Runtime-neutral on purpose — no test framework, no Node APIs — so a Worker or a page can run it
 * and hand the result back; the Node side compares the results byte for byte.
 */
import type { Ledger, OpenLedgerOptions, Transaction } from '../../src/index.js';

export type OpenLedger = (options?: OpenLedgerOptions) => Promise<Ledger>;

export interface ConformanceResult {
  receipts: unknown[];
  asOf: Record<string, unknown>;
  materialize: Record<string, unknown>;
  messages: unknown;
  retrieve: Record<string, unknown>;
  rerun: unknown;
  rejected: Array<{ code: string; field: unknown }>;
  snapshotSha256: string;
  restoredSnapshotSha256: string;
  snapshotBytes: number;
  /** The text rule in this runtime: hostile strings that must read back exactly, live and
   * restored, and strings that must be refused with INVALID_TEXT. */
  text: { live: unknown; restored: unknown; exact: boolean; rejected: string[] };
}

export async function runConformance(
  openLedger: OpenLedger,
  session: readonly Transaction[],
): Promise<ConformanceResult> {
  const ledger = await openLedger();
  try {
    const receipts = [];
    for (const tx of session) receipts.push(await ledger.commit(tx));
    const rejected: ConformanceResult['rejected'] = [];
    for (const bad of BAD_TRANSACTIONS) {
      try {
        await ledger.commit(bad as Transaction);
        rejected.push({ code: 'ACCEPTED', field: null });
      } catch (e) {
        rejected.push({
          code: (e as { code: string }).code,
          field: (e as { details?: { field?: unknown } }).details?.field,
        });
      }
    }
    const asOf: Record<string, unknown> = {};
    for (const epoch of [0, 3, 7, ledger.lastEpoch]) asOf[epoch] = await ledger.asOf({ epoch });
    const materialize: Record<string, unknown> = {};
    for (const tokens of [300, 1000, 4000]) materialize[tokens] = await ledger.materialize({ budget: { tokens } });
    const ws = await ledger.materialize({ budget: { tokens: 1500 } });
    const messages = { openai: ws.toMessages('openai'), anthropic: ws.toMessages('anthropic') };
    const retrieve: Record<string, unknown> = {
      text: await ledger.retrieve({ text: 'speed decoded as signed int16' }),
      exact: await ledger.retrieve({ artifacts: [{ path: 'tests/test_status.py', range: [25, 40] }] }),
      abstain: await ledger.retrieve({ text: 'firmware update over bluetooth' }),
      scoped: await ledger.retrieve({ text: 'reply identifier', authority: ['user', 'agent'] }),
    };
    const rerun = await ledger.rerunCandidates({ epoch: 9 });
    const bytes = await ledger.snapshot();
    const restored = await openLedger({ snapshot: bytes });
    const again = await restored.snapshot();
    const text = await textRule(restored, openLedger);
    await restored.close();
    return {
      receipts,
      asOf,
      materialize,
      messages,
      retrieve,
      rerun,
      rejected,
      snapshotSha256: await sha256(bytes),
      restoredSnapshotSha256: await sha256(again),
      snapshotBytes: bytes.length,
      text,
    };
  } finally {
    await ledger.close();
  }
}

const BAD_TRANSACTIONS: unknown[] = [
  { epoch: 1, nodes: [{ id: 'x', kind: 'thought' }] },
  { epoch: 99, edges: [{ from: 'task:rmdx', to: 'ghost', kind: 'requires' }] },
  { epoch: 99, nodes: [{ id: 'task:rmdx', kind: 'task' }] },
  { epoch: 99, nodes: [{ id: 'e', kind: 'evidence', path: 'a', range: [3, 1] }] },
];

/** Strings every runtime must keep code unit for code unit: NUL, RTL, combining marks, an inner
 * U+FEFF, noncharacters, astral pairs, NFC vs NFD ids. */
const KEPT = [
  'a\u0000b',
  '\u202eltr\u202c \u05e9\u0627',
  'e\u0301 \u00c5 A\u030a',
  'in\ufeffner',
  '\ufffe\uffff\ufffd',
  '\ud83d\ude00\ud834\udd1e',
];
const REFUSED = ['k\ud800', 'k\udc00', '\ufeffbody'];

async function textRule(ledger: Ledger, openLedger: OpenLedger): Promise<ConformanceResult['text']> {
  const epoch = ledger.lastEpoch;
  const nodes = KEPT.map((body, i) => ({
    id: `text:${i}:${['caf\u00e9', 'cafe\u0301', '\u05e9', '\ud83d\ude00', 'x', 'y'][i]}`,
    kind: 'message' as const,
    body,
    authority: `scope:${body.replaceAll('\u0000', '').replaceAll('\ufeff', '')}`,
    meta: { [body]: body },
  }));
  await ledger.commit({ epoch, nodes });
  const read = async (l: Ledger) => (await l.asOf({ epoch })).nodes.filter((n) => n.id.startsWith('text:'));
  const live = await read(ledger);
  const copy = await openLedger({ snapshot: await ledger.snapshot() });
  const restored = await read(copy);
  await copy.close();
  const same = (got: typeof live) =>
    nodes.every((n, i) => {
      const g = got[i];
      return g?.id === n.id && g.body === n.body && g.authority === n.authority && g.meta?.[n.body] === n.body;
    });
  const rejected: string[] = [];
  for (const bad of REFUSED) {
    for (const tx of [
      { epoch, nodes: [{ id: bad, kind: 'message' }] },
      { epoch, nodes: [{ id: 'text:bad', kind: 'message', body: bad }] },
    ]) {
      rejected.push(
        await ledger.commit(tx as Transaction).then(
          () => 'ACCEPTED',
          (e: { code?: string }) => e.code ?? String(e),
        ),
      );
    }
  }
  return { live, restored, exact: same(live) && same(restored), rejected };
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes.slice()));
  return Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('');
}
