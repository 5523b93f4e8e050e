import { LedgerError } from '../errors.js';
import type { Budget } from './pack.js';
import type { MaterializeRequest } from './types.js';

export const DEFAULT_HOPS = 6;
export const DEFAULT_MAX_NODES = 128;

export interface ResolvedRequest {
  epoch: number;
  roots: string[] | null;
  budget: Budget;
  authority: string[] | null;
  hops: number;
  maxNodes: number;
  excerpts: boolean;
}

/** Checks a materialize request and fills its defaults once; INVALID_REQUEST names the field. */
export function resolveMaterializeRequest(request: MaterializeRequest, lastEpoch: number): ResolvedRequest {
  const bad = (field: string, reason: string) => new LedgerError('INVALID_REQUEST', { field, reason });
  if (typeof request !== 'object' || request === null) throw bad('', 'the request must be an object');
  const count = (v: unknown, field: string, min = 0): number => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) throw bad(field, `an integer >= ${min}`);
    return v;
  };
  const epoch = request.epoch === undefined ? lastEpoch : count(request.epoch, 'epoch');
  if (typeof request.budget !== 'object' || request.budget === null)
    throw bad('budget', 'required: { tokens, records?, chars? }');
  const budget: Budget = {
    tokens: count(request.budget.tokens, 'budget.tokens'),
    records:
      request.budget.records === undefined ? Number.MAX_SAFE_INTEGER : count(request.budget.records, 'budget.records'),
    chars: request.budget.chars === undefined ? Number.MAX_SAFE_INTEGER : count(request.budget.chars, 'budget.chars'),
  };
  const flag = (v: unknown, field: string, fallback: boolean): boolean => {
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') throw bad(field, 'a boolean');
    return v;
  };
  const strings = (v: unknown, field: string): string[] => {
    if (!Array.isArray(v) || v.some((s) => typeof s !== 'string' || s.length === 0 || s.includes('\u0000'))) {
      throw bad(field, 'an array of non-empty strings');
    }
    return [...new Set(v as string[])].sort();
  };
  return {
    epoch,
    roots: request.roots === undefined ? null : strings(request.roots, 'roots'),
    budget,
    authority: request.authority === undefined ? null : strings(request.authority, 'authority'),
    hops: request.hops === undefined ? DEFAULT_HOPS : count(request.hops, 'hops'),
    maxNodes: request.maxNodes === undefined ? DEFAULT_MAX_NODES : count(request.maxNodes, 'maxNodes', 1),
    excerpts: flag(request.excerpts, 'excerpts', true),
  };
}
