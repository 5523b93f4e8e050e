/**
 * The Worker test/workerd/cloudflare-agent.test.ts runs: the `Coder` agent of
 * docs/guide/integrations.md (./coder-agent.ts, verbatim there), driven through the Agents SDK's
 * own routing and `saveMessages`, plus a report of what its model received and its ledger holds.
 *
 *   POST /agents/tested-coder/<name>/turn   body: the user's text; runs one chat turn
 *   GET  /agents/tested-coder/<name>/report → prompts' token counts, unpaired tool parts, the ledger's node counts, memory
 */
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { routeAgentRequest } from 'agents';
import { promptTokens } from 'context-ledger/ai-sdk';
import { agentLedger } from 'context-ledger/cloudflare-agents';
import { Coder } from './coder-agent.js';

/** Tool-call ids without a result, or results without a call, in one prompt. */
function unpaired(prompt: LanguageModelV4Prompt): string[] {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const message of prompt) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') calls.add(part.toolCallId);
      if (part.type === 'tool-result') results.add(part.toolCallId);
    }
  }
  return [...calls, ...results].filter((id) => !(calls.has(id) && results.has(id)));
}

export class TestedCoder extends Coder {
  override async onRequest(request: Request): Promise<Response> {
    const action = new URL(request.url).pathname.split('/').at(-1);
    if (action === 'turn' && request.method === 'POST') {
      const text = await request.text();
      const result = await this.saveMessages((messages) => [
        ...messages,
        { id: `user-${messages.length}`, role: 'user', parts: [{ type: 'text', text }] },
      ]);
      return Response.json({ status: result.status, error: result.error });
    }
    if (action === 'report') {
      const { ledger } = await agentLedger(this.ctx.storage, { model: this.yourModel, budget: 1500 });
      // `ctx.storage` is one object for the instance's life, so this is the ledger onChatMessage used.
      const again = await agentLedger(this.ctx.storage, { model: this.yourModel, budget: 1500 });
      const count = (t: string) => ledger.countTokens(t);
      const prompts = this.yourModel.doStreamCalls.map((call) => call.prompt);
      const view = await ledger.asOf({ epoch: ledger.lastEpoch });
      const kinds: Record<string, number> = {};
      for (const node of view.nodes) kinds[node.kind] = (kinds[node.kind] ?? 0) + 1;
      return Response.json({
        modelCalls: prompts.length,
        promptTokens: prompts.map((p) => promptTokens(p, count)),
        unpaired: prompts.flatMap(unpaired),
        resultPaths: prompts.map((p) =>
          p.flatMap((m) =>
            m.role === 'tool'
              ? m.content.flatMap((c) =>
                  c.type === 'tool-result' ? [...new Set(JSON.stringify(c.output).match(/src\/module-\d+\.ts/g))] : [],
                )
              : [],
          ),
        ),
        shapes: prompts.map((p) =>
          p.map((m) =>
            typeof m.content === 'string'
              ? m.role
              : `${m.role}(${m.content.map((c) => ('toolCallId' in c ? `${c.type}:${c.toolCallId.slice(0, 4)}` : c.type)).join(',')})`,
          ),
        ),
        userTexts: prompts.map((p) =>
          p.flatMap((m) => (m.role === 'user' ? m.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])) : [])),
        ),
        lastTx: ledger.lastTx,
        openedOnce: again.ledger === ledger,
        kinds,
        nodeIds: view.nodes.length,
        uniqueNodeIds: new Set(view.nodes.map((n) => n.id)).size,
        uiMessages: this.messages.length,
        memory: await ledger.engineMemory(),
      });
    }
    return super.onRequest(request);
  }
}

export default {
  async fetch(request: Request, env: Record<string, unknown>): Promise<Response> {
    return (await routeAgentRequest(request, env)) ?? new Response('not found', { status: 404 });
  },
};
