/**
 * The one catalogue of error codes. Every failure the library reports is a `LedgerError` whose
 * `code` is a key of ERROR_CATALOGUE and whose `details` name the offending field; tests match
 * on the code, never on the message.
 */
export const ERROR_CATALOGUE = {
  INVALID_TRANSACTION: 'The transaction is not an object of the documented shape',
  INVALID_EPOCH: 'The epoch must be an integer from 0 to 2147483647 (LIMITS.maxEpoch)',
  EPOCH_REGRESSION: 'The epoch is smaller than the last committed epoch',
  INVALID_ID: 'An id must be a non-empty string of at most 512 characters without control characters',
  INVALID_TEXT: 'The text cannot be stored and read back exactly (lone surrogate, or a byte-order mark)',
  DUPLICATE_ID: 'The id is already used',
  INVALID_NODE_KIND: 'Unknown node kind',
  INVALID_EDGE_KIND: 'Unknown edge kind',
  EDGE_KIND_MISMATCH: 'The edge kind may not join these node kinds',
  DANGLING_EDGE: 'The edge names a node that does not exist or is no longer valid',
  DUPLICATE_EDGE: 'The same edge is already valid',
  INVALID_STATUS: 'The status is not allowed for this node kind',
  INVALID_FIELD: 'A field has the wrong type',
  INVALID_RANGE: 'A line range must be two positive integers with first <= last',
  INVALID_PATH: 'A path must be a non-empty string without control characters',
  BODY_TOO_LARGE: 'The body exceeds the documented limit',
  LIMIT_EXCEEDED: 'A field exceeds its documented limit (LIMITS, details.limit names it)',
  UNKNOWN_NODE: 'No node has this id',
  SNAPSHOT_CORRUPT: 'The snapshot bytes are not a complete, intact ledger snapshot',
  SNAPSHOT_ENCODING_MISMATCH: 'The snapshot was written with another token encoding',
  INVALID_OPTION: 'An option has a wrong value',
  INVALID_REQUEST: 'A request field has a wrong value',
  ARCHIVE_REFUSED: 'The transaction cannot be archived',
  ASSET_UNAVAILABLE: 'A WebAssembly or data asset could not be loaded',
  STORAGE_FAILED: 'The storage adapter failed; the commit was not applied',
  STORAGE_IN_USE: 'The storage object already belongs to another ledger',
  LEDGER_CLOSED: 'The ledger is closed',
  ENGINE_FAILED: 'The database engine failed',
  INTERNAL: 'An unexpected internal failure (a bug: please report it with details.cause)',
  DEPENDENCY_MISSING: 'An optional package this feature needs is not installed',
  INVALID_QUERY: 'The SPARQL query is malformed, or asks for more than a read-only view can answer',
} as const;

/** A code of `ERROR_CATALOGUE`. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** What a `LedgerError` says about the failure: `field` names the offending input where there is one. */
export interface ErrorDetails {
  /** The offending field, as a path into the input (e.g. `nodes[2].range`). */
  field?: string;
  [key: string]: unknown;
}

/** The one error class of the public API: a `code` from `ERROR_CATALOGUE` and `details`. */
export class LedgerError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  /** An error with `code`, `details` and the original error as `cause`. */
  constructor(code: ErrorCode, details: ErrorDetails = {}, cause?: unknown) {
    super(messageOf(code, details), cause === undefined ? undefined : { cause });
    this.name = 'LedgerError';
    this.code = code;
    this.details = details;
  }
}

/**
 * The one place a LedgerError's message is formatted: `CODE: catalogue text (field): reason`.
 * A reason that quotes another error's message of the same code (a wrapped cause) keeps only
 * what that message adds — its field and reason — so the code and its text appear once.
 */
function messageOf(code: ErrorCode, details: ErrorDetails): string {
  const head = `${code}: ${ERROR_CATALOGUE[code]}`;
  const where = details.field ? ` (${details.field})` : '';
  let reason = typeof details.reason === 'string' ? details.reason : undefined;
  while (reason?.startsWith(head)) {
    const rest = reason.slice(head.length);
    const inner = /^ \(([^)]*)\)/.exec(rest);
    const after = (inner ? rest.slice(inner[0].length) : rest).replace(/^: /, '');
    reason = inner ? (after ? `${inner[1]}: ${after}` : inner[1]!) : after;
  }
  return `${head}${where}${reason ? `: ${reason}` : ''}`;
}

/** Whether `e` is a `LedgerError` (with `code`, when given). */
export const isLedgerError = (e: unknown, code?: ErrorCode): e is LedgerError =>
  e instanceof LedgerError && (code === undefined || e.code === code);

/**
 * The error a public call rejects with: a LedgerError as it is, anything else (a TypeError from
 * a bug, an engine or runtime failure) wrapped as `code` with the original as `cause`, so no
 * uncoded error ever reaches a caller.
 */
export function asLedgerError(e: unknown, code: ErrorCode = 'INTERNAL', field = ''): LedgerError {
  if (e instanceof LedgerError) return e;
  const reason = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return new LedgerError(code, { field, reason }, e);
}
