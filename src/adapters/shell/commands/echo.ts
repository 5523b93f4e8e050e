/** `echo`: a printer, when its words are literal. */
import type { ShellTool } from './shell-tool.js';

export const echo: ShellTool = {
  names: ['echo'],
  prints(args) {
    // Only flag-free, backslash-free echo prints the same in every shell.
    if (args.some((a) => a.includes('\\')) || /^-[neE]+$/.test(args[0] ?? '')) return undefined;
    return `${args.join(' ')}\n`;
  },
};
