import type { FusedCandidate } from '../rerank/fuse.js';
import {
  calibratedSupport,
  type SupportFeatures,
  supportFeatures,
  UNSEEN_LIMIT,
  type UnstatedWhy,
} from '../rerank/support.js';
import { textTerms, wordTerms } from '../text/text-terms.js';
import { asksForInference, INFERENCE_FRAMING, statementTerms } from './entities.js';
import type { MissingEvidence } from './exact-channel.js';
import type { LexicalResult } from './lexical-channel.js';
import type { ResolvedQuery } from './query.js';

export interface SupportEstimate {
  support: number;
  rawSupport: number;
  features?: SupportFeatures;
  /** What the estimate finds missing (empty when support reaches the threshold). */
  missing: MissingEvidence[];
}

/**
 * Support: exact constraints and required claims count as hard requirements (named missing
 * elsewhere); a text query's support is calibrated from how much of its content one record holds,
 * and whether that record is by the person the question names and *states* it: what a person asks
 * ("what got you into running?") is evidence about the one asked, not about the asker. A query
 * with neither text nor constraints is supported by its best vector or graph score.
 */
export function estimateSupport(
  q: ResolvedQuery,
  lexical: LexicalResult,
  dateTerms: ReadonlySet<string>,
  usable: (nid: number) => boolean,
  bodyOf: (nid: number) => string,
  selected: readonly FusedCandidate[],
  requiredClaims: number,
): SupportEstimate {
  const missing: MissingEvidence[] = [];
  if (q.text !== null && lexical.idf.size > 0) {
    // Not content: the names of the question's subjects (every turn of theirs holds them) and the
    // words of a date some record is dated in (its date is in `meta.date`, not its words).
    // An inference question's framing words ("likely", "might") are the asker's, not content.
    const inference = asksForInference(q.text);
    const subjectTerms = new Set([
      ...lexical.subjects.flatMap((n) => textTerms(n)),
      ...dateTerms,
      ...(inference ? INFERENCE_FRAMING.flatMap((w) => textTerms(w)) : []),
    ]);
    const f = supportFeatures(
      lexical.idf,
      lexical.unseen,
      subjectTerms,
      lexical.subjects.length > 0,
      [...lexical.matched]
        .filter(([nid]) => usable(nid) && lexical.evidential.has(nid))
        .map(([nid, matched]) => {
          if (lexical.subjects.length === 0) return { matched, bySubject: false };
          // A subject's record: what it states is about them, what it tells the listener about the
          // listener ("that charity race of yours sounds great") — unless the question names the
          // listener too. Someone else's record: what it tells the listener is about the subject
          // (conversations are taken as two-party), the rest about its speaker.
          const { speaker, listener } = statementTerms(bodyOf(nid), matched);
          if (!lexical.bySubject.has(nid)) return { matched, bySubject: true, stated: listener, other: speaker };
          return lexical.subjects.length > 1
            ? { matched, bySubject: true, stated: new Set([...speaker, ...listener]), other: new Set<string>() }
            : { matched, bySubject: true, stated: speaker, other: listener };
        }),
    );
    // A question whose every word names its subject or a date some record is dated in ("where
    // was James on July 12, 2022?") asks what was said then: the dated records are its evidence.
    if (dateTerms.size > 0 && [...lexical.idf.keys()].every((t) => subjectTerms.has(t))) {
      f.coverage = 1;
      f.subjectCoverage = 1;
    }
    const support = calibratedSupport({ ...f, inference: inference ? 1 : 0 });
    // An inference question's words need not be in the ledger: the hard rule is for stated facts.
    if (f.unseen > UNSEEN_LIMIT && !inference) {
      missing.push({
        reason: `most of the query appears in no valid record: ${[...lexical.unseen].filter((t) => !subjectTerms.has(t)).join(', ')}`,
      });
    } else if (support < q.supportThreshold) {
      const by = lexical.subjects.length > 0 ? ` by ${lexical.subjects.join(' or ')}` : '';
      const critical = criticalTerms(f.unstated, q.text, by);
      missing.push({
        reason: `no valid record${by} covers the query${critical}; not found together: ${f.lacking.join(', ') || '(no content words)'}`,
      });
    }
    return {
      support,
      rawSupport: f.subjectCoverage,
      features: {
        coverage: f.coverage,
        subjectCoverage: f.subjectCoverage,
        otherCoverage: f.otherCoverage,
        unseen: f.unseen,
        inference: inference ? 1 : 0,
      },
      missing,
    };
  }
  if (q.artifacts.length === 0 && requiredClaims === 0) {
    const support =
      selected.length > 0
        ? Math.min(1, Math.max(...selected.map((f) => Math.max(f.channels.vector, f.channels.graph))))
        : 0;
    if (support < q.supportThreshold) missing.push({ reason: 'nothing valid supports the query' });
    return { support, rawSupport: support, missing };
  }
  return { support: 1, rawSupport: 1, missing };
}

/** How many of the rarest unstated terms an abstention names. */
const CRITICAL_NAMED = 3;

/**
 * The rarest content words no record states about the question's subject, as the question spells
 * them, grouped by why: `: "grandpa" is in no valid record; "race" is stated only about someone
 * else`. Empty when every content word is stated somewhere (the words are only apart).
 */
function criticalTerms(unstated: ReadonlyArray<{ term: string; why: UnstatedWhy }>, text: string, by: string): string {
  const spelled = new Map<string, string>();
  for (const m of text.matchAll(/[A-Za-z0-9_]+/g))
    for (const t of wordTerms(m[0])) if (!spelled.has(t)) spelled.set(t, m[0].toLowerCase());
  const named = unstated.slice(0, CRITICAL_NAMED);
  const said: Record<UnstatedWhy, string> = {
    unseen: 'in no valid record',
    others: 'stated only about someone else',
    unstated: by === '' ? 'in none of the best-matching records' : `stated in no record${by}`,
  };
  const parts: string[] = [];
  for (const why of ['unseen', 'others', 'unstated'] as const) {
    const words = named.filter((u) => u.why === why).map((u) => `"${spelled.get(u.term) ?? u.term}"`);
    if (words.length > 0) parts.push(`${words.join(', ')} ${words.length === 1 ? 'is' : 'are'} ${said[why]}`);
  }
  return parts.length === 0 ? '' : `: ${parts.join('; ')}`;
}

/** Whatever is missing caps support below the threshold, so `support >= threshold` means supported. */
export function cappedSupport(support: number, threshold: number, missing: number): number {
  return missing > 0 ? Math.min(support, threshold > 0 ? threshold / 2 : 0) : support;
}
