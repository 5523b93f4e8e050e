import type { AgentInputItem } from '@openai/agents-core';
import type { OpenAIMessage } from '../../working-set/render-messages.js';

/**
 * A working set's chat rendering as Agents SDK input items, derived from the OpenAI shape
 * (`workingSet.toMessages('openai')`), which pairs every tool call with its results: each call a
 * `function_call` item, its result the `function_call_result` right after it.
 */
export function agentInputItems(messages: readonly OpenAIMessage[]): AgentInputItem[] {
  const names = new Map<string, string>();
  const out: AgentInputItem[] = [];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.content ?? '' });
    else if (m.role === 'assistant') {
      if (m.content)
        out.push({ role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: m.content }] });
      for (const c of m.tool_calls ?? []) {
        names.set(c.id, c.function.name);
        out.push({ type: 'function_call', callId: c.id, name: c.function.name, arguments: c.function.arguments });
      }
    } else {
      const callId = m.tool_call_id ?? '';
      out.push({
        type: 'function_call_result',
        callId,
        name: names.get(callId) ?? 'tool',
        status: 'completed',
        output: { type: 'text', text: m.content ?? '' },
      });
    }
  }
  return out;
}

/** Tokens of what input items say: message texts, call names and arguments, result outputs. */
export function itemTokens(items: readonly AgentInputItem[], count: (text: string) => number): number {
  let n = 0;
  for (const item of items) {
    if ('role' in item) {
      const c = item.content;
      n +=
        typeof c === 'string'
          ? count(c)
          : c.reduce((k, p) => k + ('text' in p && typeof p.text === 'string' ? count(p.text) : 0), 0);
    } else if (item.type === 'function_call') n += count(item.name) + count(item.arguments);
    else if (item.type === 'function_call_result') {
      const o = item.output;
      n +=
        count(item.name) +
        count(typeof o === 'string' ? o : 'text' in o && typeof o.text === 'string' ? o.text : JSON.stringify(o));
    }
  }
  return n;
}
