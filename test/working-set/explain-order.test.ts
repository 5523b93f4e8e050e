import { describe, expect, it } from 'vitest';
import { compareStrings } from '../../src/text/compare.js';
import { explain } from '../../src/working-set/explain.js';
import type { Ranked } from '../../src/working-set/rank-candidates.js';
import type { Candidate, Unit } from '../../src/working-set/types.js';
import { candidate } from '../helpers/candidate.js';

const member = (nid: number, id: string): Candidate =>
  candidate({ nid, id, kind: 'evidence', validFrom: 0, bodyHash: null });

describe('explain', () => {
  it('lists exclusions by id, each with its code, in the order one stable sort of budget, unanswered, beyond-the-bound and closed records gives', () => {
    // Ids shared across kinds of exclusion, so the tie order is tested too.
    const ids = ['b', 'a', 'd', 'c', 'ab', 'a\u{1F600}', 'a\uFFFF', ''];
    const excluded: Unit[] = ids.slice(0, 4).map((id, i) => ({
      key: `u${i}`,
      members: [member(i, id)],
      tier: 4,
      reason: 'history',
      tx: i,
    }));
    const unanswered = [member(10, 'c'), member(11, 'zz')];
    const beyond = ['c', 'a', 'zz', 'ab', 'a\u{1F600}', 'a\uFFFF', '', 'y'];
    const closed = [
      { id: 'c', reason: 'archived', closedAt: 3, by: null },
      { id: 'a\uFFFF', reason: 'superseded', closedAt: 4, by: 'x' },
      { id: 'y', reason: 'archived', closedAt: 5, by: null },
    ];
    const tiers = new Map(
      [...excluded.flatMap((u) => u.members), ...unanswered].map((c) => [c.nid, { tier: 4, reason: 'history' }]),
    );
    const ranked = {
      graph: { beyondBound: [...beyond].sort(compareStrings), closed } as unknown as Ranked['graph'],
      tiers,
      unanswered,
      placement: new Map(),
    };
    const got = explain([], [], excluded, ranked, () => undefined);
    // The reference: every record in kind order, then one stable sort by id.
    const reference = [
      ...excluded.map((u) => ({
        id: u.members[0]!.id,
        included: false,
        tier: 4,
        reason: 'budget (history)',
        code: 'budget',
      })),
      ...unanswered.map((c) => ({
        id: c.id,
        included: false,
        tier: 4,
        reason: 'unanswered call: a call is never shown without its result',
        code: 'unanswered-call',
      })),
      ...beyond.map((id) => ({ id, included: false, reason: 'beyond the bound', code: 'beyond-bound' })),
      { id: 'c', included: false, reason: 'archived', code: 'archived' },
      { id: 'a\uFFFF', included: false, reason: 'superseded by x at epoch 4', code: 'superseded' },
      { id: 'y', included: false, reason: 'archived', code: 'archived' },
    ].sort((x, y) => compareStrings(x.id, y.id));
    expect(JSON.stringify(got)).toBe(JSON.stringify(reference));
  });
});
