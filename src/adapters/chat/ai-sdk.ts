/**
 * AI SDK transcripts: `ModelMessage`s (`generateText`'s `response.messages`, a prompt) and the
 * provider-level prompt a language-model middleware sees — `{role: 'system'|'user'|'assistant'|
 * 'tool', content}` where content is a string or parts: `text`, `reasoning`, `file`, `tool-call
 * {toolCallId, toolName, input}`, `tool-result {toolCallId, toolName, output}`. A tool-call input
 * may be an object (a prompt) or its JSON text (a model's output): both give the same canonical
 * call body, so a call recorded from the output and the same call resent in the next prompt agree.
 */

import { isRecord, stableJson, textOf } from '../content.js';
import type { AdaptedTrace, AdapterOptions } from '../types.js';
import { buildChatTrace, type ChatCall, type ChatTurn } from './chat-steps.js';

function callInput(raw: unknown): { input: unknown; raw: string } {
  let input = raw;
  if (typeof raw === 'string') {
    try {
      input = JSON.parse(raw) as unknown;
    } catch {
      return { input: raw, raw };
    }
  }
  return { input, raw: stableJson(input ?? {}) };
}

/** Text of a tool-result `output` ({type: 'text'|'json'|'error-text'|'error-json'|'content'|…, value}). */
function outputText(output: unknown): { text: string; isError: boolean } {
  if (!isRecord(output))
    return { text: typeof output === 'string' ? output : stableJson(output ?? null), isError: false };
  const isError = typeof output.type === 'string' && output.type.startsWith('error');
  const v = output.value;
  if (output.type === 'content' && Array.isArray(v)) return { text: textOf(v), isError };
  if (output.type === 'execution-denied')
    return {
      text: `[execution denied${typeof output.reason === 'string' ? `: ${output.reason}` : ''}]`,
      isError: true,
    };
  return { text: typeof v === 'string' ? v : stableJson(v ?? null), isError };
}

function resultTurn(p: Record<string, unknown>): ChatTurn {
  const { text, isError } = outputText(p.output ?? p.result);
  return {
    kind: 'result',
    callId: typeof p.toolCallId === 'string' ? p.toolCallId : undefined,
    text,
    isError: isError || p.isError === true,
  };
}

/** One AI SDK message as the turns the step assembly reads. */
export function aiSdkTurns(m: unknown): ChatTurn[] {
  if (!isRecord(m))
    return [{ kind: 'malformed', reason: 'message is not an object', raw: String(JSON.stringify(m) ?? m) }];
  if (m.role === 'system') return [{ kind: 'skip' }];
  const parts =
    typeof m.content === 'string'
      ? [{ type: 'text', text: m.content }]
      : Array.isArray(m.content)
        ? (m.content as unknown[])
        : undefined;
  if (!parts)
    return [{ kind: 'malformed', reason: 'message content is neither text nor parts', raw: JSON.stringify(m) }];
  if (m.role === 'user') {
    const text = textOf(parts.filter((p) => isRecord(p) && p.type === 'text'));
    return [{ kind: 'user', text }];
  }
  if (m.role === 'assistant') {
    const texts: string[] = [];
    const calls: ChatCall[] = [];
    const results: ChatTurn[] = [];
    for (const p of parts) {
      if (!isRecord(p)) continue;
      if (p.type === 'text' && typeof p.text === 'string') texts.push(p.text);
      else if (p.type === 'tool-call') {
        calls.push({
          id: typeof p.toolCallId === 'string' ? p.toolCallId : undefined,
          name: typeof p.toolName === 'string' ? p.toolName : 'unknown',
          ...callInput(p.input),
        });
      } else if (p.type === 'tool-result') results.push(resultTurn(p)); // provider-executed tools
    }
    return [{ kind: 'assistant', text: texts.join('\n'), calls }, ...results];
  }
  if (m.role === 'tool') {
    const out = parts
      .filter((p) => isRecord(p) && p.type === 'tool-result')
      .map((p) => resultTurn(p as Record<string, unknown>));
    return out.length ? out : [{ kind: 'skip' }];
  }
  return [{ kind: 'malformed', reason: `unknown role ${JSON.stringify(m.role)}`, raw: JSON.stringify(m) }];
}

export function fromAISDK(messages: unknown, options: AdapterOptions = {}): AdaptedTrace {
  const list = isRecord(messages) && Array.isArray(messages.messages) ? messages.messages : messages;
  if (!Array.isArray(list)) throw new TypeError('fromAISDK: expected an array of messages');
  return buildChatTrace(list.flatMap(aiSdkTurns), options);
}
