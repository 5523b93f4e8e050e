/**
 * Test and reproduction runs. A verifier's name is its command with whitespace collapsed, so a
 * rerun of the same command supersedes the older outcome. The status is read from the return code
 * and the output: `error` means the check could not run (import/collection errors, missing
 * script, timeout), `failed` means it ran and reported a failure.
 */

import type { VerifierStatus } from '../types.js';
import { baseName, isCheckScript } from './check-scripts.js';
import { toolNamed } from './commands/registry.js';
import type { VerifierKind } from './commands/shell-tool.js';
import type { SimpleCommand } from './shell-parse.js';

/** Words that may precede the real command (`timeout 60 pytest`, `env X=1 pytest`). */
function unwrap(argv: readonly string[]): string[] {
  let a = [...argv];
  for (let guard = 0; guard < 4; guard++) {
    const first = a[0];
    if (first === 'timeout') {
      let k = 1;
      while (k < a.length && (a[k] as string).startsWith('-')) k++;
      a = a.slice(k + 1);
    } else if (first === 'env') {
      let k = 1;
      while (k < a.length && /^[A-Za-z_][A-Za-z0-9_]*=|^-/.test(a[k] as string)) k++;
      a = a.slice(k);
    } else if (
      first === 'time' ||
      first === 'nice' ||
      first === 'xvfb-run' ||
      (first === 'coverage' && a[1] === 'run')
    ) {
      a = a.slice(first === 'coverage' ? 2 : 1);
    } else break;
  }
  return a;
}

/** Which kind of check a command is, or undefined when it is not one: the tool it runs says, or
 * it runs a check script directly (`./reproduce.py`). */
export function verifierKind(cmd: SimpleCommand): VerifierKind | undefined {
  const [name, ...rest] = unwrap(cmd.argv);
  if (!name) return undefined;
  const b = baseName(name);
  const kind = toolNamed(b)?.verifier?.(name, rest);
  if (kind) return kind;
  if (isCheckScript(b) && (name.startsWith('./') || name.includes('/'))) return 'script';
  return undefined;
}

/** Shell-quotes an argument only when it needs it, so names stay readable and stable. */
const quote = (w: string): string => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/** The verifier's name: env assignments and argv, redirects dropped, whitespace collapsed. */
export function verifierName(cmd: SimpleCommand): string {
  return [...cmd.env, ...cmd.argv].map(quote).join(' ');
}

const FAILURE = [
  /\b[1-9]\d* (?:failed|errors?)\b/,
  /^FAILED\b/m,
  /^FAIL:/m,
  /^ERROR: test/m,
  /\bFAILED \((?:failures|errors)=/,
  /Traceback \(most recent call last\)/,
  /\bAssertionError\b/,
  /\b(?:FAIL|FAILURE|FAILED)\b/,
  /\b(?:tests?|assertions?|checks?) failed\b/i,
  /(?<!\bnot )\b(?:issue|bug) (?:is )?(?:still )?(?:reproduced|present)\b/i,
];

const CANNOT_RUN = [
  /^ERROR collecting/m,
  /^=+ ERRORS =+$/m,
  /errors? during collection/,
  /ImportError while (?:importing|loading)/,
  /^ERROR: (?:file or directory not found|not found):/m,
  /^=+ no tests ran\b/m,
  /: can't open file .*No such file or directory/,
  /command not found/,
  /No module named pytest\b/,
];

/** Final exception of the last traceback in the output, e.g. `ModuleNotFoundError`. */
function lastException(out: string): string | undefined {
  const idx = out.lastIndexOf('Traceback (most recent call last)');
  if (idx < 0) return undefined;
  const lines = out.slice(idx).split('\n');
  for (let k = 1; k < lines.length; k++) {
    const m = /^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Configured|NotReady))\b/.exec(
      lines[k] as string,
    );
    if (m) return (m[1] as string).split('.').pop();
  }
  return undefined;
}

/** pytest's final summary line (`=== 2 failed, 3 passed in 0.1s ===`), when present. */
function pytestSummary(out: string): VerifierStatus | undefined {
  const lines = out.split('\n').filter((l) => /^=+ .*\bin [\d.]+\s*s(?:econds)?\b.*=+\s*$/.test(l));
  const last = lines[lines.length - 1];
  if (!last) return undefined;
  if (/\bno tests ran\b|\b\d+ errors?\b/.test(last)) return 'error';
  if (/\b\d+ failed\b/.test(last)) return 'failed';
  return 'passed';
}

/**
 * Status of a check from its return code and output. Tracebacks of import/syntax errors only mean
 * "could not run" when the command also failed: scripts often print caught tracebacks and succeed.
 */
export function verifierStatus(
  kind: VerifierKind,
  output: string,
  returncode: number | undefined,
  timedOut: boolean,
): VerifierStatus {
  if (timedOut) return 'error';
  if (returncode === 127 || returncode === 126) return 'error';
  if (kind === 'pytest' && returncode !== undefined && returncode >= 2 && returncode <= 5) return 'error';
  const summary = kind === 'pytest' ? pytestSummary(output) : undefined;
  if (summary) return returncode !== undefined && returncode !== 0 && summary === 'passed' ? 'failed' : summary;
  const ranOk = returncode === 0;
  if (!ranOk) {
    if (CANNOT_RUN.some((re) => re.test(output))) return 'error';
    const exc = lastException(output);
    if (
      exc &&
      /^(ModuleNotFoundError|ImportError|SyntaxError|IndentationError|TabError|ImproperlyConfigured|AppRegistryNotReady)$/.test(
        exc,
      )
    )
      return 'error';
  }
  if (returncode !== undefined && returncode !== 0) return 'failed';
  if (FAILURE.some((re) => re.test(output))) return 'failed';
  return 'passed';
}
