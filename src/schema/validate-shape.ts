import { LedgerError } from '../errors.js';
import { EDGE_JOINS, isEdgeKind, isNodeKind, STATUS_RULES, STATUSES } from './kinds.js';
import { LIMITS } from './limits.js';
import { checkText } from './text-rule.js';
import type { EdgeInput, LineRange, NodeInput, Transaction, TransitionInput } from './types.js';

/**
 * Checks a transaction's shape and types without looking at the ledger: every field of the
 * documented type, kinds known, statuses allowed for the kind, ranges well-formed, no unknown
 * fields (a misspelt field would otherwise be silently lost). Throws the first problem with the
 * offending field named. Quotes or SQL inside strings are data, not errors: nothing is ever
 * interpolated into SQL.
 */
export function validateShape(tx: unknown): asserts tx is Transaction {
  if (!isPlainObject(tx)) throw new LedgerError('INVALID_TRANSACTION', { field: '' });
  checkKeys(tx, TX_KEYS, false);
  const epoch = tx.epoch;
  if (typeof epoch !== 'number' || !Number.isSafeInteger(epoch) || epoch < 0 || epoch > LIMITS.maxEpoch) {
    throw new LedgerError('INVALID_EPOCH', { field: 'epoch', value: epoch, limit: 'maxEpoch', max: LIMITS.maxEpoch });
  }
  for (const name of ['nodes', 'edges', 'transitions'] as const) {
    const list = tx[name];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new LedgerError('INVALID_FIELD', { field: name, reason: 'must be an array' });
    if (list.length > LIMITS.maxRecordsPerTransaction) {
      throw new LedgerError('INVALID_FIELD', { field: name, reason: `more than ${LIMITS.maxRecordsPerTransaction}` });
    }
  }
  validateList(tx.nodes as unknown[] | undefined, 'nodes', validateNode);
  validateList(tx.edges as unknown[] | undefined, 'edges', validateEdge);
  validateList(tx.transitions as unknown[] | undefined, 'transitions', validateTransition);
}

/**
 * Where the record being checked sits, e.g. `nodes[12]`. Field names are built only when a check
 * fails: building `nodes[12].id` and friends for every record up front was ~7 MB of garbage per
 * 10k-node transaction, most of the validation's cost. (Validation is synchronous, so one
 * module-level location is enough.)
 */
const where = { list: '', index: 0 };
const at = (suffix = ''): string => `${where.list}[${where.index}]${suffix}`;

function validateList(list: unknown[] | undefined, name: string, check: (record: unknown) => void): void {
  if (list === undefined) return;
  where.list = name;
  for (let i = 0; i < list.length; i++) {
    where.index = i;
    check(list[i]);
  }
}

const TX_KEYS = new Set(['epoch', 'nodes', 'edges', 'transitions']);
const NODE_KEYS = new Set<keyof NodeInput>([
  'id',
  'kind',
  'status',
  'authority',
  'body',
  'path',
  'revision',
  'range',
  'changed',
  'verifier',
  'tool',
  'role',
  'meta',
]);
const EDGE_KEYS = new Set<keyof EdgeInput>(['from', 'to', 'kind']);
const TRANSITION_KEYS = new Set<keyof TransitionInput>(['id', 'status']);
const ROLES = new Set(['user', 'assistant', 'system', 'tool']);

function validateNode(n: unknown): asserts n is NodeInput {
  if (!isPlainObject(n)) throw new LedgerError('INVALID_FIELD', { field: at(), reason: 'must be an object' });
  checkKeys(n, NODE_KEYS as Set<string>, true);
  checkId(n.id, '.id');
  if (!isNodeKind(n.kind)) throw new LedgerError('INVALID_NODE_KIND', { field: at('.kind'), value: n.kind });
  const rule = STATUS_RULES[n.kind];
  if (n.status !== undefined && !rule.allowed.includes(n.status as never)) {
    throw new LedgerError('INVALID_STATUS', { field: at('.status'), value: n.status, allowed: rule.allowed });
  }
  if (n.kind === 'verifier_outcome' && n.status === undefined) {
    throw new LedgerError('INVALID_STATUS', {
      field: at('.status'),
      reason: 'a verifier outcome needs passed, failed or error',
    });
  }
  if (n.authority !== undefined) checkName(n.authority, '.authority', LIMITS.maxIdChars);
  if (n.body !== undefined) {
    if (typeof n.body !== 'string')
      throw new LedgerError('INVALID_FIELD', { field: at('.body'), reason: 'must be a string' });
    if (n.body.length > LIMITS.maxBodyChars) {
      throw new LedgerError('BODY_TOO_LARGE', {
        field: at('.body'),
        chars: n.body.length,
        limit: LIMITS.maxBodyChars,
      });
    }
    checkText(n.body, 'text', () => at('.body'));
  }
  if (n.path !== undefined) checkPath(n.path, '.path');
  if ((n.kind === 'evidence' || n.kind === 'artifact_revision') && n.path === undefined) {
    throw new LedgerError('INVALID_PATH', { field: at('.path'), reason: `a ${n.kind} needs a path` });
  }
  for (const key of ['revision', 'verifier', 'tool'] as const) {
    if (n[key] !== undefined) checkName(n[key], `.${key}`, LIMITS.maxIdChars);
  }
  if (n.role !== undefined && !ROLES.has(n.role as string)) {
    throw new LedgerError('INVALID_FIELD', { field: at('.role'), reason: 'user, assistant, system or tool' });
  }
  if (n.range !== undefined) checkRange(n.range, '.range');
  if (n.changed !== undefined) {
    if (!Array.isArray(n.changed))
      throw new LedgerError('INVALID_FIELD', { field: at('.changed'), reason: 'must be an array of ranges' });
    n.changed.forEach((r, i) => {
      checkRange(r, `.changed[${i}]`);
    });
  }
  if (n.meta !== undefined) {
    if (!isPlainObject(n.meta))
      throw new LedgerError('INVALID_FIELD', { field: at('.meta'), reason: 'must be an object' });
    let chars = 0;
    for (const [k, v] of Object.entries(n.meta)) {
      const ok =
        v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
      if (!ok) throw new LedgerError('INVALID_FIELD', { field: at(`.meta.${k}`), reason: 'scalars only' });
      chars += k.length + (typeof v === 'string' ? v.length : 0);
      if (chars > LIMITS.maxMetaChars) {
        throw new LedgerError('LIMIT_EXCEEDED', {
          field: at('.meta'),
          limit: 'maxMetaChars',
          max: LIMITS.maxMetaChars,
          reason: `keys and string values of more than ${LIMITS.maxMetaChars} characters`,
        });
      }
      checkText(k, 'text', () => at('.meta'));
      if (typeof v === 'string') checkText(v, 'text', () => at(`.meta.${k}`));
    }
  }
}

