import type { AnthropicMessage, OpenAIMessage } from './render-messages.js';

/**
 * Checks a rendered conversation against each API's pairing rules. Returns the violations
 * (empty when valid), so tests can assert on them and hosts can check before sending.
 */
export function validateOpenAIMessages(messages: readonly OpenAIMessage[]): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  let awaiting: string[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      const id = m.tool_call_id ?? '';
      if (!awaiting.includes(id)) errors.push(`messages[${i}]: tool result ${id} answers no pending call`);
      awaiting = awaiting.filter((a) => a !== id);
      return;
    }
    if (awaiting.length > 0) errors.push(`messages[${i}]: calls ${awaiting.join(', ')} left unanswered`);
    awaiting = [];
    for (const c of m.tool_calls ?? []) {
      if (m.role !== 'assistant') errors.push(`messages[${i}]: tool calls on a ${m.role} message`);
      if (seen.has(c.id)) errors.push(`messages[${i}]: duplicate tool call id ${c.id}`);
      if (c.id.length > 40) errors.push(`messages[${i}]: tool call id longer than 40`);
      seen.add(c.id);
      awaiting.push(c.id);
    }
    if (m.role === 'assistant' && m.content === null && !m.tool_calls?.length)
      errors.push(`messages[${i}]: empty assistant message`);
  });
  if (awaiting.length > 0) errors.push(`end: calls ${awaiting.join(', ')} left unanswered`);
  return errors;
}

/** The ways `messages` breaks the Messages API's pairing and alternation rules; empty when it keeps them. */
export function validateAnthropicMessages(messages: readonly AnthropicMessage[]): string[] {
  const errors: string[] = [];
  if (messages[0]?.role !== 'user') errors.push('messages[0]: the first message must be from the user');
  let pending: string[] = [];
  const seen = new Set<string>();
  messages.forEach((m, i) => {
    if (i > 0 && messages[i - 1]!.role === m.role) errors.push(`messages[${i}]: two ${m.role} messages in a row`);
    if (m.content.length === 0) errors.push(`messages[${i}]: empty content`);
    if (m.role === 'user') {
      const results = m.content.filter((b) => b.type === 'tool_result');
      const firstNonResult = m.content.findIndex((b) => b.type !== 'tool_result');
      if (firstNonResult >= 0 && m.content.slice(firstNonResult).some((b) => b.type === 'tool_result')) {
        errors.push(`messages[${i}]: tool_result blocks must come first`);
      }
      for (const r of results) {
        if (!pending.includes(r.tool_use_id))
          errors.push(`messages[${i}]: tool_result ${r.tool_use_id} answers no tool_use of the previous message`);
      }
      const answered = new Set(results.map((r) => r.tool_use_id));
      const missing = pending.filter((p) => !answered.has(p));
      if (missing.length > 0) errors.push(`messages[${i}]: tool_use ${missing.join(', ')} left unanswered`);
      pending = [];
    } else {
      if (pending.length > 0) errors.push(`messages[${i}]: tool_use ${pending.join(', ')} left unanswered`);
      pending = [];
      for (const b of m.content) {
        if (b.type === 'tool_result') errors.push(`messages[${i}]: tool_result in an assistant message`);
        if (b.type !== 'tool_use') continue;
        if (!/^[a-zA-Z0-9_-]+$/.test(b.id))
          errors.push(`messages[${i}]: tool_use id ${b.id} has characters Anthropic rejects`);
        if (seen.has(b.id)) errors.push(`messages[${i}]: duplicate tool_use id ${b.id}`);
        seen.add(b.id);
        pending.push(b.id);
      }
    }
  });
  if (pending.length > 0) errors.push(`end: tool_use ${pending.join(', ')} left unanswered`);
  return errors;
}
