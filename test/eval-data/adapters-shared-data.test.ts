/**
 * Runs the adapters over the real trajectories of the shared data (`npm run eval:data-tests`) and
 * prints the aggregate recognition stats.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { goldLines } from '../../scripts/eval/gold-lines.js';
import { fromMiniSweAgent, fromSweAgent } from '../../src/adapters/index.js';
import type { AdaptedTrace } from '../../src/adapters/types.js';
import { checkTrace, nodesOf } from '../adapters/trace-check.js';
import { dataPath } from './data-path.js';

const miniDir = `${dataPath('trajectories/mini-swe-agent-gemini3pro')}/`;
const sweDir = `${dataPath('trajectories/swe-agent-demos')}/`;

/** Files the SWE-bench harness edits before the agent starts (their "base" differs from git's). */
const HARNESS_EDITED = new Set(['tox.ini', 'setup.py', 'pyproject.toml']);

describe('shared trajectories', () => {
  it('fromMiniSweAgent handles all 100 mini-swe-agent trajectories', () => {
    const files = readdirSync(miniDir)
      .filter((f) => f.endsWith('.traj.json'))
      .sort();
    expect(files).toHaveLength(100);
    const total = { steps: 0, commands: 0, recognised: 0, warnings: 0, goldLines: 0, goldSeen: 0, goldMismatch: 0 };
    const byCategory: Record<string, number> = {};
    const mismatches: string[] = [];
    for (const f of files) {
      const traj = JSON.parse(readFileSync(miniDir + f, 'utf8')) as { info?: { submission?: string } };
      let trace: AdaptedTrace | undefined;
      expect(() => {
        trace = fromMiniSweAgent(traj);
      }).not.toThrow();
      if (!trace) continue;
      checkTrace(trace);
      expect(nodesOf(trace, 'evidence').length, `${f} has a recognised view`).toBeGreaterThanOrEqual(1);
      total.steps += trace.stats.steps;
      total.commands += trace.stats.commands;
      total.recognised += trace.stats.recognised;
      total.warnings += trace.stats.warnings.length;
      for (const [k, v] of Object.entries(trace.stats.byCategory)) byCategory[k] = (byCategory[k] ?? 0) + v;

      // Evidence of the base revision must agree with the old lines of the final patch.
      const base = new Map<string, string>();
      for (const ev of nodesOf(trace, 'evidence')) {
        if (ev.revision !== 'base') continue;
        for (const [i, text] of (ev.body ?? '').split('\n').entries())
          base.set(`${ev.path}:${(ev.range?.[0] ?? 0) + i}`, text);
      }
      for (const g of goldLines(traj.info?.submission ?? '')) {
        for (const l of g.lines) {
          total.goldLines++;
          const seen = base.get(`${g.path}:${l.line}`);
          if (seen === undefined) continue;
          total.goldSeen++;
          if (seen !== l.text) {
            total.goldMismatch++;
            if (!HARNESS_EDITED.has(g.path)) mismatches.push(`${f} ${g.path}:${l.line}`);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    console.log(
      'mini-swe-agent aggregate',
      JSON.stringify({ ...total, byCategory: Object.fromEntries(Object.entries(byCategory).sort()) }, null, 1),
    );
  });

  it('fromSweAgent handles every SWE-agent demo, from trajectory[] and from history[] alone', () => {
    const files = readdirSync(sweDir)
      .filter((f) => f.endsWith('.traj'))
      .sort();
    expect(files.length).toBeGreaterThan(0);
    const byCategory: Record<string, number> = {};
    for (const f of files) {
      const traj = JSON.parse(readFileSync(sweDir + f, 'utf8')) as Record<string, unknown>;
      const trace = fromSweAgent(traj);
      checkTrace(trace);
      expect(nodesOf(trace, 'task')[0]?.body, f).toBeTruthy();
      expect(nodesOf(trace, 'evidence').length, f).toBeGreaterThanOrEqual(1);
      expect(nodesOf(trace, 'artifact_revision').length, f).toBeGreaterThanOrEqual(1);
      for (const [k, v] of Object.entries(trace.stats.byCategory)) byCategory[k] = (byCategory[k] ?? 0) + v;
      // Every file the final patch touches was written by a recognised edit, and no view ever
      // contradicted what the recognised edits say the file holds.
      const info = traj.info as { submission?: string } | undefined;
      const written = new Set(nodesOf(trace, 'artifact_revision').map((r) => r.path));
      for (const g of goldLines(info?.submission ?? ''))
        expect(written.has(g.path), `${f} writes ${g.path}`).toBe(true);
      expect(trace.stats.byCategory['write-inferred'] ?? 0, f).toBe(0);
      const { trajectory: _t, ...historyOnly } = traj;
      const fromHistory = fromSweAgent(historyOnly);
      checkTrace(fromHistory);
      expect(nodesOf(fromHistory, 'evidence').length, `${f} (history)`).toBeGreaterThanOrEqual(1);
    }
    console.log('swe-agent aggregate', JSON.stringify(Object.fromEntries(Object.entries(byCategory).sort())));
  });
});
