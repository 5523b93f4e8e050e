/**
 * Anthropic Messages transcripts: `[{role: 'user'|'assistant', content: string | blocks}]` with
 * `text`, `tool_use {id, name, input}` and `tool_result {tool_use_id, content, is_error}` blocks.
 * A user message may carry tool results and new user text; the results are flattened first so
 * the user text follows the step it answers.
 */

import { isRecord, stableJson, textOf } from '../content.js';
import type { AdaptedTrace, AdapterOptions } from '../types.js';
import { buildChatTrace, type ChatCall, type ChatTurn } from './chat-steps.js';

/** One Anthropic message as the turns the step assembly reads (results first, then user text). */
export function anthropicTurns(m: unknown): ChatTurn[] {
  if (!isRecord(m))
    return [{ kind: 'malformed', reason: 'message is not an object', raw: String(JSON.stringify(m) ?? m) }];
  if (m.role === 'system') return [{ kind: 'skip' }];
  const blocks =
    typeof m.content === 'string'
      ? [{ type: 'text', text: m.content }]
      : Array.isArray(m.content)
        ? m.content
        : undefined;
  if (!blocks)
    return [{ kind: 'malformed', reason: 'message content is neither text nor blocks', raw: JSON.stringify(m) }];
  if (m.role === 'assistant') {
    const texts: string[] = [];
    const calls: ChatCall[] = [];
    for (const b of blocks) {
      if (!isRecord(b)) continue;
      if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
      else if (b.type === 'tool_use' || b.type === 'server_tool_use') {
        calls.push({
          id: typeof b.id === 'string' ? b.id : undefined,
          name: typeof b.name === 'string' ? b.name : 'unknown',
          input: b.input,
          raw: stableJson(b.input ?? {}),
        });
      }
    }
    return [{ kind: 'assistant', text: texts.join('\n'), calls }];
  }
  if (m.role === 'user') {
    const out: ChatTurn[] = [];
    const texts: string[] = [];
    for (const b of blocks) {
      if (!isRecord(b)) continue;
      if (b.type === 'tool_result') {
        out.push({
          kind: 'result',
          callId: typeof b.tool_use_id === 'string' ? b.tool_use_id : undefined,
          text: textOf(b.content),
          isError: b.is_error === true,
        });
      } else if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
    }
    if (texts.length) out.push({ kind: 'user', text: texts.join('\n') });
    return out.length ? out : [{ kind: 'skip' }];
  }
  return [{ kind: 'malformed', reason: `unknown role ${JSON.stringify(m.role)}`, raw: JSON.stringify(m) }];
}

export function fromAnthropic(messages: unknown, options: AdapterOptions = {}): AdaptedTrace {
  const list = isRecord(messages) && Array.isArray(messages.messages) ? messages.messages : messages;
  if (!Array.isArray(list)) throw new TypeError('fromAnthropic: expected an array of messages');
  return buildChatTrace(list.flatMap(anthropicTurns), options);
}
