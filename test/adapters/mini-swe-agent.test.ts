import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromMiniSweAgent } from '../../src/adapters/index.js';
import { parseMiniObservation } from '../../src/adapters/swe-agents/mini-swe-agent.js';
import { checkTrace, edgeStrings, node, nodesOf } from './trace-check.js';

const fixture = (): unknown =>
  JSON.parse(readFileSync(new URL('../fixtures/transcripts/mini-swe-agent.traj.json', import.meta.url), 'utf8'));

describe('fromMiniSweAgent', () => {
  const trace = fromMiniSweAgent(fixture());

  it('passes the structural checks (shape, edge joins, endpoints, pairing)', () => {
    checkTrace(trace);
  });

  it('emits the PR description as the task at epoch 0, without system prompt or instructions', () => {
    const tx0 = trace.transactions[0];
    expect(tx0?.epoch).toBe(0);
    expect(tx0?.nodes).toEqual([
      {
        id: 'task',
        kind: 'task',
        authority: 'user',
        status: 'open',
        body: 'div() should return 0 when dividing by zero.',
      },
    ]);
    expect(trace.transactions.map((t) => t.epoch)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('emits action, call and result per step with the exact command and observation', () => {
    expect(node(trace, 'act:2')).toMatchObject({
      kind: 'action',
      authority: 'agent',
      status: 'resolved',
      body: 'Read the functions.',
    });
    expect(node(trace, 'call:2')).toMatchObject({
      kind: 'tool_call',
      tool: 'bash',
      body: "nl -ba pkg/calc.py | sed -n '4,9p'",
    });
    expect(node(trace, 'result:2')).toMatchObject({ kind: 'tool_result', status: 'terminal', meta: { returncode: 0 } });
    expect(node(trace, 'result:2').body).toContain('<returncode>0</returncode>');
    expect(edgeStrings(trace)).toEqual(
      expect.arrayContaining([
        'task plans act:2',
        'act:2 invokes call:2',
        'call:2 produces result:2',
        'result:2 cites ev:2:1',
      ]),
    );
  });

  it('turns numbered, grep and whole-file views into evidence with exact ranges and bodies', () => {
    expect(node(trace, 'ev:2:1')).toEqual({
      id: 'ev:2:1',
      kind: 'evidence',
      authority: 'repo',
      path: 'pkg/calc.py',
      range: [4, 9],
      revision: 'base',
      body: 'def area(r):\n    return math.pi * r * r\n\n\ndef div(a, b):\n    return a / b',
    });
    expect(node(trace, 'ev:3:1')).toMatchObject({ path: 'pkg/calc.py', range: [8, 8], body: 'def div(a, b):' });
    expect(node(trace, 'ev:4:1')).toMatchObject({ path: 'pkg/calc.py', range: [1, 9], revision: 'base' });
  });

  it('records writes as revisions and cites the new revision in later views', () => {
    expect(node(trace, 'rev:5:1')).toMatchObject({
      kind: 'artifact_revision',
      path: 'reproduce_issue.py',
      revision: 'rev:5:1',
      body: 'from pkg.calc import div\nprint(div(1, 0))\n',
    });
    expect(node(trace, 'rev:7:1')).toMatchObject({ path: 'pkg/calc.py', changed: [[9, 9]], revision: 'rev:7:1' });
    expect(node(trace, 'ev:8:1')).toMatchObject({ path: 'pkg/calc.py', range: [8, 9], revision: 'rev:7:1' });
    expect(edgeStrings(trace)).toEqual(expect.arrayContaining(['act:7 mutates rev:7:1', 'call:7 mutates rev:7:1']));
  });

  it('gives the exact pre-image of an edit whose changed lines were viewed, and none otherwise', () => {
    // Step 7's sed replaced line 9, which the whole-file view of step 4 showed.
    expect(trace.preImages).toEqual([
      { epoch: 7, path: 'pkg/calc.py', revision: 'rev:7:1', lines: [{ line: 9, text: '    return a / b' }] },
    ]);
    // The heredoc of step 5 has no changed ranges (a new file): no pre-image.
    expect(trace.preImages.some((p) => p.path === 'reproduce_issue.py')).toBe(false);
  });

  it('records test and reproduction runs as verifiers that depend on every written path', () => {
    expect(node(trace, 'ver:5')).toMatchObject({
      kind: 'verifier_outcome',
      authority: 'tool:bash',
      verifier: 'python reproduce_issue.py',
      status: 'failed',
    });
    expect(node(trace, 'ver:9')).toMatchObject({ verifier: 'python reproduce_issue.py', status: 'passed' });
    expect(node(trace, 'ver:10')).toMatchObject({ verifier: 'pytest tests/test_calc.py', status: 'error' });
    expect(edgeStrings(trace)).toEqual(
      expect.arrayContaining(['act:9 verified_by ver:9', 'rev:5:1 verified_by ver:9', 'rev:7:1 verified_by ver:9']),
    );
    expect(node(trace, 'result:10')).toMatchObject({ status: 'error', meta: { timedOut: true } });
  });

  it('keeps a format-error turn as a plain result with a counted warning', () => {
    expect(node(trace, 'result:6')).toMatchObject({
      kind: 'tool_result',
      status: 'error',
      meta: { formatError: true },
    });
    expect(edgeStrings(trace)).toContain('act:6 cites result:6');
    expect(trace.stats.warnings).toEqual([{ step: 6, reason: 'format error: 2 bash blocks' }]);
    expect(trace.stats.byCategory['format-error']).toBe(1);
  });

  it('reads complete lines of the head and tail of an elided output', () => {
    const ev = nodesOf(trace, 'evidence').filter((n) => n.path === 'pkg/big.py');
    expect(ev.map((n) => n.range)).toEqual([
      [1, 319],
      [2707, 3000],
    ]);
    for (const n of ev) {
      const [a] = n.range as [number, number];
      expect(n.body?.split('\n')[0]).toBe(`line ${a}`);
    }
  });

  it('counts steps, commands and categories', () => {
    expect(trace.stats).toMatchObject({ steps: 12, commands: 11, recognised: 9 });
    expect(trace.stats.byCategory).toMatchObject({
      view: 6,
      write: 2,
      'write-ranged': 1,
      verifier: 3,
      submit: 1,
      timeout: 1,
    });
  });

  it('prefixes every id and revision with idPrefix', () => {
    const t = fromMiniSweAgent(fixture(), { idPrefix: 'run7/' });
    checkTrace(t);
    expect(
      t.transactions.flatMap((tx) => (tx.nodes ?? []).map((n) => n.id)).every((id) => id.startsWith('run7/')),
    ).toBe(true);
    expect(node(t, 'run7/ev:8:1').revision).toBe('run7/rev:7:1');
  });

  it('is deterministic', () => {
    expect(JSON.stringify(fromMiniSweAgent(fixture()))).toBe(JSON.stringify(fromMiniSweAgent(fixture())));
  });
});

describe('fromMiniSweAgent on malformed and truncated input', () => {
  it('rejects a non-object input with a TypeError', () => {
    expect(() => fromMiniSweAgent(42)).toThrow(TypeError);
    expect(() => fromMiniSweAgent({ messages: 'nope' })).toThrow(TypeError);
  });

  it('survives malformed steps and a trajectory cut after a command', () => {
    const messages = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'Fix the bug in a.py' },
      null,
      { role: 'user', content: '<returncode>0</returncode>\n<output>\n</output>' },
      { role: 'assistant', content: { weird: true } },
      { role: 'assistant', content: 'THOUGHT: no block at all' },
      { role: 'user', content: 'Please always provide EXACTLY ONE action in triple backticks, found 0 actions.' },
      { role: 'assistant', content: "THOUGHT: read\n\n```bash\nsed -n '1,3p' a.py\n```" },
      { role: 'user', content: '<returncode>0</returncode>\n<output>\nx = 1\n' },
      { role: 'assistant', content: 'THOUGHT: last\n\n```bash\ncat a.py\n```' },
    ];
    const t = fromMiniSweAgent({ messages });
    checkTrace(t);
    expect(node(t, 'task').body).toBe('Fix the bug in a.py');
    // The unterminated observation is still a result; the last command never got one.
    expect(node(t, 'result:5')).toMatchObject({ status: 'error', body: '[no result recorded]' });
    expect(t.stats.warnings.map((w) => w.step)).toEqual([1, 2, 3, 5]);
    // A cut observation is read as a prefix: its complete lines only, never the wrapper tags.
    expect(nodesOf(t, 'evidence').map((n) => [n.range, n.body])).toEqual([[[1, 1], 'x = 1']]);
  });
});

describe('parseMiniObservation', () => {
  it('reads the return code and exact output', () => {
    const o = parseMiniObservation('<returncode>2</returncode>\n<output>\na\nb\n</output>');
    expect(o.kind).toBe('output');
    expect(o.obs).toMatchObject({ returncode: 2, text: 'a\nb\n', lines: { lines: ['a', 'b'] } });
  });

  it('drops the partial lines at the cut of an elided output', () => {
    const o = parseMiniObservation(
      '<returncode>0</returncode>\n<warning>\ntoo long\n</warning><output_head>\n1\n2\npart\n</output_head>\n<elided_chars>\n9 characters elided\n</elided_chars>\n<output_tail>\nial\n8\n9\n\n</output_tail>',
    );
    expect(o.kind).toBe('elided');
    expect(o.obs.lines).toEqual({ head: ['1', '2'], tail: ['8', '9'] });
  });

  it('recognises timeouts and format errors', () => {
    expect(
      parseMiniObservation(
        'The last command <command>sleep 99</command> timed out and has been killed.\nThe output of the command was:\n <output>\nzz\n</output>\nPlease try another command',
      ).obs,
    ).toMatchObject({ timedOut: true, text: 'zz' });
    expect(
      parseMiniObservation('Please always provide EXACTLY ONE action in triple backticks, found 3 actions.').kind,
    ).toBe('format-error');
  });
});
