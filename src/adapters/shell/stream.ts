/**
 * The stream model of a viewing pipeline (see view-pipeline.ts): how the lines a pipeline prints
 * relate to the lines of a file, stage after stage.
 */
import type { FileKnowledge } from '../types.js';

export type Stream =
  /** Lines carry their own file line number (`   12\ttext`), after `prefixes` grep `N:` prefixes. */
  | { t: 'numbered'; path: string; offset: number; prefixes: number; seps: boolean }
  /** Output line i is file line start + i. */
  | {
      t: 'plain';
      path: string;
      start: number;
      /** At most this many lines were selected (a longer output means foreign lines). */
      maxLen?: number | undefined;
      /** Exactly this many lines are expected (tail with a known file length). */
      exactLen?: number | undefined;
      /** The output runs to the end of the file (file length becomes known). */
      toEnd?: boolean | undefined;
      /** The whole file is shown from line 1. */
      whole?: boolean | undefined;
      /** `print()` added one newline after the file's own. */
      extraNewline?: boolean | undefined;
      /** Several disjoint spans printed back to back (`sed -n '1,5p;20,30p'`); needs exact lengths. */
      segments?: Array<[number, number]> | undefined;
    }
  /** `grep -n` output: `N:text`/`N-text`, or `path:N:text` when `multi`. */
  | { t: 'grep'; path?: string | undefined; multi: boolean; offset: number; prefixes: number; seps: boolean }
  /** Several numbered/`grep -n` views of one file sharing one output (lines name themselves). */
  | { t: 'merged'; path: string }
  | { t: 'uncertain'; path?: string | undefined; reason: string }
  | { t: 'none' };

export interface ViewContext {
  /** Repository-relative path of a path written in the command (cwd applied). */
  resolve(path: string): string;
  files: FileKnowledge;
}