function validateEdge(e: unknown): asserts e is EdgeInput {
  if (!isPlainObject(e)) throw new LedgerError('INVALID_FIELD', { field: at(), reason: 'must be an object' });
  checkKeys(e, EDGE_KEYS as Set<string>, true);
  checkId(e.from, '.from');
  checkId(e.to, '.to');
  if (!isEdgeKind(e.kind)) throw new LedgerError('INVALID_EDGE_KIND', { field: at('.kind'), value: e.kind });
  if (e.from === e.to)
    throw new LedgerError('EDGE_KIND_MISMATCH', { field: at(), reason: 'an edge may not join a node to itself' });
  if (!EDGE_JOINS[e.kind]) throw new LedgerError('INVALID_EDGE_KIND', { field: at('.kind'), value: e.kind });
}

function validateTransition(t: unknown): asserts t is TransitionInput {
  if (!isPlainObject(t)) throw new LedgerError('INVALID_FIELD', { field: at(), reason: 'must be an object' });
  checkKeys(t, TRANSITION_KEYS as Set<string>, true);
  checkId(t.id, '.id');
  if (!(STATUSES as readonly unknown[]).includes(t.status)) {
    throw new LedgerError('INVALID_STATUS', { field: at('.status'), value: t.status });
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
const CONTROL = /[\u0000-\u001f\u007f]/;

function checkId(v: unknown, suffix: string): asserts v is string {
  if (typeof v !== 'string' || v.length === 0 || v.length > LIMITS.maxIdChars || CONTROL.test(v)) {
    throw new LedgerError('INVALID_ID', { field: at(suffix), value: typeof v === 'string' ? v.slice(0, 80) : v });
  }
  checkText(v, 'name', () => at(suffix));
}

function checkName(v: unknown, suffix: string, max: number): asserts v is string {
  if (typeof v !== 'string' || v.length === 0 || v.length > max || CONTROL.test(v)) {
    throw new LedgerError('INVALID_FIELD', {
      field: at(suffix),
      reason: `a non-empty string of at most ${max} characters without control characters`,
    });
  }
  checkText(v, 'name', () => at(suffix));
}

function checkPath(v: unknown, suffix: string): asserts v is string {
  if (typeof v !== 'string' || v.length === 0 || v.length > LIMITS.maxPathChars || CONTROL.test(v)) {
    throw new LedgerError('INVALID_PATH', { field: at(suffix), value: typeof v === 'string' ? v.slice(0, 80) : v });
  }
  checkText(v, 'name', () => at(suffix));
}

function checkRange(v: unknown, suffix: string): asserts v is LineRange {
  const ok =
    Array.isArray(v) &&
    v.length === 2 &&
    v.every((x) => Number.isSafeInteger(x) && x >= 1 && x <= LIMITS.maxLine) &&
    (v[0] as number) <= (v[1] as number);
  if (!ok) throw new LedgerError('INVALID_RANGE', { field: at(suffix), value: v });
}

/** `for…in` avoids the array `Object.keys` allocates for every record; the own-key test keeps
 * it to what `Object.keys` would list. */
function checkKeys(o: Record<string, unknown>, allowed: Set<string>, inRecord: boolean): void {
  for (const k in o) {
    if (!allowed.has(k) && Object.hasOwn(o, k))
      throw new LedgerError('INVALID_FIELD', { field: inRecord ? at(`.${k}`) : k, reason: 'unknown field' });
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
