import { describe, expect, it } from 'vitest';
import { makeNormaliser } from '../../src/adapters/paths.js';
import { recogniseShell } from '../../src/adapters/shell/bash-commands.js';
import { outputLines } from '../../src/adapters/shell/view-pipeline.js';
import type { Effect } from '../../src/adapters/types.js';
import { knowledge } from '../helpers/file-knowledge.js';

const normalise = makeNormaliser(['/testbed']);

function run(
  command: string,
  output: string,
  opts: { rc?: number; files?: Record<string, string>; timedOut?: boolean } = {},
): Effect[] {
  return recogniseShell(
    command,
    { text: output, lines: { lines: outputLines(output) }, returncode: opts.rc ?? 0, timedOut: opts.timedOut },
    { cwd: '/testbed', normalise, files: knowledge(opts.files) },
  ).effects;
}

const numbered = (first: number, lines: string[]): string =>
  lines.map((l, i) => `${String(first + i).padStart(6)}\t${l}\n`).join('');
const views = (effects: Effect[]) =>
  effects.filter((e) => e.kind === 'view').map((e) => (e.kind === 'view' ? [e.path, e.range, e.lines.join('\n')] : []));
const uncertain = (effects: Effect[]) =>
  effects.filter((e) => e.kind === 'view-uncertain').map((e) => (e.kind === 'view-uncertain' ? e.reason : ''));
const writes = (effects: Effect[]) => effects.filter((e) => e.kind === 'write');

