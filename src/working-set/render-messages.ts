import type { NodeKind } from '../schema/kinds.js';
import { excerptText, refText } from './ref-text.js';
import { toolIdMapper } from './tool-ids.js';
import type { WorkingSetItem } from './types.js';

/** Which provider's message shape `toMessages` renders. */
export type MessageShape = 'openai' | 'anthropic';

/** A Chat Completions message, as `toMessages('openai')` renders it. */
export interface OpenAIMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

/** A cache breakpoint: the prefix up to and including this block may be cached. */
export interface CacheControl {
  type: 'ephemeral';
}

/** One content block of a Messages API turn: text, a tool use, or a tool result. */
export type AnthropicBlock =
  | { type: 'text'; text: string; cache_control?: CacheControl }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown>; cache_control?: CacheControl }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean; cache_control?: CacheControl };

/** A Messages API turn, as `toMessages('anthropic')` renders it. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

/** A shape-neutral turn list both renderers are derived from. A context turn holds one text per
 * item, so a later step that appends items appends blocks and leaves the earlier ones byte-identical. */
type Turn =
  | { kind: 'context'; texts: string[]; head: boolean }
  | { kind: 'assistant'; text: string | null; calls: Array<{ id: string; name: string; input: string }> }
  | { kind: 'results'; results: Array<{ id: string; content: string; error: boolean }>; text: string | null };

/** The action log renders as turns; every other kind (a new one too) renders as context. */
const ACTION_LOG_KINDS: ReadonlySet<string> = new Set<NodeKind>(['action', 'tool_call', 'tool_result']);
/** What the stable head message holds: the tasks and steering the items start with. */
const HEAD_KINDS: ReadonlySet<string> = new Set<NodeKind>(['task', 'steering']);

/**
 * Turns the items (in reading order, every call with its results) into turns, in item order: the
 * tasks and steering the items start with as a head turn of their own, then each run of other
 * context items (claims, evidence, revisions, notices) as a context turn — one text per item —
 * and the action log, each action's tool calls answered by their results right after them. An
 * item renders from its own fields only (never from its position or the step), so a step that
 * appends items leaves every earlier turn byte-identical (prompt caching). A body shown once
 * elsewhere is rendered as a reference; an excerpt as its kept lines with a marker line for each
 * elided run (which lines, and the id whose stored body holds them).
 */
function toTurns(items: readonly WorkingSetItem[]): Turn[] {
  const turns: Turn[] = [];
  const byId = new Map(items.map((i) => [i.id, i]));
  const bodyOf = (i: WorkingSetItem) =>
    i.ref !== undefined
      ? refText(i.ref)
      : i.excerpt !== undefined
        ? excerptText(i.id, i.body ?? '', i.excerpt.lines, i.excerpt.of)
        : (i.body ?? '');
  const resultsOf = new Map<string, WorkingSetItem[]>();
  let lastCall: string | null = null;
  for (const i of items) {
    if (i.kind === 'tool_call') lastCall = i.id;
    else if (i.kind === 'tool_result' && lastCall !== null && byId.get(lastCall)?.unit === i.unit) {
      resultsOf.set(lastCall, [...(resultsOf.get(lastCall) ?? []), i]);
    }
  }
  const answered = new Set([...resultsOf.values()].flat().map((r) => r.id));

  let pendingAssistant: Extract<Turn, { kind: 'assistant' }> | null = null;
  let pendingUnit: string | null = null;
  let context: Extract<Turn, { kind: 'context' }> | null = null;
  let inHead = true;
  const flushAssistant = () => {
    if (!pendingAssistant) return;
    turns.push(pendingAssistant);
    if (pendingAssistant.calls.length > 0) {
      turns.push({
        kind: 'results',
        results: pendingAssistant.calls.flatMap((c) =>
          (resultsOf.get(c.id) ?? []).map((r) => ({ id: c.id, content: bodyOf(r), error: r.status === 'error' })),
        ),
        text: null,
      });
    }
    pendingAssistant = null;
    pendingUnit = null;
  };
  for (const i of items) {
    if (i.notice === undefined && !(inHead && HEAD_KINDS.has(i.kind))) inHead = false;
    if (i.notice !== undefined || !ACTION_LOG_KINDS.has(i.kind) || (i.kind === 'tool_result' && !answered.has(i.id))) {
      flushAssistant();
      const text = i.notice !== undefined ? (i.body ?? '') : contextBlock(i, bodyOf(i));
      if (context === null || context.head !== inHead) {
        context = { kind: 'context', texts: [], head: inHead };
        turns.push(context);
      }
      context.texts.push(text);
      continue;
    }
    context = null;
    if (i.kind === 'action') {
      flushAssistant();
      pendingAssistant = {
        kind: 'assistant',
        text: i.body !== undefined || i.ref !== undefined ? bodyOf(i) : null,
        calls: [],
      };
      pendingUnit = i.unit;
    } else if (i.kind === 'tool_call') {
      if (!resultsOf.has(i.id)) continue;
      // Calls join their action's assistant message; a call kept without its action (a cut,
      // finished transaction) gets an assistant message of its own.
      if (pendingUnit !== i.unit) flushAssistant();
      pendingAssistant ??= { kind: 'assistant', text: null, calls: [] };
      pendingUnit = i.unit;
      pendingAssistant.calls.push({ id: i.id, name: i.tool ?? 'tool', input: bodyOf(i) });
    }
  }
  flushAssistant();
  return turns;
}

