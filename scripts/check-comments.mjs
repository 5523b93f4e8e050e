#!/usr/bin/env node
/**
 * `npm run lint`'s comment check: a comment in src/ states an invariant or a reason, never the
 * history of a figure. It fails on a comment holding a machine load, a calendar date, a figure's
 * before/after story, or more than one measured figure (history and measurements go in docs/ and
 * commit messages). Code spans (`…`) are not read: they quote inputs such as `2023-05-07`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;

/** What a lasting comment never holds, each with the message a failure prints. */
const RULES = [
  [/\bload (average )?(of )?~?\d/i, 'a load average'],
  [/\b20\d\d-[01]\d(-[0-3]\d)?\b/, 'a date'],
  [/\b(this|the previous|that) session\b|\b\d\d:\d\d UTC\b/i, 'a session or time stamp'],
  [/\bwas\b[^.;]*\bnow\b/i, 'a "was … now" story'],
  [/\bbefore:.*\bafter:/i, 'a "before: … after:" story'],
  [/\d[\d.,]*\s*(ms|µs|s|MiB|KiB|MB|GB|%)?\s*(→|->)\s*~?\d/, 'a figure that moved (a → b)'],
];
/** A measured figure: a duration or a speed-up (sizes and shares are as often limits as measurements). */
const FIGURE = /(?<![\w.])~?\d[\d.,]*\s?(ns|µs|ms|s|×)(?![\w])/g;

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|mts|mjs|js)$/.test(entry.name)) yield path;
  }
}

/** Each comment of a file (a `//` run or a block), its first line number, code spans removed. */
function* comments(text) {
  const re = /\/\*[\s\S]*?\*\/|(?:^[ \t]*\/\/.*\n?)+|\/\/.*$/gm;
  for (const m of text.matchAll(re)) {
    // Skip `//` inside strings and URLs: a line comment starts a line or follows code and a space.
    if (m[0].startsWith('//') && m.index > 0 && /[:'"`]$/.test(text[m.index - 1])) continue;
    const line = text.slice(0, m.index).split('\n').length;
    yield { line, body: m[0].replaceAll(/`[^`\n]*`/g, '``').replaceAll(/\s+/g, ' ') };
  }
}

/** The problems of one file's comments, as `path:line: what`. */
export function commentProblems(text, path) {
  const problems = [];
  for (const { line, body } of comments(text)) {
    for (const [re, what] of RULES) if (re.test(body)) problems.push(`${path}:${line}: ${what}`);
    const figures = body.match(FIGURE) ?? [];
    if (figures.length > 1)
      problems.push(`${path}:${line}: ${figures.length} measured figures (${figures.join(', ')}); at most one`);
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = [];
  for (const file of sources(join(ROOT, 'src')))
    problems.push(...commentProblems(readFileSync(file, 'utf8'), relative(ROOT, file)));
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    console.error(
      `\n${problems.length} comment(s) in src/ carry history or measurements: move them to docs/ or the commit message.`,
    );
    process.exit(1);
  }
  console.log('comments: no load averages, dates, figure histories or figure lists in src/');
}
