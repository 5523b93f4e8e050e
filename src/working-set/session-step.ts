import { buildItems } from './build-items.js';
import type { Costs } from './framing.js';
import { readingOrder } from './order.js';
import { type Budget, cutChars, cutCost, excerptUnit, packUnits } from './pack.js';
import type { Ranked } from './rank-candidates.js';
import { RANKED_FROM_TIER, type Signal } from './relevance.js';
import { keepInPlace, LOG_KINDS, renderKey } from './repack-prefix.js';
import type { Candidate, Excerpt, Unit, WorkingSetItem } from './types.js';

/**
 * What a re-pack fills the budget to: the rest is room for the steps that follow to append into
 * (the auto-compaction of agent CLIs keeps half as well).
 */
const LOW_WATERMARK = 0.5;

/** One step of a session: the working set sent at an epoch, and how it came about. */
export interface SessionState {
  epoch: number;
  /** In the order sent: the head (tasks, steering), then what each step added, in step order. */
  items: WorkingSetItem[];
  tokens: number;
  records: number;
  chars: number;
  /** This step re-packed (else it appended to the previous step's items). */
  repacked: boolean;
  /** Why it re-packed: the first step of a window, an overflow, or a changed head. */
  cause?: 'first step' | 'overflow' | 'head changed';
  /** The epoch of the last re-pack (this one's when it re-packed). */
  repackedAt: number;
  /** What the last re-pack filled to: the low watermark, or what the guaranteed tiers took. */
  fill: number;
  /** The first `head` items are the head: the open tasks and steering. */
  head: number;
  /** Items before this index were in the previous step's request, byte-identical and in place. */
  kept: number;
  /** A re-pack's items the low watermark left out but that stayed in place, so that the items it
   * kept after them stay cached (see keepInPlace). */
  keptInPlace: string[];
  /** Units this step left out for the budget although they were its own (a thought that did not
   * fit): explained as budget, not as hysteresis. */
  skipped: string[];
}

export interface StepInput {
  ranked: Ranked;
  epoch: number;
  budget: Budget;
  excerpts: boolean;
  idOf: (nid: number) => string | undefined;
  nidOf: (id: string) => number | undefined;
  countTokens: (text: string) => number;
  /** What items cost under the request's framing. */
  costs: Costs;
}

const HEAD_KINDS: ReadonlySet<string> = new Set(['task', 'steering']);

/** The open tasks and steering the request starts with (tier 0), in recording order. */
const isHeadUnit = (u: Unit) => u.tier === 0 && u.members.every((m) => HEAD_KINDS.has(m.kind));

/**
 * The next step of a session: the previous request's items, byte-identical and in order, then
 * notices for what among them stopped being current, then this step's own units — those of the
 * guaranteed tiers (tasks, requirements and claims, the current action, evidence open work cites)
 * not yet shown, and the ranked units the current action's own signals place — or a re-pack when
 * the guaranteed ones do not fit or the head changed. Pure and deterministic.
 */
export function sessionStep(prev: SessionState | null, input: StepInput): SessionState {
  if (prev === null) return repack(null, input, 'first step');
  return sessionAppend(prev, input) ?? repack(prev, input, headOf(prev, input) ? 'overflow' : 'head changed');
}

/** True when the previous request's head is this step's head (the same ids, in the same order). */
function headOf(prev: SessionState, { ranked }: StepInput): boolean {
  const want = readingOrder(ranked.units.filter(isHeadUnit), []).map((p) => p.member.id);
  return want.length === prev.head && want.every((id, k) => prev.items[k]!.id === id);
}

/** The next step of a session as an append to the previous request, or null when it cannot be one
 * (the head changed, or what the step must add does not fit): then it takes a re-pack. */
