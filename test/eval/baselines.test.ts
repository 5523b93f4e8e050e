import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BASELINES,
  bm25,
  compaction,
  observationMasking,
  recency,
  recencyPaired,
  untrimmed,
} from '../../scripts/eval/baselines.js';
import { pairsIntact } from '../../scripts/eval/metrics.js';
import { type Transcript, type TranscriptMessage, transcriptOf } from '../../scripts/eval/transcript.js';
import { fromMiniSweAgent } from '../../src/adapters/index.js';

const msg = (
  id: string,
  epoch: number,
  role: TranscriptMessage['role'],
  text: string,
  tokens: number,
  nodes: string[] = [],
): TranscriptMessage => ({
  id,
  epoch,
  role,
  text,
  tokens,
  nodes,
});

/** Three steps: a grep that finds the function, an unrelated ls, a numbered view of it. */
const transcript: Transcript = {
  messages: [
    msg('task', 0, 'task', 'Fix parse_header for empty cards', 10),
    msg('turn:1', 1, 'assistant', 'grep -n parse_header -r io', 5, ['call:1']),
    msg('result:1', 1, 'observation', 'io/header.py:12:def parse_header(card):', 20, ['result:1']),
    msg('turn:2', 2, 'assistant', 'ls', 5, ['call:2']),
    msg('result:2', 2, 'observation', 'README setup.py', 30, ['result:2']),
    msg('turn:3', 3, 'assistant', 'nl -ba io/header.py', 5, ['call:3']),
    msg('result:3', 3, 'observation', '12 def parse_header(card):\n13   if not card: return', 50, ['result:3']),
  ],
  pairing: {
    resultsOf: new Map([1, 2, 3].map((i) => [`call:${i}`, [`result:${i}`]])),
    callOf: new Map([1, 2, 3].map((i) => [`result:${i}`, `call:${i}`])),
  },
  placeholderTokens: 3,
};
const ids = (s: { messages: TranscriptMessage[] }) => s.messages.map((m) => m.id);
const shownNodes = (s: { messages: TranscriptMessage[] }) => new Set(s.messages.flatMap((m) => m.nodes));

describe('recency', () => {
  it('keeps the task, then the most recent messages while they fit, as one window', () => {
    const s = recency(transcript, 3, 70);
    expect(ids(s)).toEqual(['task', 'turn:3', 'result:3']);
    expect(s.tokens).toBe(65);
  });

  it('stops at the first message that does not fit, even if an older one would', () => {
    // result:2 (30) does not fit the 5 tokens left; turn:2 (5) would, but a window has no holes.
    expect(ids(recency(transcript, 3, 70))).not.toContain('turn:2');
  });

  it('may keep an observation without the turn that asked for it', () => {
    const s = recency(transcript, 3, 60);
    expect(ids(s)).toEqual(['task', 'result:3']);
    expect(pairsIntact(shownNodes(s), transcript.pairing)).toBe(false);
  });

  it('drops the task when it alone exceeds the budget', () => {
    expect(ids(recency(transcript, 1, 8))).toEqual([]);
  });
});

describe('recencyPaired', () => {
  it('keeps whole steps only, so no call loses its result', () => {
    const s = recencyPaired(transcript, 3, 60);
    expect(ids(s)).toEqual(['task']);
    const t = recencyPaired(transcript, 3, 100);
    expect(ids(t)).toEqual(['task', 'turn:2', 'result:2', 'turn:3', 'result:3']);
    expect(t.tokens).toBe(100);
    expect(pairsIntact(shownNodes(t), transcript.pairing)).toBe(true);
  });
});

describe('bm25', () => {
  it('retrieves observations sharing terms with the task, best first, in conversation order', () => {
    expect(ids(bm25(transcript, 3, 100))).toEqual(['task', 'result:1', 'result:3']);
  });

  it('skips an observation that does not fit and never retrieves one without a shared term', () => {
    // result:1 is shorter, so it scores higher; result:3 (50) no longer fits; result:2 shares nothing.
    const s = bm25(transcript, 3, 65);
    expect(ids(s)).toEqual(['task', 'result:1']);
    expect(s.tokens).toBe(30);
  });

  it('only reads observations up to the epoch', () => {
    expect(ids(bm25(transcript, 1, 1000))).toEqual(['task', 'result:1']);
  });
});

