/** Test runners other than pytest: `tox`, `nox`, a project's `runtests.py` or `bin/test`. */
import { baseName } from '../check-scripts.js';
import type { ShellTool } from './shell-tool.js';

export const testRunners: ShellTool = {
  names: ['tox', 'nox', 'runtests.py', 'test'],
  // `test` alone is the shell's condition builtin; only a project's bin/test runs tests.
  verifier: (name) => (baseName(name) !== 'test' || /(^|\/)bin\/test$/.test(name) ? 'runner' : undefined),
};
