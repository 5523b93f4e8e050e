import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromSweAgent } from '../../src/adapters/index.js';
import { numberedWindows } from '../../src/adapters/swe-agents/editor-tools.js';
import { checkTrace, edgeStrings, node, nodesOf } from './trace-check.js';

const fixture = (): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL('../fixtures/transcripts/swe-agent.traj', import.meta.url), 'utf8'));

describe('fromSweAgent', () => {
  const trace = fromSweAgent(fixture());

  it('passes the structural checks', () => {
    checkTrace(trace);
  });

  it('takes the issue text of the first non-demonstration prompt as the task', () => {
    expect(node(trace, 'task').body).toBe('div() should return 0 when dividing by zero.\nSee pkg/calc.py.');
  });

  it('names the tool of each action and keeps the exact action and observation', () => {
    expect(nodesOf(trace, 'tool_call').map((c) => c.tool)).toEqual([
      'find_file',
      'open',
      'search_file',
      'edit',
      'edit',
      'create',
      'edit',
      'bash',
      'open',
      'edit',
      'submit',
    ]);
    expect(node(trace, 'call:5').body).toBe('edit 9:9\n    return a / b if b else 0\nend_of_edit');
    expect(node(trace, 'act:5').body).toBe('Fix the indentation.');
  });

  it('reads [File: …] windows and search_file hits as evidence, repo root stripped', () => {
    expect(node(trace, 'ev:2:1')).toMatchObject({ path: 'pkg/calc.py', range: [1, 9], revision: 'base' });
    expect(node(trace, 'ev:3:1')).toMatchObject({ path: 'pkg/calc.py', range: [8, 8], body: 'def div(a, b):' });
  });

  it('a rejected edit writes nothing; only the original-code window is evidence', () => {
    expect(node(trace, 'result:4').status).toBe('error');
    expect(nodesOf(trace, 'artifact_revision').filter((r) => r.id.startsWith('rev:4'))).toEqual([]);
    expect(node(trace, 'ev:4:1')).toMatchObject({
      range: [7, 9],
      body: '\ndef div(a, b):\n    return a / b',
      revision: 'base',
    });
    expect(trace.stats.byCategory['edit-rejected']).toBe(1);
  });

  it('edit N:M changes [N, M]; the window after it cites the new revision', () => {
    expect(node(trace, 'rev:5:1')).toMatchObject({ path: 'pkg/calc.py', changed: [[9, 9]] });
    expect(node(trace, 'ev:5:1')).toMatchObject({ revision: 'rev:5:1', range: [1, 9] });
    expect(node(trace, 'ev:9:1').revision).toBe('rev:5:1');
  });

  it('create and search/replace edits', () => {
    expect(node(trace, 'rev:6:1')).toMatchObject({ path: 'reproduce.py', body: 'create reproduce.py' });
    expect(node(trace, 'rev:7:1')).toMatchObject({ path: 'reproduce.py', changed: [[1, 1]] });
    // the replaced text is located among the lines seen of the current revision
    expect(node(trace, 'rev:10:1')).toMatchObject({ path: 'pkg/calc.py', changed: [[9, 9]] });
  });

  it('bash actions go through the shell recogniser (verifier with dependencies)', () => {
    expect(node(trace, 'ver:8')).toMatchObject({ verifier: 'python reproduce.py', status: 'passed' });
    expect(edgeStrings(trace)).toEqual(
      expect.arrayContaining(['rev:5:1 verified_by ver:8', 'rev:7:1 verified_by ver:8']),
    );
  });

  it('rebuilds the same steps from history when trajectory[] is absent', () => {
    const { trajectory: _dropped, ...rest } = fixture();
    const fromHistory = fromSweAgent(rest);
    checkTrace(fromHistory);
    const shape = (t: typeof trace): unknown[] => [
      ...nodesOf(t, 'evidence').map((n) => [n.id, n.path, n.range, n.revision, n.body]),
      ...nodesOf(t, 'artifact_revision').map((n) => [n.id, n.changed]),
    ];
    expect(shape(fromHistory)).toEqual(shape(trace));
    expect(node(fromHistory, 'task').body).toBe(node(trace, 'task').body);
  });

  it('is deterministic and tolerates malformed steps', () => {
    expect(JSON.stringify(fromSweAgent(fixture()))).toBe(JSON.stringify(fromSweAgent(fixture())));
    const broken = fromSweAgent({
      trajectory: [null, { action: 'ls' }, { action: 7, observation: 'x' }, { action: 'cat a.py', observation: 'a\n' }],
    });
    checkTrace(broken);
    expect(broken.stats.warnings.map((w) => w.reason)).toEqual([
      'no task text found',
      'malformed step',
      'no observation recorded for the action',
      'malformed step',
    ]);
    expect(node(broken, 'ev:4:1')).toMatchObject({ path: 'a.py', range: [1, 1] });
    expect(() => fromSweAgent('x')).toThrow(TypeError);
  });
});

describe('numberedWindows', () => {
  const id = (p: string) => p.replace(/^\/r\//, '');
  it('reads cursor windows and cat -n snippets', () => {
    const obs =
      '[File: /r/a.py (30 lines total)]\n(9 more lines above)\n<<<<< START CURSOR >>>>>\n10:x\n<<<<< END CURSOR >>>>>\n11:y\n(19 more lines below)\n';
    expect(numberedWindows(obs, id)).toEqual([
      { kind: 'view', path: 'a.py', range: [10, 11], lines: ['x', 'y'], total: 30 },
    ]);
    const snippet =
      "The file /r/b.py has been edited. Here's the result of running `cat -n` on a snippet of /r/b.py:\n     4\tp\n     5\tq\nReview the changes.";
    expect(numberedWindows(snippet, id)).toEqual([{ kind: 'view', path: 'b.py', range: [4, 5], lines: ['p', 'q'] }]);
  });
});
