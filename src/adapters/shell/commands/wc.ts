/** `wc` at the end of a pipeline: it prints counts, no file lines. */
import type { ShellTool } from './shell-tool.js';

export const wc: ShellTool = {
  names: ['wc'],
  filter: () => ({ t: 'none' }),
};