/** The fields a context item's header line is rendered from. */
export type ContextFields = Pick<
  WorkingSetItem,
  'id' | 'kind' | 'path' | 'range' | 'revision' | 'status' | 'verifier' | 'role'
>;

/** A context item as it renders: its header line (id, kind, where, status…), then its body. */
export function contextBlock(i: ContextFields, body: string): string {
  const where = i.path
    ? ` ${i.path}${i.range ? `:${i.range[0]}-${i.range[1]}` : ''}${i.revision ? ` @${i.revision}` : ''}`
    : '';
  const extra = [i.status, i.verifier ? `verifier: ${i.verifier}` : '', i.role ? `role: ${i.role}` : '']
    .filter(Boolean)
    .join(', ');
  return `[${i.id}] ${i.kind}${where}${extra ? ` (${extra})` : ''}\n${body}`;
}

/** A tool call's arguments as the OpenAI shape renders them (the Anthropic shape's `input`). */
export const callArguments = (input: string): string => JSON.stringify({ command: input });

/** Between the items of a context turn in the OpenAI shape (one message content). */
export const CONTEXT_JOIN = '\n\n';

/** What an assistant turn says when it has neither a thought nor a tool call. */
export const EMPTY_ACTION = '(action)';

export function renderOpenAI(items: readonly WorkingSetItem[]): OpenAIMessage[] {
  const toolId = toolIdMapper();
  const out: OpenAIMessage[] = [];
  for (const t of toTurns(items)) {
    if (t.kind === 'context') out.push({ role: 'user', content: t.texts.join(CONTEXT_JOIN) });
    else if (t.kind === 'assistant') {
      // OpenAI rejects an assistant message with neither content nor tool calls; an action whose
      // calls were all left out (or are still unanswered) says so, as the Anthropic shape does.
      const content = t.text || (t.calls.length > 0 ? t.text : EMPTY_ACTION);
      const msg: OpenAIMessage = { role: 'assistant', content };
      if (t.calls.length > 0) {
        msg.tool_calls = t.calls.map((c) => ({
          id: toolId(c.id),
          type: 'function' as const,
          function: { name: c.name, arguments: callArguments(c.input) },
        }));
      }
      out.push(msg);
    } else {
      for (const r of t.results) out.push({ role: 'tool', tool_call_id: toolId(r.id), content: r.content });
    }
  }
  return out;
}

/** Options of the Anthropic rendering. */
export interface AnthropicRenderOptions {
  /** Cache breakpoints (`cache_control: { type: 'ephemeral' }`) on the last block of the head (the
   * tasks and steering) and on the last block of the request. Default true. */
  cacheControl?: boolean;
}

export function renderAnthropic(
  items: readonly WorkingSetItem[],
  options: AnthropicRenderOptions = {},
): AnthropicMessage[] {
  const toolId = toolIdMapper();
  const out: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage['role'], blocks: AnthropicBlock[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    // Anthropic requires alternating roles: consecutive turns of one role merge, keeping
    // tool_result blocks first in a user message. Turns are appended in item order, so a merge
    // only appends blocks (results never follow a context turn).
    if (last && last.role === role) {
      const results = [...last.content, ...blocks].filter((b) => b.type === 'tool_result');
      const rest = [...last.content, ...blocks].filter((b) => b.type !== 'tool_result');
      last.content = role === 'user' ? [...results, ...rest] : [...last.content, ...blocks];
    } else out.push({ role, content: blocks });
  };
  const turns = toTurns(items);
  if (turns[0]?.kind !== 'context') push('user', [{ type: 'text', text: '(no context items)' }]);
  let headEnd: AnthropicBlock | undefined;
  for (const t of turns) {
    if (t.kind === 'context') {
      const blocks = t.texts.map((text) => ({ type: 'text' as const, text }));
      push('user', blocks);
      if (t.head) headEnd = blocks[blocks.length - 1];
    } else if (t.kind === 'assistant') {
      const blocks: AnthropicBlock[] = t.text ? [{ type: 'text', text: t.text }] : [];
      for (const c of t.calls)
        blocks.push({ type: 'tool_use', id: toolId(c.id), name: c.name, input: { command: c.input } });
      if (blocks.length === 0) blocks.push({ type: 'text', text: EMPTY_ACTION });
      push('assistant', blocks);
    } else {
      push(
        'user',
        t.results.map((r) => ({
          type: 'tool_result' as const,
          tool_use_id: toolId(r.id),
          content: r.content,
          ...(r.error ? { is_error: true } : {}),
        })),
      );
    }
  }
  if (options.cacheControl !== false) {
    // The head (tasks and steering) stays put across re-packs; the whole request is the prefix of
    // the next one between re-packs. Anthropic reads the longest cached prefix ending at a
    // breakpoint, looking back up to 20 blocks from each, so a breakpoint on the last block
    // finds the previous request's end when a step appended fewer blocks than that.
    const lastMessage = out[out.length - 1];
    const last = lastMessage?.content[lastMessage.content.length - 1];
    for (const b of new Set([headEnd, last])) if (b !== undefined) b.cache_control = { type: 'ephemeral' };
  }
  return out;
}
