import { describe, expect, it } from 'vitest';
import { compaction, observationMasking, recency } from '../../scripts/eval/baselines.js';
import { commonPrefixBlocks, requestBlocks } from '../../scripts/eval/request-cost.js';
import type { Transcript, TranscriptMessage } from '../../scripts/eval/transcript.js';
import { MASK_PLACEHOLDER } from '../../scripts/eval/transcript.js';
import { transcriptRequest } from '../../scripts/eval/transcript-request.js';

/** The task and `n` steps, each a turn with one bash call and its result; tokens = characters. */
function steps(n: number): Transcript {
  const messages: TranscriptMessage[] = [{ id: 'task', epoch: 0, role: 'task', text: 'fix it', tokens: 6, nodes: [] }];
  for (let i = 1; i <= n; i++) {
    const command = `cat f${i}`;
    messages.push({
      id: `turn:${i}`,
      epoch: i,
      role: 'assistant',
      text: `look ${i}\n\n${command}`,
      tokens: 20,
      nodes: [`call:${i}`],
      turn: { thought: `look ${i}`, calls: [{ id: `call:${i}`, tool: 'bash', body: command }] },
    });
    messages.push({
      id: `result:${i}`,
      epoch: i,
      role: 'observation',
      text: `line ${i}`.repeat(4),
      tokens: 30,
      nodes: [`result:${i}`],
      call: `call:${i}`,
    });
  }
  return {
    messages,
    pairing: {
      resultsOf: new Map(messages.filter((m) => m.call).map((m) => [m.call!, [m.id]])),
      callOf: new Map(messages.filter((m) => m.call).map((m) => [m.id, m.call!])),
    },
    placeholderTokens: 8,
  };
}

describe('transcriptRequest', () => {
  const t = steps(3);

  it('renders the conversation in order: task, then each turn as text and tool_use, its result as tool_result', () => {
    const request = transcriptRequest(t, { messages: [...t.messages], tokens: 0 });
    expect(request.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(request[1]!.content).toEqual([
      { type: 'text', text: 'look 1' },
      {
        type: 'tool_use',
        // Ledger ids become provider-safe ids the way toMessages makes them.
        id: expect.stringMatching(/^call_1_[0-9a-f]+$/),
        name: 'bash',
        input: { command: 'cat f1' },
      },
    ]);
    const use = request[1]!.content[1] as { id: string };
    expect(request[2]!.content).toEqual([{ type: 'tool_result', tool_use_id: use.id, content: 'line 1'.repeat(4) }]);
  });

  it('shows a masked observation as the placeholder, still answering its call', () => {
    // task 6 + three turns 60 + three placeholders 24 = 90; the newest result in full (+22) makes 112.
    const sel = observationMasking(t, 3, 112);
    expect(sel.masked?.map((m) => m.id)).toEqual(['result:1', 'result:2']);
    const request = transcriptRequest(t, sel);
    expect(request[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: (request[1]!.content[1] as { id: string }).id, content: MASK_PLACEHOLDER },
    ]);
    expect(request[6]!.content[0]).toMatchObject({ type: 'tool_result', content: 'line 3'.repeat(4) });
  });

  it('shows a result whose call the window cut off as text, merged into the user turn before it', () => {
    // 6 + 30 fits 40; turn:3 (20) does not: the window holds the task and result:3 only.
    const sel = recency(t, 3, 40);
    expect(sel.messages.map((m) => m.id)).toEqual(['task', 'result:3']);
    expect(transcriptRequest(t, sel)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'fix it' },
          { type: 'text', text: 'line 3'.repeat(4) },
        ],
      },
    ]);
  });

  it('lets an appending method reuse its whole previous request, and a sliding window only the task', () => {
    const long = steps(8);
    const blocks = (sel: ReturnType<typeof recency>) => requestBlocks(transcriptRequest(long, sel));
    // Compaction at 300: 6 + 50 per step; steps 1–5 fit (256), so step 5's request extends step 4's.
    const c4 = blocks(compaction(long, 4, 300));
    expect(commonPrefixBlocks(c4, blocks(compaction(long, 5, 300)))).toBe(c4.length);
    // A recency window that already dropped a step shares only the task block with the next one.
    const r5 = blocks(recency(long, 5, 150));
    expect(commonPrefixBlocks(r5, blocks(recency(long, 6, 150)))).toBe(1);
  });
});
