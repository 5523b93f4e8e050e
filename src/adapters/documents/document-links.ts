/**
 * Links between documents that an answer chain can walk, the way HippoRAG builds its graph at
 * indexing time but with plain string matching instead of an LLM: multi-hop questions pass
 * through a bridge entity (the answer of one hop is usually the title, or a named entity, of the
 * next hop's document). So:
 * - A `cites` B when A's text names B's title (word-bounded, case-sensitive, a trailing
 *   parenthetical qualifier such as `(film)` stripped);
 * - documents of the same title cite each other;
 * - A and B sharing a named entity (a capitalised span, see `entitiesOf`) are linked, lower id
 *   citing higher id, when at most `maxEntityDf` documents name it: frequent spans (`The`,
 *   `United States`) are hubs that connect everything and so say nothing.
 * Deterministic and independent of the documents' order. Pure.
 */
import { compareStrings } from '../../text/compare.js';

/** What linking reads of a document. */
export interface LinkedDocument {
  id: string;
  title: string;
  text: string;
}

/** A `cites` edge between two documents and why it was drawn. */
export interface DocumentLink {
  from: string;
  to: string;
  kind: 'cites';
  /** `title`, `same-title` or `entity:<span>`. */
  why: string;
}

/**
 * An entity named by more documents than this links none of them. Eight keeps a name that a
 * handful of documents share (a person, a label, a town) and drops the generic capitalised
 * words every document has.
 */
export const DEFAULT_MAX_ENTITY_DF = 8;

/** The title without a trailing parenthetical qualifier: `Thriller (album)` → `Thriller`. @internal Exported for its unit tests. */
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
 * @internal Exported for its unit tests.
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

/**
 * The links between documents (see the module comment): sorted by (from, to), one per unordered
 * pair, each with the first reason found (title mentions, then same titles, then entities in
 * code-unit order). Independent of the documents' order.
 */
export function documentLinks(
  documents: readonly LinkedDocument[],
  maxEntityDf = DEFAULT_MAX_ENTITY_DF,
): DocumentLink[] {
  const links = new Map<string, DocumentLink>();
  const add = (from: string, to: string, why: string) => {
    if (from === to) return;
    const key = `${from}\u0000${to}`;
    const back = `${to}\u0000${from}`;
    if (!links.has(key) && !links.has(back)) links.set(key, { from, to, kind: 'cites', why });
  };
  // Title mentions: candidates by the title's first word, then a word-bounded match.
  const byTitle = new Map<string, string[]>();
  for (const p of documents) {
    const t = bareTitle(p.title);
    if (t.length >= 4) byTitle.set(t, [...(byTitle.get(t) ?? []), p.id]);
  }
  const byFirstWord = new Map<string, string[]>();
  for (const t of [...byTitle.keys()].sort()) {
    const first = t.split(/\s+/)[0]!;
    byFirstWord.set(first, [...(byFirstWord.get(first) ?? []), t]);
  }
  for (const p of documents) {
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
  for (const p of documents)
    for (const e of entitiesOf(`${bareTitle(p.title)}. ${p.text}`)) naming.set(e, [...(naming.get(e) ?? []), p.id]);
  for (const e of [...naming.keys()].sort()) {
    const ids = naming.get(e)!;
    if (ids.length < 2 || ids.length > maxEntityDf) continue;
    for (let i = 1; i < ids.length; i++) for (let j = 0; j < i; j++) add(ids[j]!, ids[i]!, `entity:${e}`);
  }
  return [...links.values()].sort((a, b) => compareStrings(a.from, b.from) || compareStrings(a.to, b.to));
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
