import { LedgerError } from '../errors.js';

/**
 * SQL literals for values that must appear in generated SQL. Strings are quoted the standard way
 * (DuckDB treats backslashes literally); integers are checked. User text never reaches SQL any
 * other way.
 */
export function stringLiteral(value: string): string {
  if (typeof value !== 'string' || value.includes('\u0000')) {
    throw new LedgerError('INVALID_REQUEST', { field: 'string', reason: 'not a string, or contains NUL' });
  }
  return `'${value.replaceAll("'", "''")}'`;
}

export function intLiteral(value: number): string {
  if (!Number.isSafeInteger(value)) throw new LedgerError('INVALID_REQUEST', { field: 'integer', value });
  return String(value);
}

/** `(a, b, c)` for an IN list; `(NULL)` for an empty list so the predicate is simply false. */
export function intList(values: readonly number[]): string {
  return values.length === 0 ? '(NULL)' : `(${values.map(intLiteral).join(', ')})`;
}

export function stringList(values: readonly string[]): string {
  return values.length === 0 ? '(NULL)' : `(${values.map(stringLiteral).join(', ')})`;
}

/** `[a, b, c]::INTEGER[]` — a list literal for `unnest` semi-joins. */
export function intArray(values: readonly number[]): string {
  return `[${values.map(intLiteral).join(', ')}]::INTEGER[]`;
}
