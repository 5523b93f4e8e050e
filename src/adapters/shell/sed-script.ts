/**
 * Reads sed scripts far enough to know which input lines a command prints (`sed -n 'a,bp'`) or
 * changes (`sed -i`). sed numbers lines of its *input*, so every address refers to the previous
 * revision — exactly what `changed` needs. Anything addressed by regex, relative to the end, or
 * branching makes the answer unknowable and yields `undefined`.
 */
import type { LineRange } from '../../schema/types.js';
import { mergeRanges } from '../diff/unified-diff.js';

type Addr = { line: number } | { last: true } | { regex: string; icase: boolean } | { plus: number } | { other: true };

interface SedCommand {
  addr1?: Addr | undefined;
  addr2?: Addr | undefined;
  negate: boolean;
  cmd: string;
  /** Pattern of an `s` command (raw, as written) and whether it has the `I` flag. */
  pattern?: { source: string; icase: boolean } | undefined;
  /** Enclosing `{}` block addresses, innermost last. */
  block: Array<{ addr1?: Addr | undefined; addr2?: Addr | undefined; negate: boolean }>;
}

interface ParsedSed {
  commands: SedCommand[];
  /** Parse reached the end without surprises. */
  ok: boolean;
}

/** `\\<delim>` inside a custom-delimited regex means the delimiter itself. */
const unescapeDelim = (re: string, delim: string): string => (delim === '/' ? re : re.split(`\\${delim}`).join(delim));

function readRegex(s: string, i: number, delim: string): number {
  // returns the index just after the closing delimiter
  let j = i;
  while (j < s.length) {
    if (s[j] === '\\') {
      j += 2;
      continue;
    }
    if (s[j] === delim) return j + 1;
    if (s[j] === '\n') return -1;
    j++;
  }
  return -1;
}

function readAddr(s: string, i: number): [Addr | undefined, number] {
  const c = s[i];
  if (c !== undefined && /\d/.test(c)) {
    let j = i;
    while (j < s.length && /\d/.test(s[j] as string)) j++;
    if (s[j] === '~') {
      j++;
      while (j < s.length && /\d/.test(s[j] as string)) j++;
      return [{ other: true }, j];
    }
    return [{ line: Number(s.slice(i, j)) }, j];
  }
  if (c === '$') return [{ last: true }, i + 1];
  if (c === '/' || c === '\\') {
    const delim = c === '/' ? '/' : (s[i + 1] as string);
    const from = c === '/' ? i + 1 : i + 2;
    const end = readRegex(s, from, delim);
    if (end < 0) return [{ other: true }, s.length];
    let j = end;
    let icase = false;
    while (s[j] === 'I' || s[j] === 'M') {
      if (s[j] === 'I') icase = true;
      j++;
    }
    return [{ regex: unescapeDelim(s.slice(from, end - 1), delim), icase }, j];
  }
  return [undefined, i];
}

/** Parses a sed script (multiple `-e` fragments already joined with newlines). Never throws. */
function parseSedScript(script: string): ParsedSed {
  const s = script;
  const commands: SedCommand[] = [];
  const blocks: SedCommand['block'] = [];
  let ok = true;
  let i = 0;
  while (i < s.length) {
    while (i < s.length && /[\s;]/.test(s[i] as string)) i++;
    if (i >= s.length) break;
    if (s[i] === '#') {
      const nl = s.indexOf('\n', i);
      i = nl < 0 ? s.length : nl;
      continue;
    }
    let [addr1, j] = readAddr(s, i);
    let addr2: Addr | undefined;
    if (addr1 && s[j] === ',') {
      j++;
      if (s[j] === '+' || s[j] === '~') {
        const plus = s[j] === '+';
        let k = j + 1;
        while (k < s.length && /\d/.test(s[k] as string)) k++;
        addr2 = plus ? { plus: Number(s.slice(j + 1, k)) } : { other: true };
        j = k;
      } else {
        [addr2, j] = readAddr(s, j);
        if (!addr2) {
          ok = false;
          addr2 = { other: true };
        }
      }
    }
    while (s[j] === ' ' || s[j] === '\t') j++;
    let negate = false;
    if (s[j] === '!') {
      negate = true;
      j++;
      while (s[j] === ' ' || s[j] === '\t') j++;
    }
    const cmd = s[j];
    if (cmd === undefined) {
      ok = false;
      break;
    }
    i = j + 1;
    if (cmd === '{') {
      blocks.push({ addr1, addr2, negate });
      continue;
    }
    if (cmd === '}') {
      blocks.pop();
      continue;
    }
    commands.push({ addr1, addr2, negate, cmd, block: [...blocks] });
    if (cmd === 's' || cmd === 'y') {
      const delim = s[i];
      if (delim === undefined || delim === '\n' || delim === '\\') {
        ok = false;
        break;
      }
      const patStart = i + 1;
      const e1 = readRegex(s, patStart, delim);
      const e2 = e1 < 0 ? -1 : readRegex(s, e1, delim);
      if (e2 < 0) {
        ok = false;
        break;
      }
      i = e2;
      const flagStart = i;
      while (i < s.length && /[0-9gpiImMe]/.test(s[i] as string)) i++;
      if (cmd === 's') {
        (commands[commands.length - 1] as SedCommand).pattern = {
          source: unescapeDelim(s.slice(patStart, e1 - 1), delim),
          icase: /[iI]/.test(s.slice(flagStart, i)),
        };
      }
      if (s[i] === 'w') {
        const nl = s.indexOf('\n', i);
        i = nl < 0 ? s.length : nl;
      }
      continue;
    }
    if (cmd === 'a' || cmd === 'i' || cmd === 'c') {
      // Text runs to the end of the line; a trailing backslash continues it on the next line.
      if (s[i] === '\\') i++;
      if (s[i] === '\n') i++;
      while (i < s.length) {
        const nl = s.indexOf('\n', i);
        const end = nl < 0 ? s.length : nl;
        let bs = 0;
        for (let k = end - 1; k >= i && s[k] === '\\'; k--) bs++;
        i = end + 1;
        if (bs % 2 === 0) break;
      }
      continue;
    }
    if ('rRwWbtT:'.includes(cmd)) {
      const nl = s.indexOf('\n', i);
      const semi = 'btT'.includes(cmd) ? s.indexOf(';', i) : -1;
      const end = [nl, semi].filter((x) => x >= 0).reduce((a, b) => Math.min(a, b), s.length);
      i = end;
      continue;
    }
    if ('qQlL'.includes(cmd)) {
      while (i < s.length && /[\d ]/.test(s[i] as string)) i++;
      continue;
    }
    if (!'dDpPnNgGhHxz=F'.includes(cmd)) {
      ok = false;
      break;
    }
  }
  return { commands, ok };
}

