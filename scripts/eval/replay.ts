/**
 * The replay evaluator (issue 5): for every step of a trajectory that edits a file the final patch
 * changes, build each method's context from the steps before the edit, at every budget, and
 * measure how much of the gold evidence it holds. The ledger is fed step by step — commit the
 * steps before the edit, materialize, go on — so no context can see a later step.
 */
import { fromMiniSweAgent } from '../../src/adapters/index.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { TIERS } from '../../src/working-set/types.js';
import type { WorkingSet } from '../../src/working-set/working-set.js';
import { BASELINES, type BaselineName } from './baselines.js';
import { editEvents } from './events.js';
import { goldLines } from './gold-lines.js';
import { LedgerPool } from './ledger-pool.js';
import {
  type BootstrapOptions,
  DEFAULT_BOOTSTRAP,
  type GoldLine,
  LineMatcher,
  pairsIntact,
  precisionOf,
  recallOf,
  usableGold,
} from './metrics.js';
import { summarise } from './summary.js';
import { transcriptOf } from './transcript.js';
import type { EventRecord, MethodName, MethodScore, ReplayReport } from './types.js';

export { METHODS, type MethodName, type ReplayReport } from './types.js';

export const DEFAULT_BUDGETS: readonly number[] = [1000, 2000, 4000, 8000, 16000];

export interface ReplayInput {
  /** Shown in progress and in the per-event records (e.g. the file name). */
  name: string;
  /** A mini-swe-agent trajectory (`*.traj.json`): `messages` and `info.submission`. */
  trajectory: unknown;
}

export interface ReplayProgress {
  done: number;
  total: number;
  name: string;
  events: number;
}

/** What one method put in context for one event at one budget (for audits and the no-future test). */
export interface ContextRecord {
  trajectory: string;
  epoch: number;
  budget: number;
  method: MethodName;
  /** The ledger's working set, or the baseline's message ids, as JSON. */
  json: string;
}

export interface ReplayOptions {
  budgets?: readonly number[];
  onProgress?: (p: ReplayProgress) => void;
  onContext?: (c: ContextRecord) => void;
  /** Closure bounds for diagnosis only; by default the materializer's own defaults, as a user
   * calling `materialize({ budget })` gets them. */
  maxNodes?: number;
  hops?: number;
  bootstrap?: Partial<BootstrapOptions>;
  /** A database to reuse (the caller closes it); by default one is opened and closed here. */
  pool?: LedgerPool;
}

export async function replayTrajectories(
  inputs: readonly ReplayInput[],
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const budgets = checkBudgets(options.budgets ?? DEFAULT_BUDGETS);
  const settings = {
    maxNodes: options.maxNodes ?? null,
    hops: options.hops ?? null,
    bootstrap: { ...DEFAULT_BOOTSTRAP, ...options.bootstrap },
  };
  const pool = options.pool ?? new LedgerPool();
  const records: EventRecord[] = [];
  const skipped: Array<{ name: string; reason: string }> = [];
  let usableGold = 0;
  let usableEditGold = 0;
  let droppedShort = 0;
  try {
    for (const [i, input] of inputs.entries()) {
      const prepared = prepare(input);
      if ('skip' in prepared) skipped.push({ name: input.name, reason: prepared.skip });
      else {
        usableGold += prepared.gold.length;
        usableEditGold += prepared.editGold.length;
        droppedShort += prepared.dropped;
        try {
          records.push(
            ...(await replayOne(input.name, prepared, budgets, settings, await pool.fresh(), options.onContext)),
          );
        } catch (e) {
          skipped.push({ name: input.name, reason: `replay failed: ${e instanceof Error ? e.message : String(e)}` });
        }
      }
      options.onProgress?.({ done: i + 1, total: inputs.length, name: input.name, events: records.length });
    }
  } finally {
    if (!options.pool) await pool.close();
  }
  return summarise(records, {
    budgets,
    trajectories: inputs.length,
    skipped,
    usableGold,
    usableEditGold,
    droppedShort,
    ...settings,
  });
}