describe('observationMasking', () => {
  it('keeps every turn, the latest observations in full and masks older ones to fit', () => {
    // task 10 + turns 15 + result:3 50 + result:2 30 = 105 > 100: result:2 and result:1 are masked (3 each).
    const s = observationMasking(transcript, 3, 100);
    expect(ids(s)).toEqual(['task', 'turn:1', 'turn:2', 'turn:3', 'result:3']);
    expect(s.masked?.map((m) => m.id)).toEqual(['result:1', 'result:2']);
    expect(s.tokens).toBe(10 + 15 + 50 + 3 + 3);
    // Masked observations still answer their calls.
    expect(pairsIntact(new Set([...s.messages, ...(s.masked ?? [])].flatMap((m) => m.nodes)), transcript.pairing)).toBe(
      true,
    );
  });

  it('unmasks only the newest observations (last N): an older one that would fit stays masked', () => {
    // 10 + 15 + 3·3 = 34; result:3 (+47) fits at 81; result:2 (+27) does not at 100 − 81 = 19, result:1 (+17) would.
    const s = observationMasking(transcript, 3, 100);
    expect(s.masked?.map((m) => m.id)).toContain('result:1');
  });

  it('drops the oldest steps whole when the turns alone do not fit', () => {
    const s = observationMasking(transcript, 3, 26);
    expect(ids(s)).toEqual(['task', 'turn:2', 'turn:3']);
    expect(s.masked?.map((m) => m.id)).toEqual(['result:2', 'result:3']);
    expect(s.tokens).toBe(10 + 5 + 3 + 5 + 3);
  });
});

describe('compaction', () => {
  /** The task (10) and eight steps of 20 tokens each (a 5-token turn, a 15-token result). */
  const even: Transcript = {
    messages: [
      msg('task', 0, 'task', 'the task', 10),
      ...[1, 2, 3, 4, 5, 6, 7, 8].flatMap((i) => [
        msg(`turn:${i}`, i, 'assistant', `cmd ${i}`, 5, [`call:${i}`]),
        msg(`result:${i}`, i, 'observation', `out ${i}`, 15, [`result:${i}`]),
      ]),
    ],
    pairing: {
      resultsOf: new Map([1, 2, 3, 4, 5, 6, 7, 8].map((i) => [`call:${i}`, [`result:${i}`]])),
      callOf: new Map([1, 2, 3, 4, 5, 6, 7, 8].map((i) => [`result:${i}`, `call:${i}`])),
    },
    placeholderTokens: 3,
  };
  const steps = (s: { messages: TranscriptMessage[] }) => [...new Set(s.messages.map((m) => m.epoch))];

  it('appends steps while the budget holds them', () => {
    // 10 + 3 · 20 = 70: exactly full, no compaction yet.
    const s = compaction(even, 3, 70);
    expect(steps(s)).toEqual([0, 1, 2, 3]);
    expect(s.tokens).toBe(70);
  });

  it('keeps the task and the newest whole steps within half the budget when it overflows', () => {
    // Step 4 makes 90 > 70: half of the 60 left after the task is 30, which holds one step (20).
    const s = compaction(even, 4, 70);
    expect(ids(s)).toEqual(['task', 'turn:4', 'result:4']);
    expect(s.tokens).toBe(30);
  });

  it('appends again after compacting, until the next overflow', () => {
    expect(steps(compaction(even, 6, 70))).toEqual([0, 4, 5, 6]);
    expect(steps(compaction(even, 7, 70))).toEqual([0, 7]);
  });

  it('differs from a recency window, which slides every step', () => {
    expect(steps(recencyPaired(even, 5, 70))).toEqual([0, 3, 4, 5]);
    expect(steps(compaction(even, 5, 70))).toEqual([0, 4, 5]);
  });

  it('drops a newest step larger than half the budget', () => {
    // transcript's step 3 is 55 tokens: over 100 at step 3, and 55 > 45 (half of 90).
    expect(ids(compaction(transcript, 3, 100))).toEqual(['task']);
    expect(ids(compaction(transcript, 2, 100))).toEqual(['task', 'turn:1', 'result:1', 'turn:2', 'result:2']);
  });
});

