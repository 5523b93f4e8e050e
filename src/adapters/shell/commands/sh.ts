/** `bash script` / `sh script`: a verifier when the script is a check script. */
import { baseName, isCheckScript } from '../check-scripts.js';
import type { ShellTool } from './shell-tool.js';

export const sh: ShellTool = {
  names: ['bash', 'sh'],
  verifier: (_name, args) => (args[0] && isCheckScript(baseName(args[0])) ? 'script' : undefined),
};
