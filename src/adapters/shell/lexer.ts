/**
 * The shell lexer: words after quote removal (substitutions kept literally and flagged
 * `dynamic`), operators, redirects with their targets, and here-document bodies read after the
 * line that opens them. It never evaluates anything.
 */
export interface Redirect {
  /** File descriptor redirected (1 for `>`, 0 for `<`). */
  fd: number;
  op: '>' | '>>' | '<' | '<<' | '<<<' | '>&' | '<&' | '&>' | '&>>';
  /** Target word (file name, fd number, here-string or here-doc delimiter). */
  target: string;
  /** Body of a here-document. */
  heredoc?: string | undefined;
  /** The here-doc delimiter was quoted, so the body is literal. */
  literal?: boolean | undefined;
}

export type Token =
  | { t: 'word'; value: string; dynamic: boolean; start: number; end: number; quoted: boolean }
  | { t: 'op'; value: string; start: number; end: number }
  | { t: 'redir'; fd: number; op: Redirect['op']; start: number; end: number; redirect?: Redirect };

/** Copies a balanced `$( … )` starting at `i` (pointing at `$`); returns the end index (exclusive). */
function skipCommandSubstitution(s: string, i: number): number {
  let depth = 0;
  let j = i + 1;
  while (j < s.length) {
    const c = s[j];
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (c === "'") {
      const k = s.indexOf("'", j + 1);
      j = k < 0 ? s.length : k + 1;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  return s.length;
}

function ansiC(body: string): string {
  const map: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    '\\': '\\',
    "'": "'",
    '"': '"',
    a: '\x07',
    b: '\b',
    e: '\x1b',
    f: '\f',
    v: '\v',
    '0': '\0',
  };
  return body.replace(/\\(.)/g, (_m, c: string) => map[c] ?? `\\${c}`);
}

interface Pending {
  redirect: Redirect;
  delimiter: string;
  stripTabs: boolean;
}

export function tokenize(s: string): { tokens: Token[]; incomplete: boolean } {
  const tokens: Token[] = [];
  let incomplete = false;
  let i = 0;
  let word = null as string | null;
  let wordStart = 0;
  let dynamic = false;
  let quoted = false;
  let pending: Pending[] = [];
  let expectHeredocWord: { op: Redirect['op']; fd: number; stripTabs: boolean; tok: Token } | null = null;

  const begin = (): void => {
    if (word === null) {
      word = '';
      wordStart = i;
      dynamic = false;
      quoted = false;
    }
  };
  const endWord = (end: number): void => {
    if (word === null) return;
    const tok: Token = { t: 'word', value: word, dynamic, start: wordStart, end, quoted };
    word = null;
    if (expectHeredocWord) {
      const r: Redirect = { fd: expectHeredocWord.fd, op: expectHeredocWord.op, target: tok.value };
      if (expectHeredocWord.op === '<<') {
        r.literal = tok.quoted;
        pending.push({ redirect: r, delimiter: tok.value, stripTabs: expectHeredocWord.stripTabs });
      }
      (expectHeredocWord.tok as Extract<Token, { t: 'redir' }>).redirect = r;
      expectHeredocWord.tok.end = end;
      expectHeredocWord = null;
      return;
    }
    tokens.push(tok);
  };
  /** After a newline, read the bodies of pending here-docs line by line. */
  const readHeredocs = (): void => {
    for (const p of pending) {
      const bodyLines: string[] = [];
      let found = false;
      while (i < s.length) {
        let nl = s.indexOf('\n', i);
        if (nl < 0) nl = s.length;
        let line = s.slice(i, nl);
        i = nl + 1;
        if (p.stripTabs) line = line.replace(/^\t+/, '');
        if (line === p.delimiter) {
          found = true;
          break;
        }
        bodyLines.push(line);
      }
      if (i > s.length) i = s.length;
      if (!found) incomplete = true;
      p.redirect.heredoc = bodyLines.length ? `${bodyLines.join('\n')}\n` : '';
    }
    pending = [];
  };

  while (i < s.length) {
    const c = s[i] as string;
    if (c === '\\') {
      if (s[i + 1] === '\n') {
        i += 2; // line continuation
        continue;
      }
      begin();
      word = (word ?? '') + (s[i + 1] ?? '');
      quoted = true;
      i += 2;
      continue;
    }
    if (c === "'") {
      begin();
      quoted = true;
      const k = s.indexOf("'", i + 1);
      if (k < 0) {
        incomplete = true;
        word = (word ?? '') + s.slice(i + 1);
        i = s.length;
      } else {
        word = (word ?? '') + s.slice(i + 1, k);
        i = k + 1;
      }
      continue;
    }
    if (c === '"') {
      begin();
      quoted = true;
      let j = i + 1;
      let closed = false;
      while (j < s.length) {
        const d = s[j];
        if (d === '\\' && j + 1 < s.length) {
          const e = s[j + 1] as string;
          if (e === '\n') j += 2;
          else if ('$`"\\'.includes(e)) {
            word = (word ?? '') + e;
            j += 2;
          } else {
            word = `${word ?? ''}\\${e}`;
            j += 2;
          }
          continue;
        }
        if (d === '"') {
          closed = true;
          j++;
          break;
        }
        if (d === '$' && s[j + 1] === '(') {
          const end = skipCommandSubstitution(s, j);
          word = (word ?? '') + s.slice(j, end);
          dynamic = true;
          j = end;
          continue;
        }
        if (d === '`' || (d === '$' && /[A-Za-z_{0-9@*#?!-]/.test(s[j + 1] ?? ''))) dynamic = true;
        word = (word ?? '') + d;
        j++;
      }
      if (!closed) incomplete = true;
      i = j;
      continue;
    }
    if (c === '$' && s[i + 1] === "'") {
      begin();
      quoted = true;
      let j = i + 2;
      let body = '';
      while (j < s.length && s[j] !== "'") {
        if (s[j] === '\\' && j + 1 < s.length) {
          body += s.slice(j, j + 2);
          j += 2;
        } else body += s[j++];
      }
      word = (word ?? '') + ansiC(body);
      i = j + 1;
      continue;
    }
    if (c === '$' && s[i + 1] === '(') {
      begin();
      const end = skipCommandSubstitution(s, i);
      word = (word ?? '') + s.slice(i, end);
      dynamic = true;
      i = end;
      continue;
    }
    if (c === '`') {
      begin();
      const k = s.indexOf('`', i + 1);
      const end = k < 0 ? s.length : k + 1;
      word = (word ?? '') + s.slice(i, end);
      dynamic = true;
      i = end;
      continue;
    }
    if (c === '$' && /[A-Za-z_{0-9@*#?!-]/.test(s[i + 1] ?? '')) {
      begin();
      dynamic = true;
      word = (word ?? '') + c;
      i++;
      continue;
    }
    if (c === '#' && word === null) {
      const nl = s.indexOf('\n', i);
      i = nl < 0 ? s.length : nl;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      endWord(i);
      i++;
      continue;
    }
    if (c === '\n') {
      endWord(i);
      tokens.push({ t: 'op', value: '\n', start: i, end: i + 1 });
      i++;
      if (pending.length) readHeredocs();
      continue;
    }
    if (c === '>' || c === '<' || (c === '&' && s[i + 1] === '>')) {
      let fd = c === '<' ? 0 : 1;
      if (word !== null && /^\d+$/.test(word) && !quoted && wordStart === i - word.length) {
        fd = Number(word);
        word = null;
      } else endWord(i);
      const start = i;
      let op: Redirect['op'];
      if (s.startsWith('&>>', i)) {
        op = '&>>';
        i += 3;
      } else if (s.startsWith('&>', i)) {
        op = '&>';
        i += 2;
      } else if (s.startsWith('<<<', i)) {
        op = '<<<';
        i += 3;
      } else if (s.startsWith('<<', i)) {
        op = '<<';
        i += 2;
      } else if (s.startsWith('>>', i)) {
        op = '>>';
        i += 2;
      } else if (s.startsWith('>&', i)) {
        op = '>&';
        i += 2;
      } else if (s.startsWith('<&', i)) {
        op = '<&';
        i += 2;
      } else if (s.startsWith('>|', i)) {
        op = '>';
        i += 2;
      } else {
        op = c as '>' | '<';
        i += 1;
      }
      let stripTabs = false;
      if (op === '<<' && s[i] === '-') {
        stripTabs = true;
        i++;
      }
      const tok: Token = { t: 'redir', fd, op, start, end: i };
      tokens.push(tok);
      while (s[i] === ' ' || s[i] === '\t') i++;
      expectHeredocWord = { op, fd, stripTabs, tok };
      continue;
    }
    if (c === '&' || c === '|' || c === ';' || c === '(' || c === ')') {
      endWord(i);
      let op: string = c;
      if ((c === '&' && s[i + 1] === '&') || (c === '|' && s[i + 1] === '|') || (c === ';' && s[i + 1] === ';'))
        op = c + c;
      else if (c === '|' && s[i + 1] === '&') op = '|&';
      tokens.push({ t: 'op', value: op, start: i, end: i + op.length });
      i += op.length;
      continue;
    }
    begin();
    word = (word ?? '') + c;
    i++;
  }
  endWord(i);
  if (pending.length) {
    incomplete = true;
    for (const p of pending) p.redirect.heredoc = '';
  }
  if (expectHeredocWord) incomplete = true;
  return { tokens, incomplete };
}