describe('untrimmed', () => {
  it('keeps everything up to the epoch whatever the budget', () => {
    const s = untrimmed(transcript, 2, 1);
    expect(ids(s)).toEqual(['task', 'turn:1', 'result:1', 'turn:2', 'result:2']);
    expect(s.tokens).toBe(70);
  });
});

describe('every baseline', () => {
  const arbTranscript = fc
    .array(fc.tuple(fc.nat({ max: 60 }), fc.nat({ max: 60 }), fc.subarray(['parse', 'header', 'card', 'ls', 'x'])), {
      maxLength: 12,
    })
    .map(
      (steps): Transcript => ({
        messages: [
          msg('task', 0, 'task', 'parse header card', 7),
          ...steps.flatMap(([a, o, words], i) => [
            msg(`turn:${i + 1}`, i + 1, 'assistant', 'cmd', a, [`call:${i + 1}`]),
            msg(`result:${i + 1}`, i + 1, 'observation', words.join(' '), o, [`result:${i + 1}`]),
          ]),
        ],
        pairing: {
          resultsOf: new Map(steps.map((_, i) => [`call:${i + 1}`, [`result:${i + 1}`]])),
          callOf: new Map(steps.map((_, i) => [`result:${i + 1}`, `call:${i + 1}`])),
        },
        placeholderTokens: 3,
      }),
    );

  it('fits the budget, reads nothing after the epoch, and ignores later steps entirely', () => {
    fc.assert(
      fc.property(arbTranscript, fc.nat({ max: 13 }), fc.nat({ max: 300 }), (t, epoch, budget) => {
        const truncated: Transcript = { ...t, messages: t.messages.filter((m) => m.epoch <= epoch) };
        for (const baseline of Object.values(BASELINES)) {
          const s = baseline(t, epoch, budget);
          expect(s.tokens).toBeLessThanOrEqual(budget);
          // Masked observations cost their placeholder (or themselves, when shorter).
          const masked = (s.masked ?? []).reduce((n, m) => n + Math.min(t.placeholderTokens, m.tokens), 0);
          expect(s.tokens).toBe(s.messages.reduce((n, m) => n + m.tokens, 0) + masked);
          expect(s.messages.every((m) => m.epoch <= epoch)).toBe(true);
          expect(baseline(truncated, epoch, budget)).toEqual(s);
        }
        expect(pairsIntact(shownNodes(recencyPaired(t, epoch, budget)), t.pairing)).toBe(true);
        const m = observationMasking(t, epoch, budget);
        expect(m.messages.every((x) => x.role !== 'observation' || !m.masked?.includes(x))).toBe(true);
      }),
    );
  });
});

describe('transcriptOf', () => {
  const fixture = JSON.parse(
    readFileSync(new URL('../fixtures/transcripts/mini-swe-agent.traj.json', import.meta.url), 'utf8'),
  );
  const t = transcriptOf(fromMiniSweAgent(fixture).transactions, (s) => s.length);

  it('renders the task, then per step the assistant turn (thought + command) and its observation', () => {
    expect(t.messages.slice(0, 3).map((m) => [m.id, m.epoch, m.role])).toEqual([
      ['task', 0, 'task'],
      ['turn:1', 1, 'assistant'],
      ['result:1', 1, 'observation'],
    ]);
    expect(t.messages[1]!.text).toBe('Find the module.\n\nfind . -name "*.py" | grep calc');
    expect(t.messages[2]!.text).toContain('./pkg/calc.py');
    expect(t.messages.every((m) => m.tokens === m.text.length)).toBe(true);
  });

  it('pairs calls with their results; a rejected turn has an observation but no call', () => {
    expect(t.pairing.resultsOf.get('call:2')).toEqual(['result:2']);
    expect(t.pairing.callOf.get('result:2')).toBe('call:2');
    const step6 = t.messages.filter((m) => m.epoch === 6);
    expect(step6.map((m) => [m.id, m.nodes])).toEqual([
      ['turn:6', []],
      ['result:6', ['result:6']],
    ]);
    expect(t.pairing.callOf.has('result:6')).toBe(false);
  });
});
