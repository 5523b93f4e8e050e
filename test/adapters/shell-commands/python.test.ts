import { describe, expect, it } from 'vitest';
import { python } from '../../../src/adapters/shell/commands/python.js';
import { sourceOf, verifierOf, writesOf } from './tool-harness.js';

describe('python', () => {
  it('answers to every interpreter name, with or without a directory, and nothing else', () => {
    for (const name of ['python', 'python3', 'python3.11', '/usr/bin/python3', 'venv/bin/python'])
      expect(python.matches!(name)).toBe(true);
    for (const name of ['pythonx', 'ipython', 'python3-config']) expect(python.matches!(name)).toBe(false);
  });

  it('is a source when -c prints a file whole', () => {
    expect(sourceOf(python, `python3 -c "print(open('a.py').read())"`)).toMatchObject({
      t: 'plain',
      path: 'a.py',
      whole: true,
      extraNewline: true,
    });
    expect(sourceOf(python, 'python3 -c "import os"')).toEqual({ t: 'none' });
  });

  it('writes what its code writes', () => {
    const code = "python3 - <<'EOF'\nopen('b.py', 'w').write('x = 1\\n')\nEOF";
    expect(writesOf(python, code).map((w) => w.path)).toEqual(['b.py']);
  });

  it('is a verifier of pytest, runners and check scripts', () => {
    expect(verifierOf(python, 'python -m pytest tests')).toBe('pytest');
    expect(verifierOf(python, 'python manage.py test')).toBe('runner');
    expect(verifierOf(python, 'python3 -u reproduce_issue.py')).toBe('script');
    expect(verifierOf(python, 'python setup.py build')).toBeUndefined();
  });
});