const NON_MODIFYING = new Set(['p', 'P', '=', 'l', 'h', 'H', 'F', 'w', 'W']);

const CLASSES: Record<string, string> = {
  space: '\\s',
  blank: ' \\t',
  digit: '0-9',
  alpha: 'A-Za-z',
  alnum: 'A-Za-z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  xdigit: '0-9A-Fa-f',
  punct: '!-\\/:-@\\[-`{-~',
  word: '\\w',
};

/** Translates a POSIX basic (or extended) regex as GNU sed reads it into a JS RegExp source. */
function posixToJs(re: string, ere: boolean): string | undefined {
  let out = '';
  let i = 0;
  while (i < re.length) {
    const c = re[i] as string;
    if (c === '\\') {
      const d = re[i + 1];
      if (d === undefined) return undefined;
      i += 2;
      if (!ere && '(){}+?|'.includes(d)) out += d;
      else if (/[1-9]/.test(d)) out += `\\${d}`;
      else if (d === 'n') out += '\\n';
      else if (d === 't') out += '\\t';
      else if ('wWsSbB'.includes(d)) out += `\\${d}`;
      else if (d === '<' || d === '>') out += '\\b';
      else if (d === '`') out += '^';
      else if (d === "'") out += '$';
      else out += /[A-Za-z0-9]/.test(d) ? d : `\\${d}`;
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      let cls = '[';
      if (re[j] === '^') {
        cls += '^';
        j++;
      }
      if (re[j] === ']') {
        cls += '\\]';
        j++;
      }
      let closed = false;
      while (j < re.length) {
        const e = re[j] as string;
        if (e === ']') {
          closed = true;
          j++;
          break;
        }
        if (e === '[' && re[j + 1] === ':') {
          const k = re.indexOf(':]', j + 2);
          const name = k < 0 ? undefined : CLASSES[re.slice(j + 2, k)];
          if (name === undefined) return undefined;
          cls += name;
          j = k + 2;
          continue;
        }
        cls += e === '\\' || e === '[' ? `\\${e}` : e;
        j++;
      }
      if (!closed) return undefined;
      out += `${cls}]`;
      i = j;
      continue;
    }
    if (!ere && '(){}+?|'.includes(c)) out += `\\${c}`;
    else if (c === '*' && (out === '' || out === '^')) out += '\\*';
    else out += c;
    i++;
  }
  try {
    new RegExp(out);
  } catch {
    return undefined;
  }
  return out;
}

/** Known lines a regex matches (sed matches each line without its newline). */
function regexLines(
  source: string,
  icase: boolean,
  ere: boolean,
  known: ReadonlyMap<number, string> | undefined,
): number[] | undefined {
  if (!known || known.size === 0 || source === '') return undefined;
  const js = posixToJs(source, ere);
  if (js === undefined || js.includes('\\n')) return undefined;
  const re = new RegExp(js, icase ? 'i' : '');
  const hits = [...known.entries()].filter(([, text]) => re.test(text)).map(([n]) => n);
  return hits.length ? hits.sort((a, b) => a - b) : undefined;
}

function lineOf(a: Addr | undefined, total: number | undefined): number | undefined {
  if (!a) return undefined;
  if ('line' in a) return a.line;
  if ('last' in a) return total;
  return undefined;
}

