import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { Ledger } from '../../src/ledger/ledger.js';
import type { AnthropicBlock, AnthropicMessage, OpenAIMessage } from '../../src/working-set/render-messages.js';

/** Tokens of every text the model receives (system, texts, tool names, inputs as JSON, outputs). */
export function receivedTokens(prompt: LanguageModelV4Prompt, count: (s: string) => number): number {
  let n = 0;
  for (const m of prompt) {
    if (typeof m.content === 'string') {
      n += count(m.content);
      continue;
    }
    for (const p of m.content as unknown as Array<Record<string, unknown>>) {
      if (typeof p.text === 'string') n += count(p.text);
      if (typeof p.toolName === 'string') n += count(p.toolName);
      if (p.type === 'tool-call') n += count(JSON.stringify(p.input));
      if (p.type === 'tool-result') {
        const o = p.output as { type: string; value: unknown };
        n += count(typeof o.value === 'string' ? o.value : JSON.stringify(o.value));
      }
    }
  }
  return n;
}

/** The prompt in OpenAI's chat shape, for the provider-shape validator. */
export function asOpenAI(prompt: LanguageModelV4Prompt): OpenAIMessage[] {
  const out: OpenAIMessage[] = [];
  for (const m of prompt) {
    if (m.role === 'system') continue;
    if (m.role === 'user')
      out.push({ role: 'user', content: m.content.map((p) => (p.type === 'text' ? p.text : '')).join('') });
    else if (m.role === 'assistant') {
      const calls = m.content.flatMap((p) =>
        p.type === 'tool-call'
          ? [
              {
                id: p.toolCallId,
                type: 'function' as const,
                function: { name: p.toolName, arguments: JSON.stringify(p.input) },
              },
            ]
          : [],
      );
      const text = m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
      out.push({ role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) });
    } else {
      for (const p of m.content)
        if (p.type === 'tool-result')
          out.push({ role: 'tool', tool_call_id: p.toolCallId, content: JSON.stringify(p.output) });
    }
  }
  return out;
}

/**
 * The prompt in Anthropic's messages shape: tool results are user blocks, and consecutive user
 * and tool messages make one user message, as the AI SDK's Anthropic provider groups them (a
 * tool result followed by context text is one user turn).
 */
export function asAnthropic(prompt: LanguageModelV4Prompt): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  const user = (content: AnthropicBlock[]) => {
    const last = out[out.length - 1];
    if (last?.role === 'user') last.content.push(...content);
    else out.push({ role: 'user', content });
  };
  for (const m of prompt) {
    if (m.role === 'system') continue;
    if (m.role === 'user')
      user(m.content.flatMap((p) => (p.type === 'text' ? [{ type: 'text' as const, text: p.text }] : [])));
    else if (m.role === 'assistant')
      out.push({
        role: 'assistant',
        content: m.content.flatMap((p): AnthropicBlock[] =>
          p.type === 'text'
            ? [{ type: 'text' as const, text: p.text }]
            : p.type === 'tool-call'
              ? [
                  {
                    type: 'tool_use' as const,
                    id: p.toolCallId,
                    name: p.toolName,
                    input: p.input as Record<string, unknown>,
                  },
                ]
              : [],
        ),
      });
    else
      user(
        m.content.flatMap((p) =>
          p.type === 'tool-result'
            ? [{ type: 'tool_result' as const, tool_use_id: p.toolCallId, content: JSON.stringify(p.output) }]
            : [],
        ),
      );
  }
  return out;
}

/** Every valid node and edge at the last epoch, without the recording-order numbers. */
export async function graphOf(ledger: Ledger) {
  const view = await ledger.asOf();
  return {
    nodes: view.nodes.map(({ tx: _tx, ...n }) => n).sort((a, b) => a.id.localeCompare(b.id)),
    edges: view.edges.map((e) => `${e.from} ${e.kind} ${e.to} @${e.validFrom}`).sort(),
  };
}

/** The scripted loop's task, system prompt and final answer. */
export const TASK = 'Find where parse_header drops the last byte and fix it.';
export const SYSTEM = 'You are a careful coding agent.';
export const ANSWER = 'Fixed: parse_header now keeps the last byte.';

/** A file of `n` numbered lines, as `cat -n` prints it. */
const fileLines = (k: number, n = 30) =>
  Array.from(
    { length: n },
    (_, i) => `     ${i + 1}\tdef helper_${k}_${i}(buf): return buf[${i}:${i + k + 2}]  # module ${k}`,
  ).join('\n');

/** What the scripted `bash` tool prints for a command: module k's file for `cat -n src/modK.py`. */
export const bashOutput = (command: string): string => {
  const m = /src\/mod(\d+)\.py/.exec(command);
  return m ? `${fileLines(Number(m[1]))}\n` : 'ok\n';
};

/** What the scripted model answers at its call `k` of a `steps`-step loop: a view of module k,
 * then the answer. (The AI SDK's v3 and v4 content share these shapes.) */
export function scriptedContent(k: number, steps: number) {
  return k < steps
    ? [
        {
          type: 'tool-call' as const,
          toolCallId: `call_${k}`,
          toolName: 'bash',
          input: JSON.stringify({ command: `cat -n src/mod${k}.py` }),
        },
      ]
    : [{ type: 'text' as const, text: ANSWER }];
}

/** The stream parts a streaming model sends for that content, ending with `finish` and `usage`. */
export function streamPartsOf(content: ReturnType<typeof scriptedContent>, usage: object): Array<{ type: string }> {
  const parts: Array<{ type: string } & Record<string, unknown>> = [{ type: 'stream-start', warnings: [] }];
  for (const c of content) {
    if (c.type === 'text') {
      parts.push({ type: 'text-start', id: 't' });
      for (const piece of c.text.split(/(?<= )/)) parts.push({ type: 'text-delta', id: 't', delta: piece });
      parts.push({ type: 'text-end', id: 't' });
    } else {
      parts.push({ type: 'tool-input-start', id: c.toolCallId, toolName: c.toolName });
      parts.push({ type: 'tool-input-delta', id: c.toolCallId, delta: c.input });
      parts.push({ type: 'tool-input-end', id: c.toolCallId });
      parts.push(c);
    }
  }
  parts.push({
    type: 'finish',
    finishReason: { unified: content[0]!.type === 'text' ? 'stop' : 'tool-calls', raw: undefined },
    usage,
  });
  return parts;
}