export function sessionAppend(prev: SessionState, input: StepInput): SessionState | null {
  const { ranked, budget, nidOf, countTokens, costs } = input;
  if (!headOf(prev, input)) return null;
  const { graph, tiers, units, coveredBy } = ranked;
  const { refCost, frame } = costs;
  const closed = new Map(graph.closed.map((c) => [c.id, c]));
  const shownIds = new Set(prev.items.map((i) => i.id));
  const shown = new Set<number>();
  /** Shown whole (not as an excerpt): what may carry another node's lines. */
  const whole = new Set<number>();
  const carriers = new Map<string, string>();
  /** Bodies the prefix shows whole for items no longer current (by text: those are not candidates,
   * so their content hashes are not at hand): still on the page, they carry the same text again. */
  const closedBodies = new Map<string, string>();
  let tokens = prev.tokens;
  let records = prev.records;
  let chars = prev.chars;
  const items: WorkingSetItem[] = [];
  for (const i of prev.items) {
    const nid = i.notice === undefined ? nidOf(i.id) : undefined;
    const c = nid === undefined ? undefined : graph.candidates.get(nid);
    if (nid !== undefined) shown.add(nid);
    if (nid !== undefined && i.excerpt === undefined) whole.add(nid);
    if (c?.bodyHash && i.body !== undefined && i.excerpt === undefined && !carriers.has(c.bodyHash))
      carriers.set(c.bodyHash, i.id);
    else if (c === undefined && nid !== undefined && i.body !== undefined && i.excerpt === undefined)
      closedBodies.set(i.body, closedBodies.get(i.body) ?? i.id);
    const tier = c === undefined ? undefined : tiers.get(c.nid)?.tier;
    items.push(tier === undefined || tier === i.tier ? i : { ...i, tier });
  }
  // What was shown and stopped being current stays byte-identical in the prefix, followed by a
  // notice saying so: replacing it in place would break the cache from that point on.
  const notices: WorkingSetItem[] = [];
  for (const i of prev.items) {
    if (i.notice !== undefined) continue;
    const gone = closed.get(i.id);
    const c = graph.candidates.get(nidOf(i.id) ?? -1);
    let notice: WorkingSetItem | null = null;
    if (gone !== undefined) {
      const reason = gone.reason === 'archived' ? 'archived' : 'superseded';
      const where = i.path ? ` (${i.path}${i.range ? `:${i.range[0]}-${i.range[1]}` : ''})` : '';
      const by = gone.by ? ` by ${gone.by}` : '';
      notice = noticeItem(
        i,
        reason,
        `[${i.id}] ${reason}${by} at epoch ${gone.closedAt}: what it shows above${where} is no longer current.`,
      );
    } else if (c !== undefined && !LOG_KINDS.has(i.kind) && (c.status ?? undefined) !== i.status) {
      notice = noticeItem(
        i,
        'status',
        `[${i.id}] is now ${c.status ?? 'without status'} (shown above as ${i.status}).`,
        c.status,
      );
    }
    if (notice === null || shownIds.has(notice.id)) continue;
    notice.tokens = countTokens(notice.body!) + costs.noticeFrame;
    tokens += notice.tokens;
    records += 1;
    chars += notice.body!.length;
    shownIds.add(notice.id);
    notices.push(notice);
  }
  if (tokens > budget.tokens || records > budget.records || chars > budget.chars) return null;

  // This step's own units: the guaranteed tiers' members not shown yet, highest tier first, the
  // current action's thought after the rest (as in a fresh packing).
  const own = units
    .filter((u) => u.tier < RANKED_FROM_TIER && !isHeadUnit(u))
    .map((u) => ({ ...u, members: u.members.filter((m) => !shown.has(m.nid)) }))
    .filter((u) => u.members.length > 0)
    .sort((a, b) => Number(a.reasoning ?? false) - Number(b.reasoning ?? false) || a.tier - b.tier || b.tx - a.tx);
  const placed: Unit[] = [];
  const cuts = new Map<number, Excerpt>();
  const skipped: string[] = [];
  const paid = new Set(carriers.keys());
  /** Appends `unit`'s members not shown yet when they fit (cut to an excerpt if need be). */
  const append = (unit: Unit): boolean => {
    const members = unit.members.filter((m) => !shown.has(m.nid));
    if (members.length === 0) return true;
    let t = 0;
    let c = 0;
    const fresh: Candidate[] = [];
    for (const m of members) {
      t += frame(m);
      if (m.bodyHash === null) continue;
      // The same text shown whole above for an item that stopped being current (a file viewed
      // again, unchanged, after an edit elsewhere): a reference, so each body appears once.
      const shownAs = m.body === null || paid.has(m.bodyHash) ? undefined : closedBodies.get(m.body);
      if (shownAs !== undefined) {
        carriers.set(m.bodyHash, shownAs);
        paid.add(m.bodyHash);
      }
      const covered = coveredBy.get(m.nid)?.every((e) => whole.has(e) || members.some((u) => u.nid === e));
      if (paid.has(m.bodyHash) || fresh.some((f) => f.bodyHash === m.bodyHash) || covered) {
        t += Math.min(m.tokens, refCost);
        continue;
      }
      fresh.push(m);
      t += m.tokens;
      c += m.body?.length ?? 0;
    }
    const n = members.length;
    const fits = (tt: number, cc: number) =>
      tokens + tt <= budget.tokens && records + n <= budget.records && chars + cc <= budget.chars;
    let cut: Map<number, Excerpt> | null = null;
    if (!fits(t, c) && input.excerpts && !unit.reasoning) {
      // Outputs whose carriers are not shown are cut like any other: nothing else shows their lines.
      cut = excerptUnit(fresh, t, budget.tokens - tokens, ranked.excerpts);
      if (cut !== null && !fits(cutCost(fresh, t, cut), cutChars(fresh, c, cut))) cut = null;
    }
    if (!fits(t, c) && cut === null) return false;
    tokens += cut === null ? t : cutCost(fresh, t, cut);
    chars += cut === null ? c : cutChars(fresh, c, cut);
    records += n;
    for (const m of fresh) if (!cut?.has(m.nid)) paid.add(m.bodyHash!);
    for (const [nid, ex] of cut ?? []) cuts.set(nid, ex);
    for (const m of members) {
      shown.add(m.nid);
      if (!cut?.has(m.nid)) whole.add(m.nid);
    }
    placed.push({ ...unit, members });
    return true;
  };
  for (const unit of own) {
    if (append(unit)) continue;
    if (!unit.reasoning) return null;
    skipped.push(unit.key);
  }
  // Then what the current action points at: the ranked units its own signals (its words, the
  // paths it names) place in what a re-pack would keep now, when they fit. What the task's signals
  // rank barely moves between steps and was weighed at the last re-pack; what the agent turned to
  // since was not, and waiting for the next overflow to bring it in leaves it out of the steps
  // that need it.
  const pointedAt = (u: Unit) => {
    const signal = ranked.placement.get(u.key)?.signal;
    return u.tier >= RANKED_FROM_TIER && signal !== undefined && ACTION_SIGNALS.has(signal);
  };
  // Only when some unit the action's own signals place is not shown yet: else it appends nothing.
  const now = !units.some((u) => pointedAt(u) && u.members.some((m) => !shown.has(m.nid)))
    ? { included: [] }
    : packUnits(
        units,
        { ...budget, tokens: Math.floor(budget.tokens * LOW_WATERMARK) },
        refCost,
        coveredBy,
        ranked.placement,
        input.excerpts ? ranked.excerpts : undefined,
        frame,
      );
  for (const unit of now.included) if (pointedAt(unit)) append(unit);
  const added = buildItems(placed, cuts, ranked, input.idOf, { carriers, whole }, costs);
  // What the items cost, exactly: the charge above is never below it (a reference found only
  // while building costs less than the body charged).
  const sum = [...items, ...notices, ...added].reduce((n, i) => n + i.tokens, 0);
  if (sum > budget.tokens) return null;
  return {
    epoch: input.epoch,
    items: [...items, ...notices, ...added],
    tokens: sum,
    records,
    chars,
    repacked: false,
    repackedAt: prev.repackedAt,
    fill: prev.fill,
    head: prev.head,
    kept: items.length,
    keptInPlace: [],
    skipped,
  };
}