describe('views', () => {
  it('cat shows the whole file from line 1', () => {
    expect(views(run('cat a.py', 'x = 1\ny = 2\n'))).toEqual([['a.py', [1, 2], 'x = 1\ny = 2']]);
  });

  it('cat -n and nl -ba number the lines themselves', () => {
    expect(views(run('cat -n ./a.py', numbered(1, ['a', '', 'c'])))).toEqual([['a.py', [1, 3], 'a\n\nc']]);
    expect(views(run('nl -ba /testbed/pkg/m.py', numbered(1, ['a', 'b'])))).toEqual([['pkg/m.py', [1, 2], 'a\nb']]);
  });

  it('plain nl skips blank lines, so its numbers are not line numbers', () => {
    const e = run('nl a.py', numbered(1, ['a', 'b']));
    expect(views(e)).toEqual([]);
    expect(uncertain(e)).toEqual(['nl numbers non-empty lines only (use -ba)']);
  });

  it("sed -n 'a,bp' and 'ap' start at the addressed line", () => {
    expect(views(run("sed -n '10,12p' a.py", 'j\nk\nl\n'))).toEqual([['a.py', [10, 12], 'j\nk\nl']]);
    expect(views(run('sed -n 7p a.py', 'g\n'))).toEqual([['a.py', [7, 7], 'g']]);
    // fewer lines than selected: the file ended
    expect(views(run("sed -n '10,20p' a.py", 'j\n'))).toEqual([['a.py', [10, 10], 'j']]);
  });

  it('sed with several spans is split only when the output fills them exactly', () => {
    expect(views(run("sed -n '1,2p;5,6p' a.py", 'a\nb\ne\nf\n'))).toEqual([
      ['a.py', [1, 2], 'a\nb'],
      ['a.py', [5, 6], 'e\nf'],
    ]);
    expect(uncertain(run("sed -n '1,2p;5,6p' a.py", 'a\nb\ne\n'))).toEqual([
      'output does not fill the sed spans exactly',
    ]);
  });

  it('sed with regex addresses is uncertain', () => {
    expect(uncertain(run("sed -n '/def f/,/return/p' a.py", 'def f():\n  return 1\n'))).toEqual([
      'sed script is not a fixed line span',
    ]);
  });

  it('head -n shows the first lines; tail -n needs a known file length; tail -n +k starts at k', () => {
    expect(views(run('head -n 2 a.py', 'a\nb\n'))).toEqual([['a.py', [1, 2], 'a\nb']]);
    expect(uncertain(run('tail -n 2 a.py', 'y\nz\n'))).toEqual(['tail without a known file length']);
    expect(views(run('tail -n 2 a.py', 'c\nd\n', { files: { 'a.py': 'a\nb\nc\nd\n' } }))).toEqual([
      ['a.py', [3, 4], 'c\nd'],
    ]);
    expect(views(run('tail -n +3 a.py', 'c\nd\n'))).toEqual([['a.py', [3, 4], 'c\nd']]);
  });

  it('grep -n gives one-line ranges, grouped when adjacent, context lines included', () => {
    expect(views(run('grep -n "def" a.py', '3:def f():\n9:def g():\n10:def h():\n'))).toEqual([
      ['a.py', [3, 3], 'def f():'],
      ['a.py', [9, 10], 'def g():\ndef h():'],
    ]);
    expect(views(run('grep -n -A 1 "def f" a.py', '3:def f():\n4-    pass\n--\n9:def f2():\n10-    pass\n'))).toEqual([
      ['a.py', [3, 4], 'def f():\n    pass'],
      ['a.py', [9, 10], 'def f2():\n    pass'],
    ]);
  });

  it('grep -rn names the file on each line', () => {
    expect(
      views(run('grep -rn "TODO" src', 'src/a.py:3:# TODO x\nsrc/b/c.py:7:# TODO y\nBinary file src/d.bin matches\n')),
    ).toEqual([
      ['src/a.py', [3, 3], '# TODO x'],
      ['src/b/c.py', [7, 7], '# TODO y'],
    ]);
  });

  it('grep without -n shows lines but not where: uncertain, no evidence', () => {
    const e = run('grep "def" a.py', 'def f():\n');
    expect(views(e)).toEqual([]);
    expect(uncertain(e)).toEqual(['grep without -n']);
  });

  it('handles common pipelines', () => {
    expect(views(run("nl -ba a.py | sed -n '4,5p'", numbered(4, ['d', 'e'])))).toEqual([['a.py', [4, 5], 'd\ne']]);
    expect(views(run('nl -ba a.py | grep -n "e"', `5:${numbered(5, ['e']).trimEnd()}\n`))).toEqual([
      ['a.py', [5, 5], 'e'],
    ]);
    expect(
      views(
        run('nl -ba a.py | grep -A 1 "def"', `${numbered(2, ['def f():', '  x'])}--\n${numbered(8, ['def g():'])}`),
      ),
    ).toEqual([
      ['a.py', [2, 3], 'def f():\n  x'],
      ['a.py', [8, 8], 'def g():'],
    ]);
    expect(views(run('cat a.py | head -n 2', 'a\nb\n'))).toEqual([['a.py', [1, 2], 'a\nb']]);
    expect(views(run("sed -n '10,20p' a.py | head -n 2", 'j\nk\n'))).toEqual([['a.py', [10, 11], 'j\nk']]);
    expect(views(run("cat a.py | sed -n '3,4p' | cat -n", numbered(1, ['c', 'd'])))).toEqual([
      ['a.py', [3, 4], 'c\nd'],
    ]);
    expect(uncertain(run('cat a.py | grep -C 2 "x"', 'w\nx\ny\n'))).toEqual(['grep without -n']);
    expect(uncertain(run('cat -A a.py | head', 'a$\n'))).toEqual(['cat options transform lines']);
  });

  it('applies cd to later paths and normalises ./ and the repo root', () => {
    expect(views(run("cd /testbed/pkg && sed -n '1,1p' ../a.py", 'a\n'))).toEqual([['a.py', [1, 1], 'a']]);
    expect(views(run('cd pkg && cat ./m.py', 'm\n'))).toEqual([['pkg/m.py', [1, 1], 'm']]);
  });

  it('awk NR ranges and python prints of a file', () => {
    expect(views(run("awk 'NR>=3 && NR<=4' a.py", 'c\nd\n'))).toEqual([['a.py', [3, 4], 'c\nd']]);
    expect(views(run(`python3 -c "print(open('a.py').read())"`, 'a\nb\n\n'))).toEqual([['a.py', [1, 2], 'a\nb']]);
  });

  it('splits output shared with literal echo separators, and merges self-numbered views of one file', () => {
    expect(views(run("sed -n '1,2p' a.py && echo '---' && sed -n '9,9p' b.py", 'a\nb\n---\ni\n'))).toEqual([
      ['a.py', [1, 2], 'a\nb'],
      ['b.py', [9, 9], 'i'],
    ]);
    expect(views(run('grep -n "x" a.py\ngrep -n "y" a.py', '3:x\n7:y\n'))).toEqual([
      ['a.py', [3, 3], 'x'],
      ['a.py', [7, 7], 'y'],
    ]);
  });

  it('refuses output it cannot attribute', () => {
    expect(uncertain(run('cat a.py && python run.py', 'a\nran\n'))).toEqual(['output shared by several commands']);
    expect(uncertain(run('cat a.py', 'cat: a.py: No such file or directory\n', { rc: 1 }))).toEqual([
      'non-zero return code',
    ]);
    expect(views(run('cat a.py > b.py', ''))).toEqual([]);
  });
});