function checkBudgets(budgets: readonly number[]): number[] {
  if (budgets.length === 0) throw new RangeError('at least one budget is needed');
  for (const b of budgets)
    if (!Number.isSafeInteger(b) || b <= 0) throw new RangeError(`budget ${b}: a positive integer`);
  return [...new Set(budgets)].sort((a, b) => a - b);
}

interface Prepared {
  transactions: ReturnType<typeof fromMiniSweAgent>['transactions'];
  gold: GoldLine[];
  dropped: number;
  /** The second gold: lines each edit replaces as they stood just before it (exact pre-images),
   * with the epoch of their edit. */
  editGold: Array<GoldLine & { epoch: number }>;
}

function prepare(input: ReplayInput): Prepared | { skip: string } {
  const t = input.trajectory as { info?: { submission?: unknown } } | null;
  const submission = typeof t === 'object' && t !== null ? t.info?.submission : undefined;
  if (typeof submission !== 'string' || submission.trim() === '') return { skip: 'no final patch (info.submission)' };
  let adapted: ReturnType<typeof fromMiniSweAgent>;
  try {
    adapted = fromMiniSweAgent(input.trajectory);
  } catch (e) {
    return { skip: `not a mini-swe-agent trajectory: ${e instanceof Error ? e.message : String(e)}` };
  }
  const { lines, dropped } = usableGold(goldLines(submission));
  const editGold = adapted.preImages.flatMap((p) =>
    usableGold([{ path: p.path, lines: p.lines, kind: 'modified' }]).lines.map((l) => ({ ...l, epoch: p.epoch })),
  );
  return { transactions: adapted.transactions, gold: lines, dropped, editGold };
}

const UNLIMITED = Number.MAX_SAFE_INTEGER;

async function replayOne(
  name: string,
  { transactions, gold, editGold }: Prepared,
  budgets: readonly number[],
  settings: { maxNodes: number | null; hops: number | null },
  ledger: Ledger,
  onContext: ReplayOptions['onContext'],
): Promise<EventRecord[]> {
  const events = editEvents(transactions, gold);
  if (events.length === 0) return [];
  const matcher = new LineMatcher(gold);
  const goldTokens = gold.map((g) => ledger.countTokens(g.text));
  const editMatcher = new LineMatcher(editGold);
  const transcript = transcriptOf(transactions, (text) => ledger.countTokens(text));
  const score = (gold: number[], present: ReadonlySet<number>, ids: Set<string>, tokens: number): MethodScore => ({
    recall: recallOf(present, gold),
    precision: precisionOf(present, gold, goldTokens, tokens),
    tokens,
    pairsKept: pairsIntact(ids, transcript.pairing),
  });
  const materialize = (epoch: number, tokens: number) =>
    ledger.materialize({
      epoch,
      budget: { tokens },
      ...(settings.maxNodes === null ? {} : { maxNodes: settings.maxNodes }),
      ...(settings.hops === null ? {} : { hops: settings.hops }),
    });

  const out: EventRecord[] = [];
  const edited = new Set<string>();
  let next = 0;
  for (const ev of events) {
    const firstEdit = ev.paths.every((p) => !edited.has(p));
    for (const p of ev.paths) edited.add(p);
    // Only the steps before the edit are in the ledger when its context is built.
    while (next < transactions.length && transactions[next]!.epoch < ev.epoch)
      await ledger.commit(transactions[next++]!);
    const before = ev.epoch - 1;
    const seen = transcript.messages.filter((m) => m.epoch <= before);
    const ceiling = recallOf(matcher.shownBy(seen.map((m) => m.text)), ev.gold);
    const full = await materialize(before, UNLIMITED);
    const carrierTier = carrierTiers(full, matcher);
    const reach = recallOf(new Set(carrierTier.keys()), ev.gold);
    // The second gold: the exact pre-images of this step's edits of the event's paths.
    const edit = editGold.flatMap((g, i) => (g.epoch === ev.epoch && ev.paths.includes(g.path) ? [i] : []));
    const editRecall = (texts: readonly string[]) => recallOf(editMatcher.shownBy(texts), edit);
    const record: EventRecord = {
      trajectory: name,
      epoch: ev.epoch,
      paths: ev.paths,
      firstEdit,
      goldLines: ev.gold.length,
      ceiling,
      reach,
      budgets: [],
    };
    if (edit.length > 0) {
      record.edit = {
        goldLines: edit.length,
        ceiling: editRecall(seen.map((m) => m.text)),
        reach: editRecall(bodiesOf(full)),
      };
    }
    for (const budget of budgets) {
      const ws = await materialize(before, budget);
      onContext?.({ trajectory: name, epoch: ev.epoch, budget, method: 'ledger', json: JSON.stringify(ws) });
      const present = matcher.shownBy(ws.items.flatMap((i) => (i.body === undefined ? [] : [i.body])));
      const ids = new Set(ws.items.map((i) => i.id));
      const methods = { ledger: score(ev.gold, present, ids, ws.tokens) } as Record<MethodName, MethodScore>;
      if (edit.length > 0) methods.ledger.editRecall = editRecall(bodiesOf(ws));
      for (const method of Object.keys(BASELINES) as BaselineName[]) {
        const sel = BASELINES[method](transcript, before, budget);
        const json = JSON.stringify(sel.messages.map((m) => m.id));
        onContext?.({ trajectory: name, epoch: ev.epoch, budget, method, json });
        const texts = sel.messages.map((m) => m.text);
        const shown = matcher.shownBy(texts);
        // A masked observation still answers its call (the placeholder stands in for it).
        const nodes = new Set([...sel.messages, ...(sel.masked ?? [])].flatMap((m) => m.nodes));
        methods[method] = score(ev.gold, shown, nodes, sel.tokens);
        if (edit.length > 0) methods[method].editRecall = editRecall(texts);
      }
      record.budgets.push({ budget, methods, ...tierDiagnosis(ws, present, carrierTier, ev.gold) });
    }
    out.push(record);
  }
  return out;
}

