/** `make test…` / `make check`: a verifier. */
import type { ShellTool } from './shell-tool.js';

export const make: ShellTool = {
  names: ['make'],
  verifier: (_name, args) => (args.some((r) => /^test/.test(r) || r === 'check') ? 'runner' : undefined),
};
