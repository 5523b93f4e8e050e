import { describe, expect, it } from 'vitest';
import { cat } from '../../../src/adapters/shell/commands/cat.js';
import { command, filterOf, sourceOf, whole } from './tool-harness.js';

describe('cat', () => {
  it('is a source of the whole file, numbered with -n, uncertain with other options', () => {
    expect(sourceOf(cat, 'cat a.py')).toEqual({ t: 'plain', path: 'a.py', start: 1, whole: true, toEnd: true });
    expect(sourceOf(cat, 'cat -n a.py')).toMatchObject({ t: 'numbered', path: 'a.py', offset: 0 });
    expect(sourceOf(cat, 'cat -A a.py')).toMatchObject({ t: 'uncertain', reason: 'cat options transform lines' });
    expect(sourceOf(cat, 'cat a.py b.py')).toMatchObject({ t: 'uncertain', reason: 'several files' });
  });

  it('numbers a plain stream as a filter and passes others through', () => {
    expect(filterOf(cat, { t: 'plain', path: 'a.py', start: 5 }, 'cat -n')).toMatchObject({ t: 'numbered', offset: 4 });
    expect(filterOf(cat, whole('a.py'), 'cat')).toEqual(whole('a.py'));
  });

  it('prints its literal here-doc, not one that expands', () => {
    expect(cat.prints!([], command("cat <<'EOF'\nx = $y\nEOF"))).toBe('x = $y\n');
    expect(cat.prints!([], command('cat <<EOF\nx = $y\nEOF'))).toBeUndefined();
  });
});
