/** `pytest` and `py.test`: verifiers. */
import type { ShellTool } from './shell-tool.js';

export const pytest: ShellTool = {
  names: ['pytest', 'py.test'],
  verifier: () => 'pytest',
};
