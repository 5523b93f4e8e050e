/**
 * Every shell tool the adapters know, and the lookup the pipeline, writes and verifiers dispatch
 * through. A new tool is a module in this directory, listed here.
 */
import { awk } from './awk.js';
import { cat } from './cat.js';
import { cpMv } from './cp-mv.js';
import { echo } from './echo.js';
import { ed } from './ed.js';
import { git } from './git.js';
import { grep } from './grep.js';
import { head, tail } from './head-tail.js';
import { make } from './make.js';
import { nl } from './nl.js';
import { pager } from './pager.js';
import { patch } from './patch.js';
import { perl } from './perl.js';
import { pytest } from './pytest.js';
import { python } from './python.js';
import { sed } from './sed.js';
import { sh } from './sh.js';
import type { ShellTool } from './shell-tool.js';
import { tee } from './tee.js';
import { testRunners } from './test-runners.js';
import { wc } from './wc.js';

/** @internal Exported for its unit tests. */
export const SHELL_TOOLS: readonly ShellTool[] = [
  awk,
  cat,
  cpMv,
  echo,
  ed,
  git,
  grep,
  head,
  make,
  nl,
  pager,
  patch,
  perl,
  pytest,
  python,
  sed,
  sh,
  tail,
  tee,
  testRunners,
  wc,
];

const BY_NAME = new Map(SHELL_TOOLS.flatMap((t) => t.names.map((n) => [n, t] as const)));
const FAMILIES = SHELL_TOOLS.filter((t) => t.matches !== undefined);

/** The tool a command name (as written) runs, if the adapters know it. */
export function toolNamed(name: string): ShellTool | undefined {
  return BY_NAME.get(name) ?? FAMILIES.find((t) => t.matches!(name));
}
