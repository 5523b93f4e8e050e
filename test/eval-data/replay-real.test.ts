import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerPool } from '../../scripts/eval/ledger-pool.js';
import { expectSameContexts, replayContexts } from '../helpers/replay-contexts.js';
import { dataPath } from './data-path.js';

const pool = new LedgerPool();
// Opening the database is the slowest part of a replay; it is paid once, before the test.
beforeAll(async () => {
  await pool.fresh();
});
afterAll(() => pool.close());

describe('replayTrajectories on a real trajectory', () => {
  it('the context at the first edit is the same with and without the later edits', async () => {
    const file = dataPath('trajectories/mini-swe-agent-gemini3pro/astropy__astropy-12907.traj.json');
    const trajectory = JSON.parse(readFileSync(file, 'utf8'));
    const full = await replayContexts(pool, { name: 't', trajectory }, [1000], false);
    const [first, ...later] = full.report.perEvent.map((e) => e.epoch);
    expect(later.length).toBeGreaterThan(0);
    const { cut } = await expectSameContexts(pool, trajectory, first!, [1000, 4000]);
    expect(cut.report.events).toBe(1);
  });
});
