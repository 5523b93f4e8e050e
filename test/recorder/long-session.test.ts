import { afterAll, describe, expect, it, vi } from 'vitest';
import { TraceBuilder } from '../../src/adapters/trace-builder.js';
import { fromAISDK, recordSession } from '../../src/recorder/index.js';
import { LedgerPool } from '../helpers/ledgers.js';
import { graphOf } from '../integrations/ai-sdk-helpers.js';

type Message = Record<string, unknown>;

const pool = new LedgerPool();
afterAll(() => pool.close());

const call = (id: string, toolName: string, input: Record<string, unknown>) => ({
  type: 'tool-call',
  toolCallId: id,
  toolName,
  input,
});
const result = (id: string, toolName: string, value: string) => ({
  type: 'tool-result',
  toolCallId: id,
  toolName,
  output: { type: 'text', value },
});
const numbered = (lines: readonly string[]) => lines.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n');

/**
 * A long AI SDK session over one evolving file: views (`cat -n`), editor writes, a change no
 * recognised command explains (a script, then a view that contradicts what was known), test runs,
 * parallel calls answered in two tool messages, steering and plain user messages, and text
 * replies. Every later step depends on file knowledge learnt many steps before.
 */
function longSession(rounds: number): Message[] {
  const file = Array.from({ length: 30 }, (_, i) => `def f_${i}(x): return x + ${i}`);
  const out: Message[] = [
    { role: 'system', content: 'You fix bugs.' },
    { role: 'user', content: [{ type: 'text', text: 'Find why f_7 returns the wrong value and fix it.' }] },
  ];
  let n = 0;
  const id = () => `call_${++n}`;
  for (let r = 0; r < rounds; r++) {
    const view = id();
    out.push(
      {
        role: 'assistant',
        content: [
          { type: 'text', text: `Round ${r}: read the file.` },
          call(view, 'bash', { command: 'cat -n src/calc.py' }),
        ],
      },
      { role: 'tool', content: [result(view, 'bash', `${numbered(file)}\n`)] },
    );
    if (r % 4 === 1) {
      // A script no recogniser reads changes a line; the next view contradicts what was known.
      const script = id();
      out.push(
        { role: 'assistant', content: [call(script, 'bash', { command: 'python tools/normalise.py' })] },
        { role: 'tool', content: [result(script, 'bash', 'done')] },
      );
      file[(r + 3) % file.length] = `def f_${(r + 3) % file.length}(x): return x  # normalised`;
      const again = id();
      out.push(
        { role: 'assistant', content: [call(again, 'bash', { command: 'cat -n src/calc.py' })] },
        { role: 'tool', content: [result(again, 'bash', `${numbered(file)}\n`)] },
      );
    }
    const edit = id();
    const old = file[r % file.length]!;
    const next = `${old} + 0  # r${r}`;
    out.push(
      {
        role: 'assistant',
        content: [
          call(edit, 'str_replace_based_edit_tool', {
            command: 'str_replace',
            path: 'src/calc.py',
            old_str: old,
            new_str: next,
          }),
        ],
      },
      {
        role: 'tool',
        content: [result(edit, 'str_replace_based_edit_tool', 'The file src/calc.py has been edited.')],
      },
    );
    file[r % file.length] = next;
    const [a, b] = [id(), id()];
    out.push({
      role: 'assistant',
      content: [
        call(a, 'bash', { command: 'pytest -q tests/test_calc.py' }),
        call(b, 'bash', { command: 'sed -n 1,5p src/calc.py' }),
      ],
    });
    out.push({ role: 'tool', content: [result(a, 'bash', r % 3 === 0 ? '1 failed, 4 passed' : '5 passed')] });
    out.push({ role: 'tool', content: [result(b, 'bash', `${file.slice(0, 5).join('\n')}\n`)] });
    if (r % 5 === 2)
      out.push({ role: 'user', content: [{ type: 'text', text: 'Please run the whole suite instead of one file.' }] });
    if (r % 5 === 4) out.push({ role: 'user', content: [{ type: 'text', text: 'How is it going?' }] });
    if (r % 3 === 2)
      out.push({ role: 'assistant', content: [{ type: 'text', text: `Still on it after round ${r}.` }] });
  }
  out.push({ role: 'assistant', content: [{ type: 'text', text: 'Fixed: f_7 added the wrong constant.' }] });
  return out;
}

/** The assistant message as a model's output gives it: tool-call inputs as JSON text. */
const asOutput = (m: Message): Message => ({
  ...m,
  content: (m.content as Message[]).map((p) => (p.type === 'tool-call' ? { ...p, input: JSON.stringify(p.input) } : p)),
});

describe('SessionRecorder over a long session', { timeout: 300_000 }, () => {
  const session = longSession(40);

  it('gives the replayed transcript’s ledger and stats, the history resent whole after every message', async () => {
    const replay = fromAISDK(session);
    const expected = await pool.ledger(1);
    for (const tx of replay.transactions) await expected.commit(tx);

    const ledger = await pool.ledger(0);
    const recorder = recordSession(ledger, { format: 'ai-sdk' });
    // Each step is assembled once, however often the history is resent: a call's work follows its new messages.
    const steps = vi.spyOn(TraceBuilder.prototype, 'addStep');
    for (let k = 1; k <= session.length; k++) await recorder.sync(session.slice(0, k));
    expect(steps).toHaveBeenCalledTimes(replay.stats.steps);
    steps.mockRestore();
    expect(ledger.lastTx).toBe(replay.transactions.length);
    expect(await graphOf(ledger)).toEqual(await graphOf(expected));
    expect(recorder.stats).toEqual(replay.stats);
    expect(replay.stats.byCategory['write-inferred']).toBeGreaterThan(0);
    expect(replay.stats.byCategory.steering).toBeGreaterThan(0);

    expect(await recorder.sync(session)).toEqual({ receipts: [], newMessages: 0, pending: false });
    expect(ledger.lastTx).toBe(replay.transactions.length);
  });

  it('gives the same ledger when model outputs are appended and the history then resent (the middleware’s way)', async () => {
    const expected = await pool.ledger(1);
    for (const tx of fromAISDK(session).transactions) await expected.commit(tx);

    const ledger = await pool.ledger(0);
    const recorder = recordSession(ledger, { format: 'ai-sdk' });
    for (let k = 1; k <= session.length; k++) {
      const m = session[k - 1]!;
      if (m.role === 'assistant') {
        await recorder.sync(session.slice(0, k - 1));
        expect((await recorder.append([asOutput(m)])).newMessages).toBe(1);
      } else await recorder.sync(session.slice(0, k));
    }
    expect((await recorder.sync(session)).newMessages).toBe(0);
    expect(await graphOf(ledger)).toEqual(await graphOf(expected));
  });
});
