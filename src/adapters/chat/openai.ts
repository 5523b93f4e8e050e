/**
 * OpenAI chat transcripts: `[{role: 'system'|'developer'|'user'|'assistant'|'tool', content,
 * tool_calls?: [{id, type: 'function', function: {name, arguments}}], tool_call_id?}]`, plus the
 * legacy `function_call` / `role: 'function'` pair (matched by name and order).
 */

import { isRecord, textOf } from '../content.js';
import type { AdaptedTrace, AdapterOptions } from '../types.js';
import { buildChatTrace, type ChatCall, type ChatTurn } from './chat-steps.js';

function parseArgs(raw: unknown): { input: unknown; raw: string } {
  if (typeof raw !== 'string') return { input: raw, raw: raw === undefined ? '' : JSON.stringify(raw) };
  try {
    return { input: JSON.parse(raw) as unknown, raw };
  } catch {
    return { input: raw, raw };
  }
}

function toTurn(m: unknown): ChatTurn {
  if (!isRecord(m))
    return { kind: 'malformed', reason: 'message is not an object', raw: String(JSON.stringify(m) ?? m) };
  switch (m.role) {
    case 'system':
    case 'developer':
      return { kind: 'skip' };
    case 'user':
      return { kind: 'user', text: textOf(m.content) };
    case 'assistant': {
      const calls: ChatCall[] = [];
      if (Array.isArray(m.tool_calls)) {
        for (const c of m.tool_calls) {
          if (!isRecord(c)) continue;
          const fn = isRecord(c.function) ? c.function : {};
          const args = parseArgs(fn.arguments);
          calls.push({
            id: typeof c.id === 'string' ? c.id : undefined,
            name: typeof fn.name === 'string' ? fn.name : 'unknown',
            input: args.input,
            raw: args.raw,
          });
        }
      } else if (isRecord(m.function_call)) {
        const args = parseArgs(m.function_call.arguments);
        calls.push({
          name: typeof m.function_call.name === 'string' ? m.function_call.name : 'unknown',
          input: args.input,
          raw: args.raw,
        });
      }
      return { kind: 'assistant', text: textOf(m.content), calls };
    }
    case 'tool':
      return {
        kind: 'result',
        callId: typeof m.tool_call_id === 'string' ? m.tool_call_id : undefined,
        text: textOf(m.content),
        isError: false,
      };
    case 'function':
      return {
        kind: 'result',
        name: typeof m.name === 'string' ? m.name : undefined,
        text: textOf(m.content),
        isError: false,
      };
    default:
      return { kind: 'malformed', reason: `unknown role ${JSON.stringify(m.role)}`, raw: JSON.stringify(m) };
  }
}

/** An OpenAI Chat Completions transcript (messages with `tool_calls` and `tool` results) as transactions, one per step. */
export function fromOpenAI(messages: unknown, options: AdapterOptions = {}): AdaptedTrace {
  const list = isRecord(messages) && Array.isArray(messages.messages) ? messages.messages : messages;
  if (!Array.isArray(list)) throw new TypeError('fromOpenAI: expected an array of messages');
  return buildChatTrace(list.map(toTurn), options);
}
