import type { LanguageModelV4Message, LanguageModelV4Prompt, LanguageModelV4ToolResultPart } from '@ai-sdk/provider';
import type { OpenAIMessage } from '../../working-set/render-messages.js';

const parseArguments = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/**
 * A working set's chat rendering as AI SDK prompt messages. It is derived from the OpenAI shape
 * (`workingSet.toMessages('openai')`), which already pairs every tool call with its results, so
 * the two stay the same conversation: each assistant tool call becomes a `tool-call` part and its
 * results one `tool` message of `tool-result` parts right after it.
 */
export function aiSdkPrompt(messages: readonly OpenAIMessage[]): LanguageModelV4Message[] {
  const names = new Map<string, string>();
  const out: LanguageModelV4Message[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      // The head turn (tasks, steering) and the context after it are one user message of two
      // parts: Anthropic requires alternating roles, and each part keeps its bytes for the cache.
      const part = { type: 'text' as const, text: m.content ?? '' };
      const last = out[out.length - 1];
      if (last?.role === 'user') last.content.push(part);
      else out.push({ role: 'user', content: [part] });
    } else if (m.role === 'assistant') {
      const content: Extract<LanguageModelV4Message, { role: 'assistant' }>['content'] = [];
      if (m.content) content.push({ type: 'text', text: m.content });
      for (const c of m.tool_calls ?? []) {
        names.set(c.id, c.function.name);
        content.push({
          type: 'tool-call',
          toolCallId: c.id,
          toolName: c.function.name,
          input: parseArguments(c.function.arguments),
        });
      }
      // An action kept without its calls and the next assistant turn are one assistant message:
      // providers that require alternating roles (Anthropic) reject two in a row.
      const last = out[out.length - 1];
      if (last?.role === 'assistant') last.content.push(...content);
      else out.push({ role: 'assistant', content });
    } else {
      const id = m.tool_call_id ?? '';
      const part: LanguageModelV4ToolResultPart = {
        type: 'tool-result',
        toolCallId: id,
        toolName: names.get(id) ?? 'tool',
        output: { type: 'text', value: m.content ?? '' },
      };
      const last = out[out.length - 1];
      if (last?.role === 'tool') last.content.push(part);
      else out.push({ role: 'tool', content: [part] });
    }
  }
  return out;
}

/**
 * Tokens of what a prompt says: every text, tool name, tool input (as JSON) and tool output. The
 * provider's own per-message framing (a few tokens a message) is not text and is not counted.
 */
export function promptTokens(prompt: LanguageModelV4Prompt, count: (text: string) => number): number {
  let n = 0;
  for (const m of prompt) {
    if (m.role === 'system') {
      n += count(m.content);
      continue;
    }
    for (const p of m.content) {
      if (p.type === 'text' || p.type === 'reasoning') n += count(p.text);
      else if (p.type === 'tool-call') n += count(p.toolName) + count(JSON.stringify(p.input) ?? '');
      else if (p.type === 'tool-result') {
        const o = p.output;
        n += count(p.toolName);
        if (o.type === 'text' || o.type === 'error-text') n += count(o.value);
        else if (o.type === 'json' || o.type === 'error-json') n += count(JSON.stringify(o.value) ?? '');
        else n += count(JSON.stringify(o) ?? '');
      }
    }
  }
  return n;
}
