import { LedgerError } from '../errors.js';

/**
 * A private copy of a caller's transaction, taken when `commit()` is called: the commit runs
 * later (after the commits queued before it) and awaits between validating and planning, so a
 * caller mutating the object meanwhile would otherwise get unvalidated fields planned and logged.
 * Plain objects and arrays are copied down to the deepest level a valid transaction has
 * (`nodes[i].changed[j][k]`); anything else is kept as is for validation to judge. A getter or
 * proxy that throws makes the transaction invalid, not the call.
 */
export function copyInput<T>(tx: T): T {
  try {
    return copy(tx, 0) as T;
  } catch (cause) {
    throw new LedgerError('INVALID_TRANSACTION', { field: '', reason: 'the transaction could not be read' }, cause);
  }
}

const MAX_DEPTH = 5;

function copy(v: unknown, depth: number): unknown {
  if (typeof v !== 'object' || v === null || depth > MAX_DEPTH) return v;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copy(v[i], depth + 1);
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const value = copy((v as Record<string, unknown>)[k], depth + 1);
    // An own `__proto__` key (JSON.parse makes them) must stay a key for validation to refuse,
    // not become the copy's prototype.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
    else out[k] = value;
  }
  return out;
}
