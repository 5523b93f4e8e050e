import { LedgerError } from '../errors.js';
import { DEFAULT_SUPPORT_THRESHOLD } from '../rerank/support.js';
import { LIMITS } from '../schema/limits.js';
import {
  boundedIntegerField,
  checkListLength,
  epochField,
  integerField,
  invalidRequest,
  limitExceeded,
  requireObject,
  scopeSetField,
  stringField,
  stringListField,
} from '../schema/request-checks.js';
import type { LineRange } from '../schema/types.js';

/** What a caller asks retrieval for. Field names are part of the public contract. */
export interface RetrievalQuery {
  /** Task epoch; defaults to the last committed epoch. */
  epoch?: number;
  /** The active task, action and claims: graph seeds; required claims must be supported. */
  task?: string;
  action?: string;
  claims?: readonly string[];
  /** Exact artifact constraints; each must be covered by valid evidence or it is named missing. */
  artifacts?: ReadonlyArray<{ path: string; revision?: string; range?: LineRange; hash?: string }>;
  /** Authority scopes the caller may read; default: all. */
  authority?: readonly string[];
  text?: string;
  /** A query vector from the same embedder as the ledger's (default: the text, embedded). */
  vector?: readonly number[];
  /** Host-supplied semantic scores by record id (replace the vector channel). */
  scores?: Readonly<Record<string, number>>;
  /** Defaults: 32 records, 48,000 characters of bodies. */
  budget?: { records?: number; chars?: number };
  /** Calibrated support below this abstains (default DEFAULT_SUPPORT_THRESHOLD, rerank/support.ts). */
  supportThreshold?: number;
  /** Graph expansion hops from the seeds (default 2; 0 disables the graph channel). */
  hops?: number;
  /** Candidates each channel contributes (default 64). */
  perChannel?: number;
  /** Channels to run (default all five). */
  channels?: ReadonlyArray<'exact' | 'lexical' | 'vector' | 'graph' | 'temporal'>;
}

export interface ResolvedQuery {
  epoch: number;
  task: string | null;
  action: string | null;
  claims: string[];
  artifacts: Array<{ path: string; revision?: string; range?: LineRange; hash?: string }>;
  authority: string[] | null;
  text: string | null;
  vector: Float32Array | null;
  scores: Map<string, number> | null;
  budget: { records: number; chars: number };
  supportThreshold: number;
  hops: number;
  perChannel: number;
  channels: Set<'exact' | 'lexical' | 'vector' | 'graph' | 'temporal'>;
}

/** Checks a query and fills its defaults once; INVALID_REQUEST names a wrong field,
 * LIMIT_EXCEEDED one over its LIMITS entry (refused before any of it is read; nothing is clamped). */
export function resolveRetrievalQuery(q: RetrievalQuery, lastEpoch: number): ResolvedQuery {
  requireObject(q, 'query');
  checkListLength(q.artifacts, 'artifacts', 'maxArtifacts');
  checkListLength(q.claims, 'claims', 'maxClaims');
  checkListLength(q.authority, 'authority', 'maxAuthorityScopes');
  if (typeof q.text === 'string' && q.text.length > LIMITS.maxQueryChars)
    throw limitExceeded('text', 'maxQueryChars', 'characters');
  const artifacts = (q.artifacts ?? []).map((a, i) => {
    const at = `artifacts[${i}]`;
    if (typeof a !== 'object' || a === null) throw invalidRequest(at, 'an object');
    const out: ResolvedQuery['artifacts'][number] = {
      path:
        stringField(a.path, `${at}.path`) ??
        (() => {
          throw invalidRequest(`${at}.path`, 'required');
        })(),
    };
    if (a.revision !== undefined) out.revision = stringField(a.revision, `${at}.revision`)!;
    if (a.hash !== undefined) out.hash = stringField(a.hash, `${at}.hash`)!;
    if (a.range !== undefined) {
      const r = a.range;
      if (!Array.isArray(r) || r.length !== 2 || !r.every((x) => Number.isSafeInteger(x) && x >= 1) || r[0] > r[1]) {
        throw new LedgerError('INVALID_RANGE', { field: `${at}.range`, value: r });
      }
      out.range = [r[0], r[1]];
    }
    return out;
  });
  let vector: Float32Array | null = null;
  if (q.vector !== undefined) {
    if (
      !Array.isArray(q.vector) ||
      q.vector.length === 0 ||
      !q.vector.every((x) => typeof x === 'number' && Number.isFinite(x))
    ) {
      throw invalidRequest('vector', 'a non-empty array of finite numbers');
    }
    vector = Float32Array.from(q.vector);
  }
  let scores: Map<string, number> | null = null;
  if (q.scores !== undefined) {
    if (typeof q.scores !== 'object' || q.scores === null) throw invalidRequest('scores', 'an object of id → number');
    scores = new Map();
    const entries = Object.entries(q.scores);
    if (entries.length > LIMITS.maxScores) throw limitExceeded('scores', 'maxScores', 'entries');
    for (const [id, s] of entries) {
      if (typeof s !== 'number' || !Number.isFinite(s)) throw invalidRequest(`scores.${id}`, 'a finite number');
      scores.set(id, s);
    }
  }
  const threshold = q.supportThreshold ?? DEFAULT_SUPPORT_THRESHOLD;
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1))
    throw invalidRequest('supportThreshold', 'a number in [0, 1]');
  return {
    epoch: epochField(q.epoch, lastEpoch),
    task: stringField(q.task, 'task'),
    action: stringField(q.action, 'action'),
    claims: stringListField(q.claims, 'claims'),
    artifacts,
    authority: scopeSetField(q.authority, 'authority'),
    text:
      q.text === undefined
        ? null
        : typeof q.text === 'string'
          ? q.text
          : (() => {
              throw invalidRequest('text', 'a string');
            })(),
    vector,
    scores,
    budget: {
      records: integerField(q.budget?.records, 'budget.records', 32, 1),
      chars: integerField(q.budget?.chars, 'budget.chars', 48_000, 1),
    },
    supportThreshold: threshold,
    hops: boundedIntegerField(q.hops, 'hops', 2, 0, 'maxHops'),
    perChannel: boundedIntegerField(q.perChannel, 'perChannel', 64, 1, 'maxPerChannel'),
    channels: channelSet(q.channels),
  };
}

/** Every channel, in the order a default request runs them. */
export const ALL_CHANNELS = ['exact', 'lexical', 'vector', 'graph', 'temporal'] as const;

function channelSet(v: unknown): ResolvedQuery['channels'] {
  if (v === undefined) return new Set(ALL_CHANNELS);
  if (!Array.isArray(v) || v.some((c) => !(ALL_CHANNELS as readonly unknown[]).includes(c))) {
    throw invalidRequest('channels', `a subset of ${ALL_CHANNELS.join(', ')}`);
  }
  return new Set(v as ResolvedQuery['channels'] extends Set<infer T> ? T[] : never);
}
