import { describe, expect, it } from 'vitest';
import { echo } from '../../../src/adapters/shell/commands/echo.js';
import { command } from './tool-harness.js';

describe('echo', () => {
  it('prints its words with a newline, unless flags or backslashes make shells differ', () => {
    const printed = (line: string) => echo.prints!(command(line).argv.slice(1), command(line));
    expect(printed('echo hello  world')).toBe('hello world\n');
    expect(printed('echo -n hello')).toBeUndefined();
    expect(printed("echo 'a\\tb'")).toBeUndefined();
  });
});
