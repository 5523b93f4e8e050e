/**
 * Static reading of the small Python scripts agents write to edit files (`open(p, 'w')`,
 * `Path(p).write_text`, `content.replace(old, new)`, `lines.insert(i, …)`) and to print files.
 * Only literal paths (or names bound once to a literal) are trusted; anything computed is ignored.
 */
import type { LineRange } from '../../schema/types.js';
import { mergeRanges } from '../diff/unified-diff.js';

/** A Python string literal at `i` (prefixes r/b/u, single/triple quotes); undefined if none or an f-string. */
function readPyString(code: string, i: number): { value: string; end: number } | undefined {
  const m = /^([rRbBuU]{0,2})('''|"""|'|")/.exec(code.slice(i, i + 5));
  if (!m) return undefined;
  const prefix = (m[1] as string).toLowerCase();
  const quote = m[2] as string;
  const raw = prefix.includes('r');
  let j = i + m[0].length;
  let value = '';
  const esc: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '0': '\0',
    a: '\x07',
    b: '\b',
    f: '\f',
    v: '\v',
  };
  while (j < code.length) {
    if (code.startsWith(quote, j)) return { value, end: j + quote.length };
    const c = code[j] as string;
    if (c === '\n' && quote.length === 1) return undefined;
    if (c === '\\' && j + 1 < code.length) {
      const d = code[j + 1] as string;
      if (raw) value += c + d;
      else if (d === '\n') value += '';
      else if (d === 'x' && /^[0-9a-fA-F]{2}$/.test(code.slice(j + 2, j + 4))) {
        value += String.fromCharCode(Number.parseInt(code.slice(j + 2, j + 4), 16));
        j += 4;
        continue;
      } else value += esc[d] ?? c + d;
      j += 2;
      continue;
    }
    value += c;
    j++;
  }
  return undefined;
}

/** Names bound exactly once (or always to the same value) to a string literal or Path(literal). */
function literalBindings(code: string): Map<string, string> {
  const seen = new Map<string, string | null>();
  const re = /^[ \t]*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?:(?:pathlib\.)?Path\(\s*)?/gm;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    const lit = readPyString(code, m.index + m[0].length);
    const name = m[1] as string;
    const value = lit ? lit.value : null;
    if (!seen.has(name)) seen.set(name, value);
    else if (seen.get(name) !== value) seen.set(name, null);
  }
  const out = new Map<string, string>();
  for (const [k, v] of seen) if (v !== null) out.set(k, v);
  return out;
}

/** The argument at `i`: a literal, or a name bound to one. */
function argValue(code: string, i: number, names: Map<string, string>): { value: string; end: number } | undefined {
  let j = i;
  while (code[j] === ' ') j++;
  const lit = readPyString(code, j);
  if (lit) return lit;
  const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(code.slice(j));
  if (!m) return undefined;
  const v = names.get(m[0]);
  if (v === undefined) return undefined;
  // `name` must be the whole argument, not e.g. `name + '.bak'`
  const rest = code.slice(j + m[0].length).trimStart();
  if (!/^[,)]/.test(rest)) return undefined;
  return { value: v, end: j + m[0].length };
}

/** Paths a script opens for writing, in order of appearance. */
export function pythonWriteTargets(code: string): string[] {
  const names = literalBindings(code);
  const out: string[] = [];
  const add = (p: string): void => {
    if (p && !out.includes(p)) out.push(p);
  };
  const openRe = /\bopen\(/g;
  for (let m = openRe.exec(code); m; m = openRe.exec(code)) {
    const first = argValue(code, m.index + m[0].length, names);
    if (!first) continue;
    const rest = code.slice(first.end, first.end + 80);
    const mode = /^\s*,\s*(?:mode\s*=\s*)?([rRbB]?)(['"])([a-z+]+)\2/.exec(rest);
    if (mode && /[wax+]/.test(mode[3] as string)) add(first.value);
  }
  const pathRe = /\b(?:pathlib\.)?Path\(/g;
  for (let m = pathRe.exec(code); m; m = pathRe.exec(code)) {
    const first = argValue(code, m.index + m[0].length, names);
    if (!first) continue;
    if (/^\s*\)\.write_(text|bytes)\(/.test(code.slice(first.end, first.end + 30))) add(first.value);
  }
  // `p = Path('x'); … p.write_text(…)`
  const varWrite = /\b([A-Za-z_][A-Za-z0-9_]*)\.write_(?:text|bytes)\(/g;
  for (let m = varWrite.exec(code); m; m = varWrite.exec(code)) {
    const v = names.get(m[1] as string);
    if (v !== undefined) add(v);
  }
  const copyRe = /\b(?:shutil\.(?:copy|copy2|copyfile|move)|os\.(?:rename|replace))\(/g;
  for (let m = copyRe.exec(code); m; m = copyRe.exec(code)) {
    const a = argValue(code, m.index + m[0].length, names);
    if (!a) continue;
    const comma = /^\s*,/.exec(code.slice(a.end));
    if (!comma) continue;
    const b = argValue(code, a.end + comma[0].length, names);
    if (b) add(b.value);
  }
  return out;
}

/** Line index (1-based) of a character offset. */
const lineAt = (text: string, offset: number): number => {
  let n = 1;
  for (let k = text.indexOf('\n'); k >= 0 && k < offset; k = text.indexOf('\n', k + 1)) n++;
  return n;
};

/** Contiguous blocks of known lines as text, for searching replaced snippets. */
function knownBlocks(lines: ReadonlyMap<number, string>): Array<{ first: number; text: string }> {
  const nums = [...lines.keys()].sort((a, b) => a - b);
  const blocks: Array<{ first: number; parts: string[]; last: number }> = [];
  for (const n of nums) {
    const last = blocks[blocks.length - 1];
    if (last && n === last.last + 1) {
      last.parts.push(lines.get(n) as string);
      last.last = n;
    } else blocks.push({ first: n, parts: [lines.get(n) as string], last: n });
  }
  return blocks.map((b) => ({ first: b.first, text: `${b.parts.join('\n')}\n` }));
}

/**
 * Old-file ranges a single-target edit script changes, from the edit forms agents use:
 * `x.replace(old, new)` (located in the lines the trace has seen of the file — evidence can only
 * exist for those, so that is all supersession needs), `lines.insert(i, …)`, `lines[i] = …`,
 * `lines[a:b] = …` / `del lines[a:b]`. Undefined when the script edits in any other way
 * (loops, regexes, appends) or an old snippet is not among the known lines.
 */
export function pythonChangedRanges(
  code: string,
  known: ReadonlyMap<number, string> | undefined,
): LineRange[] | undefined {
  if (/\bre\.sub|\bre\.compile|\.append\(|\.extend\(|\bfor\b|\bwhile\b|\.pop\(|\.remove\(|\.sort\(|\bexec\(/.test(code))
    return undefined;
  const names = literalBindings(code);
  const ranges: LineRange[] = [];
  let found = false;
  const repRe = /\.replace\(/g;
  for (let m = repRe.exec(code); m; m = repRe.exec(code)) {
    const old = argValue(code, m.index + m[0].length, names);
    if (!old || old.value === '' || !known || known.size === 0) return undefined;
    let hit = false;
    for (const b of knownBlocks(known)) {
      for (let k = b.text.indexOf(old.value); k >= 0; k = b.text.indexOf(old.value, k + 1)) {
        const first = b.first + lineAt(b.text, k) - 1;
        const endOff = k + old.value.length - (old.value.endsWith('\n') ? 2 : 1);
        const last = b.first + lineAt(b.text, Math.max(k, endOff)) - 1;
        ranges.push([first, Math.max(first, last)]);
        hit = true;
      }
    }
    if (!hit) return undefined;
    found = true;
  }
  const ins = /\.insert\(\s*(\d+)\s*,/g;
  for (let m = ins.exec(code); m; m = ins.exec(code)) {
    const idx = Number(m[1]);
    ranges.push([Math.max(1, idx), idx + 1]);
    found = true;
  }
  const slice = /\b(?:del\s+)?[A-Za-z_][A-Za-z0-9_]*\[\s*(\d+)\s*(?::\s*(\d+)\s*)?\]\s*(=(?!=)|$|\n)/g;
  for (let m = slice.exec(code); m; m = slice.exec(code)) {
    const isDel = m[0].startsWith('del');
    if (!isDel && !(m[3] ?? '').startsWith('=')) continue;
    const a = Number(m[1]);
    const b = m[2] === undefined ? a + 1 : Number(m[2]);
    if (b > a) ranges.push([a + 1, b]);
    else ranges.push([Math.max(1, a), a + 1]); // empty slice assignment = insertion
    found = true;
  }
  return found ? mergeRanges(ranges) : undefined;
}

/** `print(open('f').read())` → the file printed whole. */
export function pythonPrintedFile(code: string): string | undefined {
  const names = literalBindings(code);
  const m = /\bprint\(\s*open\(/.exec(code);
  if (!m) return undefined;
  const arg = argValue(code, m.index + m[0].length, names);
  if (!arg) return undefined;
  if (!/^\s*\)\.read\(\)\s*\)/.test(code.slice(arg.end, arg.end + 20))) return undefined;
  // Only trust a script that does nothing else visible.
  if ((code.match(/\bprint\(/g) ?? []).length !== 1) return undefined;
  return arg.value;
}
