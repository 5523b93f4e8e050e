import { excerptText, refText } from '../../src/working-set/ref-text.js';
import type { AnthropicMessage } from '../../src/working-set/render-messages.js';
import type { WorkingSetItem } from '../../src/working-set/types.js';

/**
 * The request the model receives (`ws.toMessages('anthropic')`), with every piece of text traced
 * back to the working-set item it came from, so the conversation view can label each part with
 * its item, tier and tokens. Pure (unit-tested): it reads the rendered messages and never
 * renders them itself.
 */

export interface ConversationPart {
  /** The item the text renders; absent for text the renderer adds (`(action)`). */
  item?: WorkingSetItem;
  text: string;
}

export interface ConversationBlock {
  type: 'text' | 'tool_use' | 'tool_result';
  /** The tool's name (tool_use). */
  name?: string;
  error?: boolean;
  parts: ConversationPart[];
  /** Role and content: equal keys are equal cached bytes (see request-cost.ts). */
  key: string;
  /** Tokens of the items the block renders (the budget's count). */
  tokens: number;
}

export interface ConversationMessage {
  role: 'user' | 'assistant';
  blocks: ConversationBlock[];
}

/** What an item renders as, exactly as the library's renderer writes it. */
export function renderedBody(i: WorkingSetItem): string {
  if (i.ref !== undefined) return refText(i.ref);
  if (i.excerpt !== undefined) return excerptText(i.id, i.body ?? '', i.excerpt.lines, i.excerpt.of);
  return i.body ?? '';
}

/** The header the renderer writes before a context item: `[id] kind…`. */
const headerOf = (i: WorkingSetItem) => `[${i.id}] ${i.kind}`;

/**
 * Splits a context text block into its items: each starts at its header, at the start of the
 * text or after a blank line, in reading order.
 */
function contextParts(text: string, items: readonly WorkingSetItem[]): ConversationPart[] {
  const starts: Array<{ at: number; item: WorkingSetItem }> = [];
  let from = 0;
  for (const item of items) {
    const header = headerOf(item);
    let at = text.indexOf(header, from);
    while (at > 0 && text.slice(at - 2, at) !== '\n\n') at = text.indexOf(header, at + 1);
    if (at < 0) continue;
    starts.push({ at, item });
    from = at + header.length;
  }
  if (starts.length === 0) return [{ text }];
  const parts: ConversationPart[] = [];
  if (starts[0]!.at > 0) parts.push({ text: text.slice(0, starts[0]!.at) });
  starts.forEach((s, k) => {
    const end = k + 1 < starts.length ? starts[k + 1]!.at : text.length;
    parts.push({ item: s.item, text: text.slice(s.at, end).replace(/\n\n$/, '') });
  });
  return parts;
}

/**
 * Traces each block of the rendered request to its items. Blocks are matched in reading order:
 * an assistant's text to the next action rendering that text, a tool_use to the next call with
 * that name and input, a tool_result to the next result of that call's unit with that content.
 */
export function conversation(
  items: readonly WorkingSetItem[],
  messages: readonly AnthropicMessage[],
): ConversationMessage[] {
  const of = (kind: string) => items.filter((i) => i.kind === kind);
  const actions = of('action');
  const calls = of('tool_call');
  const results = of('tool_result');
  let nextAction = 0;
  let nextCall = 0;
  const callOf = new Map<string, WorkingSetItem>();
  const usedResults = new Set<string>();
  const tokensOf = (parts: ConversationPart[]) => parts.reduce((s, p) => s + (p.item?.tokens ?? 0), 0);

  return messages.map((m) => ({
    role: m.role,
    blocks: m.content.map((b): ConversationBlock => {
      const { cache_control: _marker, ...content } = b as typeof b & { cache_control?: unknown };
      const key = `${m.role}\u0000${JSON.stringify(content)}`;
      let parts: ConversationPart[];
      if (b.type === 'text') {
        if (m.role === 'user') parts = contextParts(b.text, items);
        else {
          const k = actions.findIndex((a, j) => j >= nextAction && renderedBody(a) === b.text);
          if (k >= 0) nextAction = k + 1;
          parts = [k >= 0 ? { item: actions[k]!, text: b.text } : { text: b.text }];
        }
        return { type: 'text', parts, key, tokens: tokensOf(parts) };
      }
      if (b.type === 'tool_use') {
        const input = typeof b.input.command === 'string' ? b.input.command : JSON.stringify(b.input, null, 2);
        const k = calls.findIndex(
          (c, j) => j >= nextCall && (c.tool ?? 'tool') === b.name && renderedBody(c) === input,
        );
        if (k >= 0) {
          nextCall = k + 1;
          callOf.set(b.id, calls[k]!);
        }
        parts = [k >= 0 ? { item: calls[k]!, text: input } : { text: input }];
        return { type: 'tool_use', name: b.name, parts, key, tokens: tokensOf(parts) };
      }
      const call = callOf.get(b.tool_use_id);
      const result = results.find(
        (r) => !usedResults.has(r.id) && r.unit === call?.unit && renderedBody(r) === b.content,
      );
      if (result) usedResults.add(result.id);
      parts = [result ? { item: result, text: b.content } : { text: b.content }];
      return { type: 'tool_result', ...(b.is_error ? { error: true } : {}), parts, key, tokens: tokensOf(parts) };
    }),
  }));
}

/** Items the conversation renders nowhere (a check: the view must account for every item). */
export function unplaced(items: readonly WorkingSetItem[], messages: readonly ConversationMessage[]): string[] {
  const placed = new Set(messages.flatMap((m) => m.blocks.flatMap((b) => b.parts.map((p) => p.item?.id))));
  return items.filter((i) => !placed.has(i.id)).map((i) => i.id);
}

const LOG_KINDS = new Set(['action', 'tool_call', 'tool_result']);

/**
 * Where the records left out go among the messages: those of the context (task, claims,
 * evidence…) right after the context message, those of the action log by recording order,
 * before the first message recorded after them. Stubs keep their given order within a place.
 */
export function placeStubs<S extends { kind: string; tx: number }>(
  messages: readonly ConversationMessage[],
  stubs: readonly S[],
): Array<{ message: ConversationMessage } | { stubs: S[] }> {
  const context = stubs.filter((s) => !LOG_KINDS.has(s.kind));
  const log = stubs.filter((s) => LOG_KINDS.has(s.kind)).sort((a, b) => a.tx - b.tx);
  const out: Array<{ message: ConversationMessage } | { stubs: S[] }> = [];
  const first = messages[0];
  const hasContext = first?.role === 'user' && first.blocks.some((b) => b.type === 'text');
  if (!hasContext && context.length > 0) out.push({ stubs: context });
  let next = 0;
  messages.forEach((message, i) => {
    const txs = message.blocks.flatMap((b) => b.parts.flatMap((p) => (p.item ? [p.item.tx] : [])));
    const at = i === 0 && hasContext ? -Infinity : txs.length > 0 ? Math.min(...txs) : -Infinity;
    const before: S[] = [];
    while (next < log.length && log[next]!.tx < at) before.push(log[next++]!);
    if (before.length > 0) out.push({ stubs: before });
    out.push({ message });
    if (i === 0 && hasContext && context.length > 0) out.push({ stubs: context });
  });
  if (next < log.length) out.push({ stubs: log.slice(next) });
  return out;
}
