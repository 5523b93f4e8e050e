/** `context-ledger inspect --ledger DIR [--epoch E]`: the as-of view, supersessions, contradictions. */
import { type Ledger, readLedger } from '../ledger/ledger.js';
import type { NodeRecord } from '../schema/types.js';
import { compareStrings } from '../text/compare.js';
import { intOption, parse, requiredString } from './args.js';
import type { CliIO } from './io.js';
import { openLedgerDir } from './ledger-dir.js';

export const INSPECT_USAGE = `Usage: context-ledger inspect --ledger DIR [--epoch E] [--json]

Summarises the ledger as of an epoch: valid nodes and edges by kind, open work, every record
superseded up to that epoch (when, and by what), and the contradictions valid then.

  --ledger DIR    the ledger directory (see: context-ledger ingest)
  --epoch E       as of epoch E (default the last)
  --json          the summary as JSON
  -h, --help      this text
`;

interface Supersession {
  id: string;
  kind: string;
  where?: string;
  validFrom: number;
  closedAt: number;
  /** Records that took its place at that epoch (same id, path or verifier). */
  by: string[];
}

export interface Inspection {
  epoch: number;
  transactions: number;
  nodes: Record<string, number>;
  edges: Record<string, number>;
  open: string[];
  superseded: Supersession[];
  contradictions: Array<{ from: string; to: string }>;
}

export async function inspect(argv: readonly string[], io: CliIO): Promise<number> {
  const { values } = parse(argv, { ledger: { type: 'string' }, epoch: { type: 'string' }, json: { type: 'boolean' } });
  if (values.help) {
    io.stdout(INSPECT_USAGE);
    return 0;
  }
  const dir = requiredString(values.ledger, 'ledger');
  const epoch = intOption(values.epoch, 'epoch', 0);
  const { ledger } = await openLedgerDir(dir, io);
  try {
    const report = await inspectLedger(ledger, epoch ?? ledger.lastEpoch);
    io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderInspection(report));
    return 0;
  } finally {
    await ledger.close();
  }
}

const where = (n: NodeRecord): string | undefined =>
  n.path ? `${n.path}${n.range ? `:${n.range[0]}-${n.range[1]}` : ''}` : n.verifier;

const tally = (kinds: readonly string[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const k of [...kinds].sort()) out[k] = (out[k] ?? 0) + 1;
  return out;
};

/**
 * Supersessions come from the views at every epoch the ledger recorded up to `epoch`: a record
 * valid in one view carries the epoch it was closed at, and the records that replaced it are those
 * new at that epoch with its id, path (revisions) or verifier.
 */
export async function inspectLedger(ledger: Ledger, epoch: number): Promise<Inspection> {
  const view = await ledger.asOf({ epoch });
  // The recorded epochs: the transaction log of the ledger (an internal of this package).
  const recorded = await readLedger(ledger, async ({ index }) =>
    index.transactions.filter(Boolean).map((t) => t.epoch),
  );
  const epochs = [...new Set(recorded)].filter((e) => e <= epoch).sort((a, b) => a - b);
  const closed = new Map<string, NodeRecord>();
  const views = new Map<number, NodeRecord[]>();
  for (const e of epochs) {
    const nodes = e === epoch ? view.nodes : (await ledger.asOf({ epoch: e })).nodes;
    views.set(e, nodes);
    for (const n of nodes) {
      if (n.validTo !== undefined && n.validTo <= epoch) closed.set(`${n.id}@${n.validFrom}`, n);
    }
  }
  const superseded: Supersession[] = [...closed.values()]
    .sort((a, b) => a.validTo! - b.validTo! || compareStrings(a.id, b.id))
    .map((n) => {
      const after = views.get(n.validTo!) ?? [];
      const by = after
        .filter(
          (m) =>
            m.validFrom === n.validTo &&
            (m.id === n.id ||
              (n.kind !== 'verifier_outcome' && m.kind === 'artifact_revision' && m.path === n.path) ||
              (n.kind === 'verifier_outcome' && m.verifier === n.verifier)),
        )
        .map((m) => m.id);
      const w = where(n);
      return { id: n.id, kind: n.kind, ...(w ? { where: w } : {}), validFrom: n.validFrom, closedAt: n.validTo!, by };
    });
  return {
    epoch,
    transactions: ledger.lastTx,
    nodes: tally(view.nodes.map((n) => n.kind)),
    edges: tally(view.edges.map((e) => e.kind)),
    open: view.nodes.filter((n) => n.status === 'open').map((n) => n.id),
    superseded,
    contradictions: view.edges.filter((e) => e.kind === 'contradicts').map((e) => ({ from: e.from, to: e.to })),
  };
}

function renderInspection(r: Inspection): string {
  const count = (t: Record<string, number>) =>
    Object.entries(t)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none';
  const lines = [
    `as of epoch ${r.epoch} (${r.transactions} transactions recorded)`,
    `nodes: ${count(r.nodes)}`,
    `edges: ${count(r.edges)}`,
    `open: ${r.open.length === 0 ? 'none' : r.open.join(', ')}`,
    `superseded: ${r.superseded.length}`,
    ...r.superseded.map(
      (s) =>
        `  ${s.id} (${s.kind}${s.where ? ` ${s.where}` : ''}) valid from ${s.validFrom}, closed at ${s.closedAt}${s.by.length ? ` by ${s.by.join(', ')}` : ''}`,
    ),
    `contradictions: ${r.contradictions.length}`,
    ...r.contradictions.map((c) => `  ${c.from} contradicts ${c.to}`),
  ];
  return `${lines.join('\n')}\n`;
}