/** The relevance signals that follow the current action rather than the task (see relevance.ts). */
const ACTION_SIGNALS: ReadonlySet<Signal> = new Set(['action bm25', 'exact path']);

function noticeItem(
  of: WorkingSetItem,
  reason: 'superseded' | 'archived' | 'status',
  text: string,
  status?: string | null,
): WorkingSetItem {
  return {
    id: `${of.id}#${reason === 'status' ? `status:${status ?? 'none'}` : reason}`,
    kind: 'message',
    tier: of.tier,
    tokens: 0,
    tx: of.tx,
    // Within the scopes of the item it is about: it tells nothing the request may not read.
    authority: of.authority,
    unit: of.unit,
    body: text,
    notice: { of: of.id, reason },
  };
}

/**
 * A re-pack: the fresh ranking packed into the low watermark, then laid out so that as much of
 * the previous request as survives stays a prefix — the head, then the surviving items (same
 * bytes) in the order they were sent, then the rest in reading order — and with the units left out
 * that keep more of that prefix cached than they weigh (keepInPlace).
 */
function repack(prev: SessionState | null, input: StepInput, cause: NonNullable<SessionState['cause']>): SessionState {
  const { ranked, budget, costs } = input;
  const pack = (units: readonly Unit[], tokens: number) => {
    const { included, excerpts } = packUnits(
      units,
      { ...budget, tokens },
      costs.refCost,
      ranked.coveredBy,
      ranked.placement,
      input.excerpts ? ranked.excerpts : undefined,
      costs.frame,
    );
    return { included, built: buildItems(included, excerpts, ranked, input.idOf, undefined, costs) };
  };
  // The guaranteed tiers get the whole budget, as in a fresh packing; the ranked evidence and the
  // history fill only up to the low watermark.
  const first = pack(
    ranked.units.filter((u) => u.tier < RANKED_FROM_TIER && !u.reasoning),
    budget.tokens,
  );
  const guaranteed = first.built.reduce((n, i) => n + i.tokens, 0);
  let fill = Math.max(guaranteed, Math.floor(budget.tokens * LOW_WATERMARK));
  let { included, built } = pack(ranked.units, fill);
  // A member charged whole until the evidence carrying it is packed costs a reference in the end:
  // packed into what they finally cost, the guaranteed units may not all fit on the way.
  const packed = new Set(included.map((u) => u.key));
  if (first.included.some((u) => !packed.has(u.key))) {
    fill = budget.tokens;
    ({ included, built } = pack(ranked.units, fill));
  }
  const headIds = new Set(included.filter(isHeadUnit).flatMap((u) => u.members.map((m) => m.id)));
  const head = built.filter((i) => headIds.has(i.id));
  const before = new Map((prev?.items ?? []).map((i, k) => [renderKey(i), k]));
  const rest = built
    .filter((i) => !headIds.has(i.id))
    .map((item, k) => ({ item, k, was: before.get(renderKey(item)) }));
  // A unit stays in place only whole: when one of its items changed (a result shown as a reference
  // before and as its body or an excerpt now), the unit goes with the new items, in reading order.
  // Left in place, a call would stand apart from its result, and a rendering pairs a call only with
  // the results right after it.
  const moved = new Set(rest.filter((r) => r.was === undefined).map((r) => r.item.unit));
  for (const r of rest) if (moved.has(r.item.unit)) r.was = undefined;
  rest.sort((a, b) =>
    a.was !== undefined && b.was !== undefined
      ? a.was - b.was
      : a.was !== undefined || b.was !== undefined
        ? a.was === undefined
          ? 1
          : -1
        : a.k - b.k,
  );
  const was = prev?.items ?? [];
  const laid = keepInPlace([...head, ...rest.map((r) => r.item)], was, ranked, budget, input.nidOf);
  const items = laid.items;
  let kept = 0;
  while (kept < items.length && kept < was.length && renderKey(items[kept]!) === renderKey(was[kept]!)) kept++;
  return {
    epoch: input.epoch,
    items,
    tokens: items.reduce((n, i) => n + i.tokens, 0),
    records: items.length,
    chars: items.reduce((n, i) => n + (i.body?.length ?? 0), 0),
    repacked: true,
    cause,
    repackedAt: input.epoch,
    fill,
    head: head.length,
    kept,
    keptInPlace: laid.kept,
    skipped: [],
  };
}
