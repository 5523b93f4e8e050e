import { describe, expect, it } from 'vitest';
import { packUnits } from '../../src/working-set/pack.js';
import type { Candidate, Unit } from '../../src/working-set/types.js';
import { candidate } from '../helpers/candidate.js';

/**
 * Packing charges what the working set shows. The current action is packed before the file view
 * cut from its output (a lower tier), so its output is first paid whole; once the view is packed
 * too, the output is shown as a reference to it, and the budget gets the difference back for the
 * units ranked after it.
 */
const node = (nid: number, kind: Candidate['kind'], tokens: number, body = `body ${nid}`): Candidate =>
  candidate({ nid, kind, tokens, body });
const unit = (members: Candidate[], tier: number): Unit => ({
  key: members[0]!.id,
  members,
  tier,
  reason: 'test',
  tx: Math.max(...members.map((m) => m.tx)),
});

const REF = 10;
const call = node(1, 'tool_call', 10);
const output = node(2, 'tool_result', 100);
const view = node(3, 'evidence', 100);
const later = node(4, 'tool_result', 50);
const units = [unit([call, output], 2), unit([view], 4), unit([later], 6)];
const ranked = new Map([
  ['n3', { rank: 0, signal: 'exact path' }],
  ['n4', { rank: 1, signal: 'bm25' }],
]);
const budget = (tokens: number) => ({ tokens, records: 100, chars: 100_000 });
const keys = (us: Unit[]) => us.map((u) => u.key);

describe('packing charges an output shown as a reference only for the reference', () => {
  it('gives the budget back once the view that carries the output is packed', () => {
    // Whole: 10 + 100 + 100 = 210 before the refund, 10 + 10 + 100 = 120 after it; 50 more fit in 210.
    const packed = packUnits(units, budget(210), REF, new Map([[output.nid, [view.nid]]]), ranked);
    expect(keys(packed.included)).toEqual(['n1', 'n3', 'n4']);
  });

  it('charges the output whole when the view is not packed, or when nothing carries it', () => {
    const noRoom = packUnits(units, budget(200), REF, new Map([[output.nid, [view.nid]]]), ranked);
    expect(keys(noRoom.included)).toEqual(['n1', 'n4']);
    const uncovered = packUnits(units, budget(210), REF, new Map(), ranked);
    expect(keys(uncovered.included)).toEqual(['n1', 'n3']);
  });
});
