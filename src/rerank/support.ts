/**
 * Support for a text query, as a probability-like value a host can threshold. Pure.
 *
 * The features are IDF-weighted shares of the query's content terms over the records valid at
 * the epoch within the authority scopes (claims, tasks and steering state what needs support, so
 * they give none). They measure *missing evidence*, not phrasing:
 * - `coverage`: the best share any candidate contains (reported; not in the model);
 * - `subjectCoverage`: the best share a candidate states *about a person the question names*
 *   (equal to `coverage` when the question names no speaker): a record spoken by that person,
 *   counting only its statements — what they ask ("what got you into running?") is about the one
 *   asked — or a record by someone else counting only its statements addressed to the listener
 *   ("your race went great"; conversations are taken as two-party);
 * - `otherCoverage`: the best share a candidate states about *someone else*: another speaker's
 *   statements that do not address the listener, or what the named person tells the listener.
 *   A question about what Caroline realised after her charity race, whose words Melanie's account
 *   of her own race holds, asks for evidence that is missing (0 when the question names no speaker);
 * - `unseen`: the share no visible record contains at all (a word the ledger never saw);
 * - `inference`: 1 when the question asks for an inference ("would Caroline likely …"), 0 otherwise.
 * Names the question shares with a speaker are not content terms: every turn of that speaker
 * would "contain" them.
 *
 * `support = σ(b0 + b1·subjectCoverage + b2·otherCoverage)`, b2 < 0; for an inference question
 * `σ(b0 + b1·subjectCoverage)`: it asks what follows from what the ledger holds about its subject,
 * so what others said is no sign of a fact moved to the wrong person (the fit leaves these
 * questions out: unanswerable ones are made by moving or changing a stated fact). The weights are a logistic
 * regression fitted on the shared LoCoMo conversations (`scripts/fit-support.ts`), label 1 when a
 * question is answerable (categories 1–4), 0 when it is not (category 5): `support` estimates
 * "the ledger holds the evidence this question asks for". The features are shares, not
 * corpus-specific scores, so the model transfers to other conversations; the fit was validated
 * leaving one conversation out and on a fixed split (see DEFAULT_SUPPORT_THRESHOLD and docs/internals/support-model.md).
 */
export interface SupportFeatures {
  coverage: number;
  subjectCoverage: number;
  /** The best share a candidate states about someone *other* than the person the question names (0 when it names none). */
  otherCoverage: number;
  /** Share of the content terms that no visible record contains at all. */
  unseen: number;
  /** 1 when the question asks for an inference (`asksForInference`); 0 or absent otherwise. */
  inference?: 0 | 1;
}

/** Fitted weights; `coverage` added nothing held out, `unseen` acts through UNSEEN_LIMIT only (fitted as an input it came out positive). */
const SUPPORT_MODEL = {
  intercept: -0.09,
  subjectCoverage: 7.23,
  otherCoverage: -5.15,
  coverage: 0,
  unseen: 0,
} as const;

/**
 * A hard rule beside the model: when more than two thirds of the question's content (by IDF)
 * appears in no valid record at all, the evidence is missing by definition — whatever the
 * model's prior says (it was fitted on questions that are nearly all about the conversation).
 * On the shared LoCoMo data it fires on 1.3% of answerable questions (unstemmable paraphrases)
 * and 0.6% of unanswerable ones.
 * Not for an inference question, whose words are the asker's.
 */
export const UNSEEN_LIMIT = 2 / 3;

/**
 * The default threshold, the one constant chosen on the shared LoCoMo data: the held-out support
 * (leaving one conversation out) below which 10% of answerable questions (categories 1–4) fall,
 * the bound on false abstention (with `UNSEEN_LIMIT` applied), less one hundredth, rounded down.
 * scripts/fit-support.ts prints every check; the figures are in docs/internals/support-model.md.
 */
export const DEFAULT_SUPPORT_THRESHOLD = 0.63;

export function calibratedSupport(f: SupportFeatures): number {
  const z =
    SUPPORT_MODEL.intercept +
    SUPPORT_MODEL.subjectCoverage * f.subjectCoverage +
    (f.inference === 1 ? 0 : SUPPORT_MODEL.otherCoverage * f.otherCoverage) +
    SUPPORT_MODEL.coverage * f.coverage +
    SUPPORT_MODEL.unseen * f.unseen;
  return 1 / (1 + Math.exp(-z));
}

export interface SupportCandidate {
  /** Query terms the record's body contains. */
  matched: ReadonlySet<string>;
  /** The record's speaker is a person the question names. */
  bySubject: boolean;
  /** Of `matched`, the terms the record states about the question's subject (default all). */
  stated?: ReadonlySet<string>;
  /** Of `matched`, the terms the record states about someone else (default none). */
  other?: ReadonlySet<string>;
}

/** Why a content term of the question is not stated about its subject (see `supportFeatures`). */
export type UnstatedWhy = 'unseen' | 'others' | 'unstated';

/**
 * The features over the candidates; which content terms the best subject record lacks; and the
 * question's *critical* terms — the content terms no candidate states about the subject, rarest
 * (highest IDF) first, each with why: in no visible record at all (`unseen`), stated only about
 * someone else (`others`), or only asked or mentioned in passing (`unstated`). They name what
 * the missing evidence would have to say ("grandpa" for "what was grandpa's gift to Caroline?"
 * when the conversation only mentions a grandma).
 */
export function supportFeatures(
  idf: ReadonlyMap<string, number>,
  unseenTerms: ReadonlySet<string>,
  subjectTerms: ReadonlySet<string>,
  hasSubject: boolean,
  candidates: Iterable<SupportCandidate>,
): SupportFeatures & { lacking: string[]; unstated: Array<{ term: string; why: UnstatedWhy }> } {
  const content = [...idf.keys()].filter((t) => !subjectTerms.has(t)).sort();
  const total = content.reduce((a, t) => a + (idf.get(t) ?? 0), 0);
  const share = (terms: ReadonlySet<string>) =>
    total > 0 ? content.reduce((a, t) => a + (terms.has(t) ? idf.get(t)! : 0), 0) / total : 0;
  let coverage = 0;
  let subjectCoverage = 0;
  let otherCoverage = 0;
  let best: ReadonlySet<string> = new Set();
  const aboutSubject = new Set<string>();
  const aboutOthers = new Set<string>();
  for (const c of candidates) {
    coverage = Math.max(coverage, share(c.matched));
    if (hasSubject && c.other !== undefined) {
      otherCoverage = Math.max(otherCoverage, share(c.other));
      for (const t of c.other) aboutOthers.add(t);
    }
    if (!hasSubject || c.bySubject) {
      const own = c.stated ?? c.matched;
      for (const t of own) aboutSubject.add(t);
      const ownShare = share(own);
      if (ownShare > subjectCoverage) {
        subjectCoverage = ownShare;
        best = own;
      }
    }
  }
  const unstated = content
    .filter((t) => !aboutSubject.has(t))
    .sort((a, b) => idf.get(b)! - idf.get(a)! || (a < b ? -1 : a > b ? 1 : 0))
    .map((term) => ({
      term,
      why: (unseenTerms.has(term) ? 'unseen' : aboutOthers.has(term) ? 'others' : 'unstated') as UnstatedWhy,
    }));
  return {
    coverage,
    subjectCoverage,
    otherCoverage,
    unseen: share(unseenTerms),
    lacking: content.filter((t) => !best.has(t)),
    unstated,
  };
}
