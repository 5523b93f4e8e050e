/**
 * MuSiQue (as shipped by HippoRAG: `musique_train.json` + `musique_train_corpus.json`) as ledger
 * transactions: 2–4-hop questions over one shared passage corpus.
 *
 * Each passage is an `evidence` node `P<index>` (index in the corpus file, zero-padded so ids
 * sort in corpus order), path `wiki/<title>`, authority `wiki`, body `<title>\n<text>` — the title
 * is part of what a reader sees and names the entity the passage is about.
 *
 * The passages go into the ledger through the library's `fromDocuments` adapter with its defaults,
 * links between passages included: the graph the evaluation walks is the one a user gets.
 */

import { documentBody } from '../../src/adapters/documents/from-documents.js';
import { type AdaptedDocuments, fromDocuments } from '../../src/adapters/index.js';

export interface MusiquePassage {
  id: string;
  title: string;
  text: string;
}

export interface MusiqueQuestion {
  id: string;
  question: string;
  /** Number of hops (question_decomposition length). */
  hops: number;
  /** Supporting passage ids, sorted. */
  supporting: string[];
}

export interface MusiqueData {
  passages: MusiquePassage[];
  questions: MusiqueQuestion[];
  /** Supporting paragraphs not found in the corpus (by title and text); 0 on the shipped files. */
  unmatched: number;
}

export function parseMusique(questionsJson: unknown, corpusJson: unknown): MusiqueData {
  if (!Array.isArray(corpusJson) || !Array.isArray(questionsJson)) throw new Error('MuSiQue: expected two arrays');
  const width = String(Math.max(0, corpusJson.length - 1)).length;
  const passages = corpusJson.map((p, i) => {
    const r = p as { title?: unknown; text?: unknown };
    return { id: `P${String(i).padStart(width, '0')}`, title: String(r.title ?? ''), text: String(r.text ?? '') };
  });
  const byContent = new Map(passages.map((p) => [`${p.title}\u0000${p.text}`, p.id]));
  let unmatched = 0;
  const questions = questionsJson.map((q, i) => {
    const r = q as { id?: unknown; question?: unknown; paragraphs?: unknown; question_decomposition?: unknown };
    const supporting = new Set<string>();
    for (const para of Array.isArray(r.paragraphs) ? r.paragraphs : []) {
      const pp = para as { title?: unknown; paragraph_text?: unknown; is_supporting?: unknown };
      if (pp.is_supporting !== true) continue;
      const id = byContent.get(`${String(pp.title)}\u0000${String(pp.paragraph_text)}`);
      if (id === undefined) unmatched++;
      else supporting.add(id);
    }
    return {
      id: typeof r.id === 'string' ? r.id : `q${i}`,
      question: String(r.question ?? ''),
      hops: Array.isArray(r.question_decomposition) ? r.question_decomposition.length : 0,
      supporting: [...supporting].sort(),
    };
  });
  return { passages, questions, unmatched };
}

/** The body the ledger stores for a passage (Orama and the vector cache index the same text). */
export const passageBody = (p: MusiquePassage): string => documentBody(p);

/**
 * The corpus through the library's `fromDocuments` (one transaction at epoch 1): passages as
 * `evidence` nodes `P<index>` under `wiki/<title>`, authority `wiki`, with the `cites` links a
 * user of the adapter gets by default unless `links` is false.
 */
export function musiqueDocuments(passages: readonly MusiquePassage[], links = true): AdaptedDocuments {
  return fromDocuments(passages, { authority: 'wiki', pathPrefix: 'wiki/', links });
}
