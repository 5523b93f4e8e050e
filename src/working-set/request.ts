import {
  boundedIntegerField,
  checkListLength,
  epochField,
  integerField,
  invalidRequest,
  requireObject,
  scopeSetField,
} from '../schema/request-checks.js';
import type { Budget } from './pack.js';
import type { Framing, MaterializeRequest } from './types.js';

const DEFAULT_HOPS = 6;
const DEFAULT_MAX_NODES = 128;

export interface ResolvedRequest {
  epoch: number;
  roots: string[] | null;
  budget: Budget;
  authority: string[] | null;
  hops: number;
  maxNodes: number;
  excerpts: boolean;
  mode: 'session' | 'fresh';
  framing: Framing;
  /** Which optional budget fields the caller gave (the working set echoes only those). */
  given: { records: boolean; chars: boolean };
}

/** Checks a materialize request and fills its defaults once; INVALID_REQUEST names the field,
 * LIMIT_EXCEEDED the field over its LIMITS entry (nothing is clamped). */
export function resolveMaterializeRequest(request: MaterializeRequest, lastEpoch: number): ResolvedRequest {
  requireObject(request, 'request');
  const epoch = epochField(request.epoch, lastEpoch);
  checkListLength(request.roots, 'roots', 'maxRoots');
  checkListLength(request.authority, 'authority', 'maxAuthorityScopes');
  if (typeof request.budget !== 'object' || request.budget === null)
    throw invalidRequest('budget', 'required: { tokens, records?, chars? }');
  const budget: Budget = {
    tokens: integerField(request.budget.tokens, 'budget.tokens'),
    records: integerField(request.budget.records, 'budget.records', Number.MAX_SAFE_INTEGER),
    chars: integerField(request.budget.chars, 'budget.chars', Number.MAX_SAFE_INTEGER),
  };
  return {
    epoch,
    roots: scopeSetField(request.roots, 'roots'),
    budget,
    authority: scopeSetField(request.authority, 'authority'),
    hops: boundedIntegerField(request.hops, 'hops', DEFAULT_HOPS, 0, 'maxHops'),
    maxNodes: boundedIntegerField(request.maxNodes, 'maxNodes', DEFAULT_MAX_NODES, 1, 'maxClosureNodes'),
    excerpts: flagField(request.excerpts, 'excerpts', true),
    mode: modeField(request.mode),
    framing: framingField(request.framing),
    given: { records: request.budget.records !== undefined, chars: request.budget.chars !== undefined },
  };
}

/** A boolean; `fallback` when absent. */
function flagField(v: unknown, field: string, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw invalidRequest(field, 'a boolean');
  return v;
}

/** `'session'` (the default) or `'fresh'`. */
function modeField(v: unknown): 'session' | 'fresh' {
  if (v === undefined) return 'session';
  if (v !== 'session' && v !== 'fresh') throw invalidRequest('mode', "'session' or 'fresh'");
  return v;
}

/** `'none'` (the default) or `'messages'`. */
function framingField(v: unknown): Framing {
  if (v === undefined) return 'none';
  if (v !== 'none' && v !== 'messages') throw invalidRequest('framing', "'none' or 'messages'");
  return v;
}