/** The texts a working set shows (an item referring to another's body shows that body too, and
 * the carrier is in the same set). */
const bodiesOf = (ws: WorkingSet): string[] => ws.items.flatMap((i) => (i.body === undefined ? [] : [i.body]));

/** Where the working set's tokens go by tier, and which tiers carried (at an unlimited budget) the
 * gold lines this budget dropped. */
function tierDiagnosis(
  ws: WorkingSet,
  present: ReadonlySet<number>,
  carrierTier: ReadonlyMap<number, number>,
  gold: readonly number[],
): { tiers: Record<string, number>; missed: Record<string, number> } {
  const tiers: Record<string, number> = {};
  for (const i of ws.items) tiers[TIERS[i.tier]!] = (tiers[TIERS[i.tier]!] ?? 0) + i.tokens;
  const missed: Record<string, number> = {};
  for (const g of gold) {
    const tier = carrierTier.get(g);
    if (tier !== undefined && !present.has(g)) missed[TIERS[tier]!] = (missed[TIERS[tier]!] ?? 0) + 1;
  }
  return { tiers, missed };
}

/** For each gold line the working set shows, the best (lowest) tier of an item showing it — an
 * item that refers to another's body shows that body too. */
function carrierTiers(ws: WorkingSet, matcher: LineMatcher): Map<number, number> {
  const bodyOf = new Map(ws.items.flatMap((i) => (i.body === undefined ? [] : [[i.id, i.body] as const])));
  const out = new Map<number, number>();
  for (const item of ws.items) {
    const body = item.body ?? (item.ref === undefined ? undefined : bodyOf.get(item.ref));
    if (body === undefined) continue;
    for (const g of matcher.shown(body))
      if ((out.get(g) ?? Number.POSITIVE_INFINITY) > item.tier) out.set(g, item.tier);
  }
  return out;
}
