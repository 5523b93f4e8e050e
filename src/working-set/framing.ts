import type { Ranked } from './rank-candidates.js';
import { refText } from './ref-text.js';
import { CONTEXT_JOIN, type ContextFields, callArguments, contextBlock, EMPTY_ACTION } from './render-messages.js';
import type { Candidate, Framing } from './types.js';

/** What an item costs against the budget beyond its body, reference or excerpt. */
export interface Costs {
  /** What packing charges a body shown as a reference (before the item it refers to is known). */
  refCost: number;
  /** What a reference to `id` costs once built: never above `refCost`. */
  refTo(id: string): number;
  /** Tokens the rendering adds to a member's own text. */
  frame(m: Candidate): number;
  /** Tokens the rendering adds to a notice's text. */
  noticeFrame: number;
}

const none = (ranked: Pick<Ranked, 'refCost'>): Costs => ({
  refCost: ranked.refCost,
  refTo: () => ranked.refCost,
  frame: () => 0,
  noticeFrame: 0,
});

const messageCosts = new WeakMap<object, Costs>();

/**
 * What a ranking's members cost under `framing`. `'none'`: their bodies (a reference at the
 * fixed estimate `ranked.refCost`). `'messages'`: their texts as `toMessages('openai')` renders
 * them, counted text by text as the framework integrations count a prompt — a context item's
 * header line and the blank line joining it to the next, a tool call's name and its input as JSON
 * arguments, a tool result's tool name (its call's), an action with no thought as `(action)`, and
 * a reference at the most any candidate's id makes it cost. Each member's framing is counted on
 * its own: the count of texts joined is not quite the sum of theirs (a tokenizer merges across the
 * seams), so a caller that must stay within a limit still checks the rendering it sends.
 * Deterministic; per ranking, members are counted lazily and once.
 */
export function costsOf(
  ranked: Pick<Ranked, 'graph' | 'refCost'>,
  framing: Framing,
  countTokens: (text: string) => number,
): Costs {
  if (framing === 'none') return none(ranked);
  const known = messageCosts.get(ranked);
  if (known !== undefined) return known;
  const { graph } = ranked;
  const separator = countTokens(CONTEXT_JOIN);
  const wrapper = countTokens(callArguments(''));
  const callOf = new Map<number, Candidate>();
  for (const e of graph.edges) {
    if (e.kind !== 'produces') continue;
    const call = graph.candidates.get(e.src);
    if (call?.kind === 'tool_call' && graph.candidates.has(e.dst) && !callOf.has(e.dst)) callOf.set(e.dst, call);
  }
  let refCost = ranked.refCost;
  for (const c of graph.candidates.values()) refCost = Math.max(refCost, countTokens(refText(c.id)));
  const frames = new Map<number, number>();
  const context = (m: Candidate) => countTokens(contextBlock(contextFields(m), '')) + separator;
  const frameOf = (m: Candidate): number => {
    if (m.kind === 'tool_call') {
      const json = countTokens(callArguments(m.body ?? '')) - (m.body === null ? 0 : m.tokens);
      // Escaping makes the JSON of a body longer than the body; a call shown as a reference
      // still pays the wrapper of an empty input.
      return countTokens(m.tool ?? 'tool') + Math.max(json, wrapper);
    }
    if (m.kind === 'tool_result') {
      // A result renders as its call's answer when its call is a candidate (a unit keeps them
      // together), else as context.
      const call = callOf.get(m.nid);
      return call === undefined ? context(m) : countTokens(call.tool ?? 'tool');
    }
    if (m.kind === 'action') return m.body === null || m.body === '' ? countTokens(EMPTY_ACTION) : 0;
    return context(m);
  };
  const costs: Costs = {
    refCost,
    refTo: (id) => Math.min(refCost, countTokens(refText(id))),
    frame(m) {
      let n = frames.get(m.nid);
      if (n === undefined) {
        n = frameOf(m);
        frames.set(m.nid, n);
      }
      return n;
    },
    noticeFrame: separator,
  };
  messageCosts.set(ranked, costs);
  return costs;
}

/** A candidate's header fields as the item built from it holds them. */
function contextFields(m: Candidate): ContextFields {
  const f: ContextFields = { id: m.id, kind: m.kind };
  if (m.status !== null) f.status = m.status;
  if (m.path !== null) f.path = m.path;
  if (m.revision !== null) f.revision = m.revision;
  if (m.range !== null) f.range = m.range;
  if (m.verifier !== null) f.verifier = m.verifier;
  if (m.role !== null) f.role = m.role;
  return f;
}
