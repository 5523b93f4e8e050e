import { describe, expect, it } from 'vitest';
import { RMDX_SESSION } from '../../demo/traces/rmdx-can-session.js';
import { openLedger } from '../../src/entries/node.js';
import { runConformance } from './cases.js';

describe('conformance (Node, from source)', () => {
  it('runs the whole suite and is deterministic across two runs', async () => {
    const a = await runConformance(openLedger, RMDX_SESSION);
    expect(a.rejected.map((r) => r.code)).toEqual([
      'INVALID_NODE_KIND',
      'DANGLING_EDGE',
      'DUPLICATE_ID',
      'INVALID_RANGE',
    ]);
    expect(a.restoredSnapshotSha256).toBe(a.snapshotSha256);
    expect(a.text.exact).toBe(true);
    // The vector case scores something, so runtimes that disagree on a score would differ.
    expect(JSON.stringify(a.retrieve.vector)).toMatch(/cosine 0\.\d{3}/);
    expect(a.text.rejected).toEqual(Array(6).fill('INVALID_TEXT'));
    const b = await runConformance(openLedger, RMDX_SESSION);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});
