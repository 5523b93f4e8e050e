/**
 * OpenAI Agents SDK items (`AgentInputItem`, the Responses API's item shapes): `{role: 'user' |
 * 'assistant' | 'system', content}` messages, `{type: 'function_call', callId, name, arguments}`
 * and `{type: 'function_call_result', callId, output}`. Each function call is an item of its own,
 * so each becomes an assistant turn of one call; reasoning and hosted-tool items say nothing the
 * ledger records and are skipped.
 */

import { isRecord, textOf } from '../content.js';
import type { AdaptedTrace, AdapterOptions } from '../types.js';
import { buildChatTrace, type ChatTurn } from './chat-steps.js';

function parseArgs(raw: unknown): { input: unknown; raw: string } {
  if (typeof raw !== 'string') return { input: raw ?? {}, raw: JSON.stringify(raw ?? {}) };
  try {
    return { input: JSON.parse(raw) as unknown, raw };
  } catch {
    return { input: raw, raw };
  }
}

/** A function call result's `output`: a string, `{type: 'text', text}`, or content parts. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isRecord(output)) return typeof output.text === 'string' ? output.text : JSON.stringify(output);
  return textOf(output);
}

/** One Agents SDK item as the turns the step assembly reads. */
export function openAIAgentsTurns(item: unknown): ChatTurn[] {
  if (!isRecord(item))
    return [{ kind: 'malformed', reason: 'item is not an object', raw: String(JSON.stringify(item) ?? item) }];
  if (item.type === 'function_call') {
    return [
      {
        kind: 'assistant',
        text: '',
        calls: [
          {
            id: typeof item.callId === 'string' ? item.callId : undefined,
            name: typeof item.name === 'string' ? item.name : 'unknown',
            ...parseArgs(item.arguments),
          },
        ],
      },
    ];
  }
  if (item.type === 'function_call_result') {
    return [
      {
        kind: 'result',
        callId: typeof item.callId === 'string' ? item.callId : undefined,
        text: outputText(item.output),
        isError: item.status === 'incomplete',
      },
    ];
  }
  if (item.type !== undefined && item.type !== 'message') return [{ kind: 'skip' }];
  if (item.role === 'system') return [{ kind: 'skip' }];
  if (item.role === 'user') return [{ kind: 'user', text: textOf(item.content) }];
  if (item.role === 'assistant') return [{ kind: 'assistant', text: textOf(item.content), calls: [] }];
  return [{ kind: 'malformed', reason: `unknown role ${JSON.stringify(item.role)}`, raw: JSON.stringify(item) }];
}

export function fromOpenAIAgents(items: unknown, options: AdapterOptions = {}): AdaptedTrace {
  if (!Array.isArray(items)) throw new TypeError('fromOpenAIAgents: expected an array of items');
  return buildChatTrace(items.flatMap(openAIAgentsTurns), options);
}
