import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { AIChatAgent } from '@cloudflare/ai-chat';
import { convertToModelMessages, simulateReadableStream, stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { agentLedger } from 'context-ledger/cloudflare-agents';
import { z } from 'zod';

// Your model (a scripted stand-in for `workersai('…')`: each turn reads two files, then answers).
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const finish = (unified: 'tool-calls' | 'stop'): LanguageModelV4StreamPart => ({
  type: 'finish',
  finishReason: { unified, raw: undefined },
  usage,
});
export function scriptedModel(): MockLanguageModelV4 {
  let step = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const n = step++;
      const chunks: LanguageModelV4StreamPart[] =
        n % 3 < 2
          ? [
              {
                type: 'tool-call',
                toolCallId: crypto.randomUUID(),
                toolName: 'read_file',
                input: JSON.stringify({ path: `src/module-${n}.ts` }),
              },
              finish('tool-calls'),
            ]
          : [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: `Read two files (step ${n}).` },
              { type: 'text-end', id: 't' },
              finish('stop'),
            ];
      return { stream: simulateReadableStream({ chunks }) };
    },
  });
}
const readFile = tool({
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) =>
    Array.from({ length: 40 }, (_, i) => `${i + 1}\texport const line${i} = '${path}:${i}';`).join('\n'),
});

export class Coder extends AIChatAgent {
  readonly yourModel = scriptedModel();

  override async onChatMessage(): Promise<Response> {
    // The ledger lives in this object's storage; the model gets its working set within 1,500 tokens.
    const { model } = await agentLedger(this.ctx.storage, { model: this.yourModel, budget: 1500 });
    const result = streamText({
      model,
      messages: await convertToModelMessages(this.messages),
      tools: { read_file: readFile },
      stopWhen: stepCountIs(5),
    });
    return result.toUIMessageStreamResponse();
  }
}
