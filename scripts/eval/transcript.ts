/**
 * The conversation a transcript-based condenser sees, rebuilt from the adapter's transactions so
 * the baselines read exactly the texts the ledger was given (and any adapter's format works):
 * the task, then per step one assistant turn (thought and commands) and its observations.
 */
import type { Transaction } from '../../src/schema/types.js';
import type { Pairing } from './metrics.js';

export interface TranscriptMessage {
  /** `task`, `turn:<epoch>` or the ledger id of the tool result / message it renders. */
  id: string;
  epoch: number;
  role: 'task' | 'assistant' | 'observation' | 'user';
  text: string;
  tokens: number;
  /** Ledger ids of the tool calls and results it renders (what the pairing check looks at). */
  nodes: readonly string[];
  /** An assistant turn's parts, for rendering it as a request: the action's text and its calls. */
  turn?: { thought: string; calls: ReadonlyArray<{ id: string; tool: string; body: string }> };
  /** An observation's tool call. */
  call?: string;
}

export interface Transcript {
  /** In conversation order; the task (when there is one) first. */
  messages: readonly TranscriptMessage[];
  pairing: Pairing;
  /** Tokens of the placeholder that replaces a masked observation. */
  placeholderTokens: number;
}

/** What observation masking shows instead of an older tool output. */
export const MASK_PLACEHOLDER = '[Old tool output omitted for brevity.]';

export function transcriptOf(transactions: readonly Transaction[], countTokens: (text: string) => number): Transcript {
  const messages: TranscriptMessage[] = [];
  const resultsOf = new Map<string, string[]>();
  const callOf = new Map<string, string>();
  const add = (m: Omit<TranscriptMessage, 'tokens'>) => messages.push({ ...m, tokens: countTokens(m.text) });
  for (const tx of transactions) {
    for (const e of tx.edges ?? []) {
      if (e.kind !== 'produces') continue;
      resultsOf.set(e.from, [...(resultsOf.get(e.from) ?? []), e.to]);
      callOf.set(e.to, e.from);
    }
    const nodes = tx.nodes ?? [];
    const task = nodes.find((n) => n.kind === 'task' && n.body !== undefined);
    if (task) add({ id: 'task', epoch: tx.epoch, role: 'task', text: task.body!, nodes: [] });
    for (const n of nodes) {
      if ((n.kind === 'message' || n.kind === 'steering') && n.body !== undefined) {
        add({
          id: n.id,
          epoch: tx.epoch,
          role: n.role === 'assistant' ? 'assistant' : 'user',
          text: n.body,
          nodes: [],
        });
      }
    }
    const action = nodes.find((n) => n.kind === 'action');
    const calls = nodes.filter((n) => n.kind === 'tool_call');
    if (action || calls.length > 0) {
      const text = [action?.body, ...calls.map((c) => c.body)]
        .filter((t) => t !== undefined && t.length > 0)
        .join('\n\n');
      add({
        id: `turn:${tx.epoch}`,
        epoch: tx.epoch,
        role: 'assistant',
        text,
        nodes: calls.map((c) => c.id),
        turn: {
          thought: action?.body ?? '',
          calls: calls.map((c) => ({ id: c.id, tool: c.tool ?? 'tool', body: c.body ?? '' })),
        },
      });
    }
    for (const n of nodes) {
      if (n.kind !== 'tool_result') continue;
      const call = callOf.get(n.id);
      add({
        id: n.id,
        epoch: tx.epoch,
        role: 'observation',
        text: n.body ?? '',
        nodes: [n.id],
        ...(call === undefined ? {} : { call }),
      });
    }
  }
  return { messages, pairing: { resultsOf, callOf }, placeholderTokens: countTokens(MASK_PLACEHOLDER) };
}
