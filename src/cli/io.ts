import type { ProgressSink } from './progress.js';

/** Where a command writes: the command files take it, run.ts supplies it. */
export interface CliIO {
  stdout(text: string): void;
  stderr: ProgressSink;
  /** Relative paths resolve against it. */
  cwd: string;
}
