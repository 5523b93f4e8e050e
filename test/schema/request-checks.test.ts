import { describe, expect, it } from 'vitest';
import { LedgerError } from '../../src/errors.js';
import { integerField, requireObject, scopeSetField, stringListField } from '../../src/schema/request-checks.js';

const fieldOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(LedgerError);
    expect((e as LedgerError).code).toBe('INVALID_REQUEST');
    return (e as LedgerError).details.field as string;
  }
  return undefined;
};

describe('request field checks shared by retrieve, materialize and the RDF view', () => {
  it('names the offending field, down to the element of a list', () => {
    expect(fieldOf(() => requireObject(null, 'query'))).toBe('');
    expect(fieldOf(() => integerField(1.5, 'hops', 2))).toBe('hops');
    expect(fieldOf(() => integerField(0, 'budget.records', 32, 1))).toBe('budget.records');
    expect(fieldOf(() => integerField(undefined, 'budget.tokens'))).toBe('budget.tokens');
    expect(fieldOf(() => stringListField(['a', ''], 'claims'))).toBe('claims[1]');
    expect(fieldOf(() => stringListField(['a', undefined], 'claims'))).toBe('claims[1]');
    expect(fieldOf(() => scopeSetField('user', 'authority'))).toBe('authority');
    expect(fieldOf(() => scopeSetField(['a\u0000'], 'authority'))).toBe('authority[0]');
  });

  it('fills defaults and normalises scope sets', () => {
    expect(integerField(undefined, 'hops', 2)).toBe(2);
    expect(integerField(7, 'hops', 2)).toBe(7);
    expect(stringListField(['b', 'a', 'b'], 'claims')).toEqual(['b', 'a', 'b']);
    expect(scopeSetField(['user', 'repo:x', 'user'], 'authority')).toEqual(['repo:x', 'user']);
    expect(scopeSetField(undefined, 'authority')).toBeNull();
  });
});
