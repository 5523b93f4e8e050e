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
import { BASELINES, type BaselineName, untrimmed } from './baselines.js';
import { type EditEvent, editEvents } from './events.js';
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
import {
  addTally,
  CacheSimulator,
  type CacheTally,
  DEFAULT_PRICING,
  emptyTally,
  type Pricing,
  requestBlocks,
} from './request-cost.js';
import { summarise } from './summary.js';
import { transcriptOf } from './transcript.js';
import { transcriptRequest } from './transcript-request.js';
import {
  type EventRecord,
  METHODS,
  type MethodName,
  type MethodScore,
  type ReplayReport,
  type TrajectoryCost,
} from './types.js';

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
  /** The ledger's materialize mode; by default the materializer's own. */
  mode?: 'fresh' | 'session';
  bootstrap?: Partial<BootstrapOptions>;
  /** A database to reuse (the caller closes it); by default one is opened and closed here. */
  pool?: LedgerPool;
  /** Input pricing of the cost section (default DEFAULT_PRICING). */
  pricing?: Pricing;
  /** The cost section: a request after every step (default true). Off, contexts are built only
   * before the edit events, and the report's cost section is empty. */
  cost?: boolean;
}

export async function replayTrajectories(
  inputs: readonly ReplayInput[],
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const budgets = checkBudgets(options.budgets ?? DEFAULT_BUDGETS);
  const settings = {
    maxNodes: options.maxNodes ?? null,
    hops: options.hops ?? null,
    mode: options.mode ?? null,
    bootstrap: { ...DEFAULT_BOOTSTRAP, ...options.bootstrap },
  };
  const pool = options.pool ?? new LedgerPool();
  const records: EventRecord[] = [];
  const costs: TrajectoryCost[] = [];
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
          const ledger = await pool.fresh();
          const withCost = options.cost !== false;
          const one = await replayOne(input.name, prepared, budgets, settings, ledger, options.onContext, withCost);
          records.push(...one.events);
          if (withCost) costs.push(one.cost);
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
    costs,
    pricing: options.pricing ?? DEFAULT_PRICING,
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
  settings: { maxNodes: number | null; hops: number | null; mode: 'fresh' | 'session' | null },
  ledger: Ledger,
  onContext: ReplayOptions['onContext'],
  withCost: boolean,
): Promise<{ events: EventRecord[]; cost: TrajectoryCost }> {
  const events = editEvents(transactions, gold);
  const eventAt = new Map(events.map((ev) => [ev.epoch, ev]));
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
  // The agent loop's request is materialize({ budget }) with the defaults, as a user calls it.
  const materialize = (tokens: number) =>
    ledger.materialize({
      budget: { tokens },
      ...(settings.maxNodes === null ? {} : { maxNodes: settings.maxNodes }),
      ...(settings.hops === null ? {} : { hops: settings.hops }),
      ...(settings.mode === null ? {} : { mode: settings.mode }),
    });
  // A block's text recurs in many requests: count it once.
  const counted = new Map<string, number>();
  const countTokens = (text: string) => {
    const known = counted.get(text);
    if (known !== undefined) return known;
    const n = ledger.countTokens(text);
    counted.set(text, n);
    return n;
  };
  const caches = budgets.map(() => {
    const perMethod = {} as Record<MethodName, CacheSimulator>;
    for (const m of METHODS) perMethod[m] = new CacheSimulator(countTokens);
    return perMethod;
  });
  const untrimmedCache = new CacheSimulator(countTokens);
  const repacks = budgets.map(() => emptyTally());

  const out: EventRecord[] = [];
  const edited = new Set<string>();
  // After each step but the last the agent sends a request; the next step is what it answers.
  for (const [s, tx] of transactions.entries()) {
    await ledger.commit(tx);
    const upcoming = transactions[s + 1];
    if (upcoming === undefined) break;
    const before = upcoming.epoch - 1;
    const ev = eventAt.get(upcoming.epoch);
    if (!withCost && ev === undefined) continue;
    if (withCost)
      untrimmedCache.send(requestBlocks(transcriptRequest(transcript, untrimmed(transcript, before, UNLIMITED))));
    const wss: WorkingSet[] = [];
    for (const [b, budget] of budgets.entries()) {
      const ws = await materialize(budget);
      wss.push(ws);
      if (!withCost) continue;
      const sent = caches[b]!.ledger.send(requestBlocks(ws.toMessages('anthropic')));
      if (ws.session?.step === 'repack')
        addTally(repacks[b]!, { requests: 1, sent: sent.sent, cached: sent.cached, written: sent.sent - sent.cached });
      for (const method of Object.keys(BASELINES) as BaselineName[])
        caches[b]![method].send(
          requestBlocks(transcriptRequest(transcript, BASELINES[method](transcript, before, budget))),
        );
    }
    if (ev !== undefined) out.push(await scoreEvent(ev, before, wss));
  }
  return {
    events: out,
    cost: {
      trajectory: name,
      budgets: budgets.map((budget, b) => ({
        budget,
        methods: Object.fromEntries(METHODS.map((m) => [m, caches[b]![m].tally])) as Record<MethodName, CacheTally>,
        ledgerRepacks: repacks[b]!,
      })),
      untrimmed: untrimmedCache.tally,
    },
  };

  /** How much of the gold each method's context holds before the edit `ev` (its working sets at
   * every budget already built, from the steps before it). */
  async function scoreEvent(ev: EditEvent, before: number, wss: readonly WorkingSet[]): Promise<EventRecord> {
    const firstEdit = ev.paths.every((p) => !edited.has(p));
    for (const p of ev.paths) edited.add(p);
    const seen = transcript.messages.filter((m) => m.epoch <= before);
    const ceiling = recallOf(matcher.shownBy(seen.map((m) => m.text)), ev.gold);
    const full = await materialize(UNLIMITED);
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
    for (const [b, budget] of budgets.entries()) {
      const ws = wss[b]!;
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
    return record;
  }
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
