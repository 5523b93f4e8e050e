import type { LineRange, Transaction } from '../schema/types.js';

/** Options every adapter accepts. */
export interface AdapterOptions {
  /** Prepended to every node id (and to revision ids) so several traces can share a ledger. Default ''. */
  idPrefix?: string | undefined;
  /**
   * Absolute repository root stripped from paths (e.g. `/repo`), so evidence and revisions use
   * repository-relative paths. Mini-swe-agent and SWE-agent traces know theirs (`/testbed`, the
   * working directory); chat transcripts do not, so absolute paths stay absolute unless given.
   */
  repoRoot?: string | undefined;
}

/** What an adapter saw and how much of it it could turn into typed graph facts. */
export interface AdapterStats {
  /** Agent steps (epochs >= 1) emitted. */
  steps: number;
  /** Tool calls / commands emitted. */
  commands: number;
  /** Commands from which at least one view, write or verifier was recognised. */
  recognised: number;
  /** Counts per category (see docs/guide/ingest.md, "Stats": view, view-uncertain, write, verifier, …). */
  byCategory: Record<string, number>;
  /** Everything the adapter skipped or repaired, by step (epoch). */
  warnings: Array<{ step: number; reason: string }>;
}

/** What a transcript adapter returns: the transactions to commit in order, counts and warnings, and the pre-images of edits. */
export interface AdaptedTrace {
  transactions: Transaction[];
  stats: AdapterStats;
  /**
   * For each write whose changed lines were all known just before it (a line-addressed or
   * substitution edit on a viewed revision, a str_replace, a diff): those lines as they stood —
   * the edit's exact pre-image. Writes with unknown changed ranges or unseen lines have none.
   */
  preImages: PreImage[];
}

/** The lines a write replaced, as they stood just before it. */
export interface PreImage {
  /** Step (epoch) of the write. */
  epoch: number;
  path: string;
  /** Id of the revision the write made. */
  revision: string;
  lines: Array<{ line: number; text: string }>;
}

export type VerifierStatus = 'passed' | 'failed' | 'error';

/**
 * One fact recognised in a command, in the order the command produced it. Effects are applied in
 * order, so a view after a write in the same command cites the new revision.
 */
export type Effect = ViewEffect | UncertainViewEffect | WriteEffect | VerifierEffect;

/** Lines of a file displayed with certain line numbers. `lines.length === range[1] - range[0] + 1`. */
export interface ViewEffect {
  kind: 'view';
  /** Path as written in the command (normalised by the builder). */
  path: string;
  range: LineRange;
  lines: string[];
  /** The view displayed the whole file, so its length is known. */
  whole?: boolean | undefined;
  /** The file's total line count when the tool reported it. */
  total?: number | undefined;
}

/** A command that displayed file lines whose numbers are not certain: counted, never emitted. */
interface UncertainViewEffect {
  kind: 'view-uncertain';
  path?: string | undefined;
  reason: string;
}

export interface WriteEffect {
  kind: 'write';
  path: string;
  /** Line ranges of the previous revision that changed; undefined when not knowable. */
  changed?: LineRange[] | undefined;
  /** The new file content when the command gives it whole. */
  content?: string | undefined;
  /** The file was restored from version control (git checkout/restore). */
  revert?: boolean | undefined;
}

export interface VerifierEffect {
  kind: 'verifier';
  /** The normalised command (whitespace collapsed). */
  command: string;
  status: VerifierStatus;
}

/** What recognisers may ask about files already seen in the trace (read-only). */
export interface FileKnowledge {
  /** Total line count of the path's current revision, when known. */
  lineCount(path: string): number | undefined;
  /** Known lines (1-based line → text) of the path's current revision. */
  knownLines(path: string): ReadonlyMap<number, string> | undefined;
  /** Full content of the path's current revision, when known (e.g. a script written by a heredoc). */
  content(path: string): string | undefined;
}

/** Resolves paths written in commands to repository-relative paths. */
export type PathNormaliser = (path: string, cwd?: string) => string;
