/**
 * What a shell command module exports: the roles its tool plays. A tool is a *source* when it
 * reads a file and prints its lines, a *filter* when it transforms a stream of them, a *writer*
 * when it changes files, a *printer* when it prints literal text, and a *verifier* when it runs a
 * check. The pipeline, writes and verifiers only dispatch to these.
 */
import type { FileKnowledge, WriteEffect } from '../../types.js';
import type { SimpleCommand } from '../shell-parse.js';
import type { Stream, ViewContext } from '../stream.js';

export type VerifierKind = 'pytest' | 'runner' | 'script';

/** A stream a filter can still map onto file lines. */
export type LiveStream = Extract<Stream, { t: 'numbered' | 'plain' | 'grep' }>;

export interface WriteEnv {
  resolve(path: string): string;
  files: FileKnowledge;
}

export interface ShellTool {
  /** The command names it answers to, exactly as written. */
  names: readonly string[];
  /** A family of names (`python3.11`, `/usr/bin/python3`) beyond `names`. */
  matches?(name: string): boolean;
  /** Stage 1 of a pipeline: the lines it prints of a file, `none` if it is not a view. */
  source?(args: readonly string[], ctx: ViewContext): Stream;
  /** A source whose arguments hold substitutions is still a view of *something* (`uncertain`),
   * unless its views are too rare to assume one (`none`). Default `uncertain`. */
  dynamicSource?: 'uncertain' | 'none';
  /** Stage 2+: what it makes of the lines before it; `lose` gives them up with a reason. */
  filter?(prev: LiveStream, args: readonly string[], ctx: ViewContext, lose: (reason: string) => Stream): Stream;
  /** Files it writes (redirects are the pipeline's, not the tool's). */
  writes?(args: readonly string[], cmd: SimpleCommand, env: WriteEnv): WriteEffect[];
  /** It still writes when its arguments hold substitutions (a script spelled out in a here-doc). */
  writesWhenDynamic?: boolean;
  /** The text it prints when the command spells it out literally. */
  prints?(args: readonly string[], cmd: SimpleCommand): string | undefined;
  /** It prints nothing when it succeeds. */
  silent?(args: readonly string[]): boolean;
  /** The kind of check it runs (`name` as written, `args` after it), if it is one. */
  verifier?(name: string, args: readonly string[]): VerifierKind | undefined;
}
