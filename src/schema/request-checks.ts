import { LedgerError } from '../errors.js';
import { LIMITS } from './limits.js';

type Limit = keyof typeof LIMITS;

/**
 * The field checks every request entry shares (retrieve, materialize, the RDF view): each throws
 * INVALID_REQUEST naming the field and what it must be, so a caller fixes the field it names.
 */
export const invalidRequest = (field: string, reason: string): LedgerError =>
  new LedgerError('INVALID_REQUEST', { field, reason });

/** The request itself: a non-null object. */
export function requireObject(v: unknown, what: string): void {
  if (typeof v !== 'object' || v === null) throw invalidRequest('', `the ${what} must be an object`);
}

/** A safe integer `>= min`; `fallback` when absent (required when `fallback` is undefined). */
export function integerField(v: unknown, field: string, fallback?: number, min = 0): number {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) throw invalidRequest(field, `an integer >= ${min}`);
  return v;
}

/** LIMIT_EXCEEDED naming the field and the LIMITS entry it exceeds. */
export const limitExceeded = (field: string, limit: Limit, unit = ''): LedgerError =>
  new LedgerError('LIMIT_EXCEEDED', {
    field,
    limit,
    max: LIMITS[limit],
    reason: `at most ${LIMITS[limit]}${unit ? ` ${unit}` : ''} (LIMITS.${limit})`,
  });

/** `integerField`, and at most `LIMITS[limit]`. */
export function boundedIntegerField(v: unknown, field: string, fallback: number, min: number, limit: Limit): number {
  const n = integerField(v, field, fallback, min);
  if (n > LIMITS[limit]) throw limitExceeded(field, limit);
  return n;
}

/** A request's epoch: an integer from 0 to LIMITS.maxEpoch; `fallback` when absent. */
export const epochField = (v: unknown, fallback: number): number =>
  boundedIntegerField(v, 'epoch', fallback, 0, 'maxEpoch');

/** Refuses a list longer than `LIMITS[limit]` before any of it is read. */
export function checkListLength(v: unknown, field: string, limit: Limit): void {
  if (Array.isArray(v) && v.length > LIMITS[limit]) throw limitExceeded(field, limit, 'entries');
}

/** A non-empty string without NUL (what an id, path or scope may be); null when absent. */
export function stringField(v: unknown, field: string): string | null {
  if (v === undefined) return null;
  if (typeof v !== 'string' || v.length === 0 || v.includes('\u0000'))
    throw invalidRequest(field, 'a non-empty string');
  return v;
}

/** An array of non-empty strings, in the given order; a bad element is named by its index. */
export function stringListField(v: unknown, field: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw invalidRequest(field, 'an array of non-empty strings');
  return v.map((s, i) => {
    if (s === undefined) throw invalidRequest(`${field}[${i}]`, 'a non-empty string');
    return stringField(s, `${field}[${i}]`)!;
  });
}

/**
 * Authority scopes (or another set of names): de-duplicated and sorted, so the same scopes in any
 * order give the same request; null when absent (no restriction).
 */
export function scopeSetField(v: unknown, field: string): string[] | null {
  return v === undefined ? null : [...new Set(stringListField(v, field))].sort();
}
