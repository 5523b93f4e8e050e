import { textTerms } from '../text/text-terms.js';

/**
 * Words that open or shape a question and are capitalised for that reason only. Pure data: a
 * capitalised word that is not one of these (nor a stop word) is taken as a name.
 */
const QUESTION_WORDS = new Set(
  'what when where which who whom whose why how did does do is are was were has have had can could would should will may might shall am in on at if as according besides after before during since'.split(
    ' ',
  ),
);

/**
 * Names a question is about: capitalised words (`Caroline`, `Melanie's` → caroline, melanie),
 * lower-cased, without question words. Pure and deterministic; order of first appearance.
 */
export function queryNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\p{Lu}[\p{L}\p{N}'’-]*/gu)) {
    const word = m[0].replace(/['’]s?$/u, '').toLowerCase();
    if (word.length < 2 || QUESTION_WORDS.has(word) || textTerms(word).length === 0) continue;
    if (!out.includes(word)) out.push(word);
  }
  return out;
}

/**
 * The names a record's speaker answers to (`meta.speaker`, written by `fromConversation`):
 * the full name and each of its words, lower-cased. Empty when the record has no speaker.
 */
export function speakerNames(meta: string | null): string[] {
  if (meta === null) return [];
  let speaker: unknown;
  try {
    speaker = (JSON.parse(meta) as Record<string, unknown>).speaker;
  } catch {
    return [];
  }
  if (typeof speaker !== 'string' || speaker.length === 0) return [];
  const full = speaker.toLowerCase();
  return [...new Set([full, ...full.split(/\s+/).filter((w) => w.length >= 2)])];
}

/** Lower-case words allowed inside a name (`Bank of America`, `Duchy of the Lower Rhine`). */
const CONNECTORS = new Set(['of', 'the', 'de', 'del', 'la', 'le', 'von', 'van', 'and', 'du', 'da', 'y', '&']);

/**
 * Name phrases of a question, HippoRAG-style entity mentions without a model: maximal runs of
 * capitalised words (connectors such as `of`/`the` allowed inside, never at either end), a leading
 * question word dropped, and quoted strings. Lower-cased, de-duplicated, in order of appearance.
 */
export function queryPhrases(text: string): string[] {
  const out: string[] = [];
  const push = (p: string) => {
    const s = p.trim().toLowerCase();
    if (s.length >= 3 && !out.includes(s) && textTerms(s).length > 0) out.push(s);
  };
  for (const m of text.matchAll(/["“]([^"”]{3,80})["”]/gu)) push(m[1]!);
  const words = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’.&-]*/gu)];
  let run: string[] = [];
  let end = -1;
  const flush = () => {
    while (run.length > 0 && CONNECTORS.has(run[run.length - 1]!.toLowerCase())) run.pop();
    while (run.length > 0 && QUESTION_WORDS.has(run[0]!.toLowerCase())) run.shift();
    if (run.length > 0) push(run.join(' ').replace(/['’]s$/u, ''));
    run = [];
  };
  for (const m of words) {
    const w = m[0].replace(/[.]$/u, '');
    const gap = end < 0 ? '' : text.slice(end, m.index);
    if (gap.trim().length > 0) flush();
    end = m.index + m[0].length;
    if (/^\p{Lu}/u.test(w) || (/^\p{N}/u.test(w) && run.length > 0)) run.push(w);
    else if (run.length > 0 && CONNECTORS.has(w)) run.push(w);
    else flush();
  }
  flush();
  return out;
}

/** What a record is about by its path: the last segment without extension or a `(qualifier)`. */
export function pathSubject(path: string): string {
  const last = path.split('/').pop() ?? path;
  return last
    .replace(/\s*\([^)]*\)\s*$/u, '')
    .replace(/\.[A-Za-z0-9]{1,5}$/u, '')
    .trim()
    .toLowerCase();
}

const SECOND_PERSON = /\b(you|your|yours|yourself|you're|you've|you'd|you'll)\b/iu;
const FIRST_PERSON = /\b(i|me|my|mine|myself|we|us|our|ours|ourselves)\b/iu;

/**
 * Of `terms`, those the text states, by whom the statement is about: `listener`, in statements
 * that address the listener ("your race went great" said *to* someone is about them); `speaker`,
 * in the other statements (about the speaker, or the world as the speaker tells it), including
 * those that address the listener but speak in the first person ("I took a writing class, wanted
 * to tell you" is the speaker's news). Sentences are
 * split at `.`, `!`, `?` and line breaks; a sentence ending in `?` is a question and states
 * nothing: a speaker who asks "what got you into running?" says nothing about their own running.
 * Pure.
 */
export function statementTerms(
  text: string,
  terms: ReadonlySet<string>,
): { speaker: Set<string>; listener: Set<string> } {
  const speaker = new Set<string>();
  const listener = new Set<string>();
  for (const m of text.matchAll(/[^.!?\n]+[.!?]*/gu)) {
    const sentence = m[0].trim();
    if (sentence.endsWith('?')) continue;
    const about = SECOND_PERSON.test(sentence) && !FIRST_PERSON.test(sentence) ? listener : speaker;
    for (const t of textTerms(sentence)) if (terms.has(t)) about.add(t);
  }
  return { speaker, listener };
}

/**
 * Words that make a question ask for an inference ("Would Caroline likely enjoy Vivaldi?", "What
 * might John's financial status be?") rather than for something a record states.
 */
const INFERENCE = /\b(would|likely|might|potentially|probably|could)\b/iu;

/** Framing words of an inference question: not content a record would have to state. */
export const INFERENCE_FRAMING = ['likely', 'might', 'potentially', 'probably'] as const;

/**
 * Whether the question asks for an inference from what the ledger holds about its subject, not for
 * a stated fact: its words are the asker's, not the evidence's, and what others did is no sign
 * that the question moved someone else's fact to its subject. Pure.
 */
export function asksForInference(text: string): boolean {
  return INFERENCE.test(text);
}
