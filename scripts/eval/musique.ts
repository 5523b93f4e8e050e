/**
 * MuSiQue (as shipped by HippoRAG: `musique_train.json` + `musique_train_corpus.json`) as ledger
 * transactions: 2–4-hop questions over one shared passage corpus.
 *
 * Each passage is an `evidence` node `P<index>` (index in the corpus file, zero-padded so ids
 * sort in corpus order), path `wiki/<title>`, authority `wiki`, body `<title>\n<text>` — the title
 * is part of what a reader sees and names the entity the passage is about.
 *
 * Graph expansion links passages an answer chain can walk (MuSiQue's hops pass through a bridge
 * entity: the answer of hop 1 is usually the title, or a named entity, of hop 2's passage):
 * - A `cites` B when A's text names B's title (word-bounded, case-sensitive, parenthetical
 *   qualifiers such as `(film)` stripped);
 * - passages of the same title cite each other;
 * - A and B sharing a named entity — a capitalised span, see `entitiesOf` — are linked
 *   (lower id cites higher id) when at most `maxEntityDf` passages name it: frequent spans
 *   (`The`, `United States`) are hubs that connect everything and so say nothing.
 * Every rule is plain string matching over the corpus, deterministic and order-independent.
 */
import type { EdgeInput, NodeInput, Transaction } from '../../src/schema/types.js';

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

export const passageBody = (p: MusiquePassage): string => `${p.title}\n${p.text}`;

/** The title without a trailing parenthetical qualifier: `Thriller (album)` → `Thriller`. */
export const bareTitle = (title: string): string => title.replace(/\s*\([^)]*\)\s*$/, '').trim();

/** Lower-case words allowed inside a name (`Bank of America`, `Duchy of the Lower Rhine`). */
const CONNECTORS = new Set(['of', 'the', 'de', 'del', 'la', 'le', 'von', 'van', 'and', 'du', 'da', 'y']);
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’&-]*/gu;
/** Abbreviations whose full stop does not end a name (`G. Stanley Hall`, `St. Louis`). */
const ABBREVIATIONS = new Set(['St', 'Mt', 'Mr', 'Mrs', 'Dr', 'Jr', 'Sr', 'Ft']);

/**
 * Named entities as capitalised spans: maximal runs of capitalised words, lower-case connectors
 * allowed inside (never at either end; the parts between connectors count as well), a leading
 * `The` dropped; punctuation ends a run except the
 * full stop of an initial or a listed abbreviation. Single capitalised words count too
 * (`Hiroshima`); frequent ones (`He`, `In`) are removed by the document-frequency cap.
 */
export function entitiesOf(text: string): string[] {
  const out = new Set<string>();
  let run: string[] = [];
  const flush = () => {
    while (run.length > 0 && CONNECTORS.has(run[run.length - 1]!)) run.pop();
    if (run[0] === 'The' && run.length > 1) run.shift();
    if (run.length > 0) out.add(run.join(' '));
    // A connector may join two names (`Hall of the Bank of America`): its parts count too.
    const parts: string[][] = [[]];
    for (const w of run) {
      if (CONNECTORS.has(w)) {
        if (parts[parts.length - 1]!.length > 0) parts.push([]);
      } else parts[parts.length - 1]!.push(w);
    }
    if (parts.length > 1) for (const p of parts) if (p.length > 0) out.add(p.join(' '));
    run = [];
  };
  let lastEnd = 0;
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    const gap = text.slice(lastEnd, m.index).trim();
    const last = run[run.length - 1];
    const abbreviation = gap === '.' && last !== undefined && (/^\p{Lu}$/u.test(last) || ABBREVIATIONS.has(last));
    if (gap.length > 0 && !abbreviation) flush();
    lastEnd = m.index + word.length;
    if (/^\p{Lu}/u.test(word)) run.push(word);
    else if (run.length > 0 && CONNECTORS.has(word)) run.push(word);
    else flush();
  }
  flush();
  return [...out].filter((e) => e.length >= 3).sort();
}

export interface PassageLink extends EdgeInput {
  /** Why the passages are linked: `title`, `same-title` or `entity:<span>`. */
  why: string;
}

/** The graph-expansion edges over a corpus (see the module comment). Sorted, unique pairs. */
export function passageLinks(passages: readonly MusiquePassage[], maxEntityDf = 8): PassageLink[] {
  const links = new Map<string, PassageLink>();
  const add = (from: string, to: string, why: string) => {
    if (from === to) return;
    const key = `${from}\u0000${to}`;
    const back = `${to}\u0000${from}`;
    if (!links.has(key) && !links.has(back)) links.set(key, { from, to, kind: 'cites', why });
  };
  // Title mentions: candidates by the title's first word, then a word-bounded match.
  const byTitle = new Map<string, string[]>();
  for (const p of passages) {
    const t = bareTitle(p.title);
    if (t.length >= 4) byTitle.set(t, [...(byTitle.get(t) ?? []), p.id]);
  }
  const byFirstWord = new Map<string, string[]>();
  for (const t of [...byTitle.keys()].sort()) {
    const first = t.split(/\s+/)[0]!;
    byFirstWord.set(first, [...(byFirstWord.get(first) ?? []), t]);
  }
  for (const p of passages) {
    const words = new Set(p.text.match(WORD) ?? []);
    for (const w of [...words].sort()) {
      for (const t of byFirstWord.get(w) ?? []) {
        if (t === bareTitle(p.title) || !containsPhrase(p.text, t)) continue;
        for (const target of byTitle.get(t)!) add(p.id, target, 'title');
      }
    }
  }
  for (const ids of byTitle.values())
    for (let i = 1; i < ids.length; i++) for (let j = 0; j < i; j++) add(ids[j]!, ids[i]!, 'same-title');
  // Shared named entities under the document-frequency cap.
  const naming = new Map<string, string[]>();
  for (const p of passages)
    for (const e of entitiesOf(`${bareTitle(p.title)}. ${p.text}`)) naming.set(e, [...(naming.get(e) ?? []), p.id]);
  for (const e of [...naming.keys()].sort()) {
    const ids = naming.get(e)!;
    if (ids.length < 2 || ids.length > maxEntityDf) continue;
    for (let i = 1; i < ids.length; i++) for (let j = 0; j < i; j++) add(ids[j]!, ids[i]!, `entity:${e}`);
  }
  return [...links.values()].sort((a, b) =>
    a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0,
  );
}

function containsPhrase(text: string, phrase: string): boolean {
  for (let at = text.indexOf(phrase); at >= 0; at = text.indexOf(phrase, at + 1)) {
    const before = text[at - 1];
    const after = text[at + phrase.length];
    if (
      (before === undefined || !/[\p{L}\p{N}]/u.test(before)) &&
      (after === undefined || !/[\p{L}\p{N}]/u.test(after))
    )
      return true;
  }
  return false;
}

/** The corpus as one transaction (epoch 1), with the graph-expansion edges when `links` is given. */
export function musiqueTransactions(
  passages: readonly MusiquePassage[],
  links: readonly EdgeInput[] = [],
): Transaction[] {
  const nodes: NodeInput[] = passages.map((p) => ({
    id: p.id,
    kind: 'evidence',
    path: `wiki/${p.title}`,
    authority: 'wiki',
    body: passageBody(p),
  }));
  return [{ epoch: 1, nodes, edges: links.map(({ from, to, kind }) => ({ from, to, kind })) }];
}
