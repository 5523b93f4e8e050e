/**
 * Support for a text query, as a probability-like value a host can threshold. Pure.
 *
 * Three features, all IDF-weighted shares of the query's content terms over the records valid at
 * the epoch within the authority scopes (claims, tasks and steering state what needs support, so
 * they give none):
 * - `coverage`: the best share any candidate contains;
 * - `subjectCoverage`: the best share a candidate *about a person the question names* states
 *   (equal to `coverage` when the question names no speaker): a record spoken by that person,
 *   counting only its statements — what they ask ("what got you into running?") is about the one
 *   asked — or a record by someone else counting only its statements addressed to the listener
 *   ("your race went great"; conversations are taken as two-party). A question about what
 *   Caroline said, whose words only Melanie's own statements contain, asks for evidence that is
 *   missing;
 * - `unseen`: the share no visible record contains at all (a word the ledger never saw).
 * Names the question shares with a speaker are not content terms: every turn of that speaker
 * would "contain" them.
 *
 * `support = σ(b0 + b1·subjectCoverage + b2·coverage)`; b2 < 0: content that only *someone
 * else's* records hold is evidence against the question, not for it (for a question naming no
 * speaker the two features are equal and support rises with coverage). The weights are a logistic regression
 * fitted on the shared LoCoMo conversations (`scripts/fit-support.ts`), label 1 when a question is
 * answerable *and* the returned evidence holds a gold turn, 0 when it is unanswerable (category 5)
 * or the evidence misses: so `support` estimates "the returned records support the question",
 * not "the question is answerable in the abstract". The features are shares, not corpus-specific
 * scores, so the model transfers to other corpora; the fit was validated leaving one
 * conversation out (see the README).
 */
export interface SupportFeatures {
  coverage: number;
  subjectCoverage: number;
  /** Share of the content terms that no visible record contains at all. */
  unseen: number;
}

/** Fitted weights; `unseen` acts through UNSEEN_LIMIT only (fitted as an input it came out positive). */
export const SUPPORT_MODEL = { intercept: -1.36, subjectCoverage: 6.57, coverage: -2.83, unseen: 0 } as const;

/**
 * A hard rule beside the model: when more than two thirds of the question's content (by IDF)
 * appears in no valid record at all, the evidence is missing by definition — whatever the
 * model's prior says (it was fitted on questions that are nearly all about the conversation).
 * On the shared LoCoMo data it fires on ~4% of answerable questions (unstemmable paraphrases).
 */
export const UNSEEN_LIMIT = 2 / 3;

/**
 * The default threshold: on the shared LoCoMo data, fitted leaving one conversation out, the
 * held-out support below which 10% of answerable questions (categories 1–4) fall — the issue's
 * bound on false abstention (with `UNSEEN_LIMIT` applied), 0.332, less one hundredth (at 0.33 the
 * final model, fitted on all seven conversations, abstained falsely on 10.1%). It abstained on
 * 50% of the unanswerable (category 5) questions there. Fitted on four conversations with the
 * threshold chosen there (0.341: 10.0% false, 50.9% category 5), the other three gave 10.9% false
 * and 52.5% category 5 (scripts/fit-support.ts prints both splits).
 */
export const DEFAULT_SUPPORT_THRESHOLD = 0.32;

export function calibratedSupport(f: SupportFeatures): number {
  const z =
    SUPPORT_MODEL.intercept +
    SUPPORT_MODEL.subjectCoverage * f.subjectCoverage +
    SUPPORT_MODEL.coverage * f.coverage +
    SUPPORT_MODEL.unseen * f.unseen;
  return 1 / (1 + Math.exp(-z));
}

export interface SupportCandidate {
  /** Query terms the record's body contains. */
  matched: ReadonlySet<string>;
  /** The record's speaker is a person the question names. */
  bySubject: boolean;
  /** Of `matched`, the terms the record states rather than asks (subject records; default all). */
  stated?: ReadonlySet<string>;
}

/**
 * The features over the candidates, and which content terms the best subject record lacks
 * (for the `missing` request).
 */
export function supportFeatures(
  idf: ReadonlyMap<string, number>,
  unseenTerms: ReadonlySet<string>,
  subjectTerms: ReadonlySet<string>,
  hasSubject: boolean,
  candidates: Iterable<SupportCandidate>,
): SupportFeatures & { lacking: string[] } {
  const content = [...idf.keys()].filter((t) => !subjectTerms.has(t)).sort();
  const total = content.reduce((a, t) => a + (idf.get(t) ?? 0), 0);
  let coverage = 0;
  let subjectCoverage = 0;
  let best: ReadonlySet<string> = new Set();
  for (const c of candidates) {
    const share = total > 0 ? content.reduce((a, t) => a + (c.matched.has(t) ? idf.get(t)! : 0), 0) / total : 0;
    if (share > coverage) coverage = share;
    if (!hasSubject || c.bySubject) {
      const own = c.stated ?? c.matched;
      const ownShare =
        own === c.matched
          ? share
          : total > 0
            ? content.reduce((a, t) => a + (own.has(t) ? idf.get(t)! : 0), 0) / total
            : 0;
      if (ownShare > subjectCoverage) {
        subjectCoverage = ownShare;
        best = own;
      }
    }
  }
  const unseen = total > 0 ? content.reduce((a, t) => a + (unseenTerms.has(t) ? idf.get(t)! : 0), 0) / total : 0;
  return { coverage, subjectCoverage, unseen, lacking: content.filter((t) => !best.has(t)) };
}