/** Input-line span an address pair selects, when it is a fixed span. */
function span(addr1: Addr | undefined, addr2: Addr | undefined, total: number | undefined): LineRange | undefined {
  const a = lineOf(addr1, total);
  if (a === undefined) return undefined;
  if (!addr2) return [a, a];
  if ('plus' in addr2) return [a, a + addr2.plus];
  const b = lineOf(addr2, total);
  if (b === undefined) return undefined;
  // sed: if addr2 <= addr1 only line addr1 matches.
  return [a, Math.max(a, b)];
}

/**
 * Lines of the input a `sed -i` script changes, or undefined when not knowable. Insertions are
 * reported as the two old lines around the insertion point (`Ni` → [N-1, N], `Na`/`Nr` → [N, N+1]).
 * Commands selected by a regex (`/re/d`, an unaddressed `s/re/…/`) are located among `known`
 * lines — the lines the trace has displayed of this revision, the only ones evidence can cite —
 * and are unknowable when no known line matches.
 */
export function sedChangedRanges(
  script: string,
  total?: number,
  known?: ReadonlyMap<number, string>,
  ere = false,
): LineRange[] | undefined {
  const { commands, ok } = parseSedScript(script);
  if (!ok || commands.length === 0) return undefined;
  const ranges: LineRange[] = [];
  let modifies = false;
  const place = (cmd: string, r: LineRange): void => {
    if (cmd === 'i') ranges.push([Math.max(1, r[0] - 1), r[0]]);
    else if (cmd === 'a' || cmd === 'r' || cmd === 'R') ranges.push([r[1], r[1] + 1]);
    else ranges.push(r);
  };
  for (const c of commands) {
    if (NON_MODIFYING.has(c.cmd)) continue;
    if ('bBtT:nNDqQ'.includes(c.cmd) || c.negate || c.block.some((b) => b.negate)) return undefined;
    modifies = true;
    // The innermost address that exists restricts the command; nested addresses would intersect.
    const own = c.addr1 ? { addr1: c.addr1, addr2: c.addr2 } : undefined;
    const scopes = [...c.block.filter((b) => b.addr1), ...(own ? [own] : [])];
    if (scopes.length > 1) return undefined;
    const sc = scopes[0];
    if (!sc) {
      // Unaddressed: only an `s` whose pattern can be located changes a knowable set of lines.
      if (c.cmd !== 's' || !c.pattern) return undefined;
      const hits = regexLines(c.pattern.source, c.pattern.icase, ere, known);
      if (!hits) return undefined;
      for (const n of hits) ranges.push([n, n]);
      continue;
    }
    if (sc.addr1 && 'regex' in sc.addr1 && !sc.addr2) {
      let hits = regexLines(sc.addr1.regex, sc.addr1.icase, ere, known);
      if (hits && c.cmd === 's' && c.pattern) {
        const inner = regexLines(c.pattern.source, c.pattern.icase, ere, known);
        hits = inner ? hits.filter((n) => inner.includes(n)) : undefined;
      }
      if (!hits || hits.length === 0) return undefined;
      for (const n of hits) place(c.cmd, [n, n]);
      continue;
    }
    const r = span(sc.addr1, sc.addr2, total);
    if (!r) return undefined;
    place(c.cmd, r);
  }
  if (!modifies) return [];
  return mergeRanges(ranges);
}

/**
 * For `sed -n` views: the fixed line spans the script prints, sorted, e.g. `'10,20p'`, `'5p'`,
 * `'7,$p'` (end undefined unless `total` is known), `'1,5p;20,30p'`, `'1,20p;20q'`. Undefined when
 * the script prints anything else or spans overlap (sed would print lines twice).
 */
export function sedPrintedSpans(script: string, total?: number): Array<{ start: number; end?: number }> | undefined {
  const { commands, ok } = parseSedScript(script);
  if (!ok) return undefined;
  const prints = commands.filter((c) => c.cmd === 'p');
  const others = commands.filter((c) => c.cmd !== 'p' && c.cmd !== 'q' && c.cmd !== 'Q');
  if (prints.length === 0 || others.length) return undefined;
  const spans: Array<{ start: number; end?: number }> = [];
  for (const p of prints) {
    if (p.negate || p.block.length) return undefined;
    const a = lineOf(p.addr1, total);
    if (a === undefined || a < 1) return undefined;
    if (!p.addr2) spans.push({ start: a, end: a });
    else if ('plus' in p.addr2) spans.push({ start: a, end: a + p.addr2.plus });
    else if ('last' in p.addr2) spans.push(total === undefined ? { start: a } : { start: a, end: Math.max(a, total) });
    else {
      const b = lineOf(p.addr2, total);
      if (b === undefined) return undefined;
      spans.push({ start: a, end: Math.max(a, b) });
    }
  }
  spans.sort((x, y) => x.start - y.start);
  for (let k = 1; k < spans.length; k++) {
    const prev = spans[k - 1] as { start: number; end?: number };
    if (prev.end === undefined || prev.end >= (spans[k] as { start: number }).start) return undefined;
  }
  return spans;
}