describe('writes', () => {
  it('sed -i with line addresses gives the changed old lines; insertions give the lines around the point', () => {
    expect(writes(run("sed -i '9s/a/b/' a.py", ''))).toEqual([{ kind: 'write', path: 'a.py', changed: [[9, 9]] }]);
    expect(writes(run("sed -i '3,5d' a.py", ''))).toEqual([{ kind: 'write', path: 'a.py', changed: [[3, 5]] }]);
    expect(writes(run("sed -i '4i\\    x = 1' a.py", ''))).toEqual([
      { kind: 'write', path: 'a.py', changed: [[3, 4]] },
    ]);
    expect(writes(run("sed -i '4a\\    x = 1' a.py", ''))).toEqual([
      { kind: 'write', path: 'a.py', changed: [[4, 5]] },
    ]);
    expect(writes(run("sed -i -e '2d' -e '7s/x/y/' a.py", ''))).toEqual([
      {
        kind: 'write',
        path: 'a.py',
        changed: [
          [2, 2],
          [7, 7],
        ],
      },
    ]);
  });

  it('sed -i by regex is located among the known lines, or left without ranges', () => {
    const files = { 'a.py': 'import os\nx = old\ny = 2\nz = old\n' };
    expect(writes(run("sed -i 's/old/new/g' a.py", '', { files }))).toEqual([
      {
        kind: 'write',
        path: 'a.py',
        changed: [
          [2, 2],
          [4, 4],
        ],
      },
    ]);
    expect(writes(run("sed -i '/^import/d' a.py", '', { files }))).toEqual([
      { kind: 'write', path: 'a.py', changed: [[1, 1]] },
    ]);
    expect(writes(run("sed -i 's/old/new/g' b.py", ''))).toEqual([{ kind: 'write', path: 'b.py' }]);
  });

  it('here-docs and redirects: whole content with >, no changed old line with >>', () => {
    expect(writes(run("cat <<'EOF' > t.py\nprint(1)\nEOF", ''))).toEqual([
      { kind: 'write', path: 't.py', content: 'print(1)\n' },
    ]);
    expect(writes(run("cat <<'EOF' >> t.py\nprint(2)\nEOF", '', { files: { 't.py': 'print(1)\n' } }))).toEqual([
      { kind: 'write', path: 't.py', changed: [], content: 'print(1)\nprint(2)\n' },
    ]);
    expect(writes(run('echo "x = 1" > c.py', ''))).toEqual([{ kind: 'write', path: 'c.py', content: 'x = 1\n' }]);
    expect(writes(run('printf "a\\n" | tee d.txt', 'a\n'))).toEqual([{ kind: 'write', path: 'd.txt' }]);
    expect(writes(run('python x.py > /dev/null 2>&1', ''))).toEqual([]);
  });

  it('cp, mv and git checkout', () => {
    expect(writes(run('cp a.py a.py.bak', '', { files: { 'a.py': 'a\n' } }))).toEqual([
      { kind: 'write', path: 'a.py.bak', content: 'a\n' },
    ]);
    expect(writes(run('mv new.py a.py', ''))).toEqual([{ kind: 'write', path: 'a.py' }]);
    expect(writes(run('git checkout -- a.py b.py', ''))).toEqual([
      { kind: 'write', path: 'a.py', revert: true },
      { kind: 'write', path: 'b.py', revert: true },
    ]);
    expect(writes(run('git checkout -b topic', ''))).toEqual([]);
  });

  it('patch and git apply take changed ranges from the hunks', () => {
    const diff = '--- a/a.py\n+++ b/a.py\n@@ -2,3 +2,3 @@\n x\n-y = 1\n+y = 2\n z\n';
    expect(writes(run(`patch -p1 <<'EOF'\n${diff}EOF`, 'patching file a.py\n'))).toEqual([
      { kind: 'write', path: 'a.py', changed: [[3, 3]] },
    ]);
    expect(writes(run('git apply fix.diff', '', { files: { 'fix.diff': diff } }))).toEqual([
      { kind: 'write', path: 'a.py', changed: [[3, 3]] },
    ]);
  });

  it('python scripts that open a file for writing, with replace located in known lines', () => {
    const files = { 'a.py': 'def f():\n    return a / b\n' };
    const script =
      "p = 'a.py'\ns = open(p).read()\ns = s.replace('return a / b', 'return a / b if b else 0')\nopen(p, 'w').write(s)\n";
    expect(writes(run(`python3 - <<'EOF'\n${script}EOF`, '', { files }))).toEqual([
      { kind: 'write', path: 'a.py', changed: [[2, 2]] },
    ]);
    expect(
      writes(
        run(
          `python -c "lines = open('a.py').readlines(); lines.insert(1, 'x\\n'); open('a.py', 'w').writelines(lines)"`,
          '',
          { files },
        ),
      ),
    ).toEqual([{ kind: 'write', path: 'a.py', changed: [[1, 2]] }]);
    // A script written earlier (its content is known) writes when it runs.
    const withScript = { ...files, 'fix.py': script };
    expect(writes(run('python fix.py', '', { files: withScript }))).toEqual([
      { kind: 'write', path: 'a.py', changed: [[2, 2]] },
    ]);
    // Written and run in the same command.
    expect(writes(run(`cat <<'EOF' > fix2.py\n${script}EOF\npython fix2.py`, '', { files }))).toEqual([
      { kind: 'write', path: 'fix2.py', content: script },
      { kind: 'write', path: 'a.py', changed: [[2, 2]] },
    ]);
  });
});

describe('verifiers', () => {
  const status = (cmd: string, out: string, rc?: number, timedOut = false) =>
    recogniseShell(
      cmd,
      { text: out, lines: { lines: outputLines(out) }, returncode: rc, timedOut },
      { cwd: '/testbed', normalise, files: knowledge() },
    )
      .effects.filter((e) => e.kind === 'verifier')
      .map((e) => (e.kind === 'verifier' ? `${e.command} => ${e.status}` : ''));

  it('recognises test runners and reproduction scripts with a normalised name', () => {
    expect(status('pytest   tests/test_a.py  -q', '==== 3 passed in 0.1s ====\n', 0)).toEqual([
      'pytest tests/test_a.py -q => passed',
    ]);
    expect(status('python -m pytest tests -k "x and y"', '==== 1 failed, 2 passed in 0.1s ====\n', 1)).toEqual([
      "python -m pytest tests -k 'x and y' => failed",
    ]);
    expect(status('cd /testbed && ./tests/runtests.py queries', 'Ran 3 tests\n\nOK\n', 0)).toEqual([
      './tests/runtests.py queries => passed',
    ]);
    expect(status('python tests/runtests.py queries', 'Ran 3 tests\n\nFAILED (failures=1)\n', 1)).toEqual([
      'python tests/runtests.py queries => failed',
    ]);
    expect(status('bin/test sympy/core', 'tests finished: 3 passed, 1 failed\nDO *NOT* COMMIT!\n', 1)).toEqual([
      'bin/test sympy/core => failed',
    ]);
    expect(status('tox -e py39', 'congratulations :)\n', 0)).toEqual(['tox -e py39 => passed']);
    expect(status('make test', 'ok\n', 0)).toEqual(['make test => passed']);
    expect(status('python -m unittest tests.test_a', 'OK\n', 0)).toEqual(['python -m unittest tests.test_a => passed']);
    expect(status('python3 reproduce_bug.py', 'all good\n', 0)).toEqual(['python3 reproduce_bug.py => passed']);
    expect(status('python test_edge.py', 'FAILURE: still broken\n', 0)).toEqual(['python test_edge.py => failed']);
    expect(status('python check_x.py', 'x\n', 0)).toEqual([]);
    expect(status('ls tests/runtests.py', 'tests/runtests.py\n', 0)).toEqual([]);
  });

  it('errors when the check could not run: import/collection errors, missing runner, timeout', () => {
    expect(
      status(
        'python reproduce.py',
        'Traceback (most recent call last):\n  File "reproduce.py", line 1\nModuleNotFoundError: No module named \'numpy\'\n',
        1,
      ),
    ).toEqual(['python reproduce.py => error']);
    expect(
      status(
        'python reproduce.py',
        'Traceback (most recent call last):\n  File "x"\nZeroDivisionError: division by zero\n',
        1,
      ),
    ).toEqual(['python reproduce.py => failed']);
    expect(status('pytest tests/nope.py', 'ERROR: file or directory not found: tests/nope.py\n', 4)).toEqual([
      'pytest tests/nope.py => error',
    ]);
    expect(status('pytest x.py', '==== 1 error in 0.1s ====\n', 1)).toEqual(['pytest x.py => error']);
    expect(status('pytest', 'bash: line 1: pytest: command not found\n', 127)).toEqual(['pytest => error']);
    expect(status('pytest tests', '', undefined, true)).toEqual(['pytest tests => error']);
  });
});

it('never throws on odd commands', () => {
  for (const cmd of [
    '',
    '(',
    "'",
    'cat <<EOF',
    'a && && b',
    'sed -i',
    "sed -n 'p",
    'grep -n',
    '$(',
    'for f in *; do cat $f; done',
    'cd && ls',
    '|||',
  ]) {
    expect(() => run(cmd, 'x\n')).not.toThrow();
  }
});
