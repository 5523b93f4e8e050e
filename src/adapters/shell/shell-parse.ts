/**
 * Just enough of the POSIX shell grammar to read the commands coding agents write: quoting,
 * `&&`/`||`/`;`/newline lists, pipelines, redirects and here-documents. It never evaluates
 * anything; words containing substitutions are kept literally and flagged `dynamic` so recognisers
 * can refuse to trust them. Control flow (`for`, `if`, subshells) only sets `complex`. The words
 * come from the lexer (lexer.ts).
 */
import { type Redirect, type Token, tokenize } from './lexer.js';

export interface SimpleCommand {
  /** Words after quote removal, without leading `NAME=value` assignments. */
  argv: string[];
  env: string[];
  redirects: Redirect[];
  /** Source text of the command (here-doc bodies excluded). */
  raw: string;
  /** Some word contains `$…`/backquote substitution, so argv values are approximate. */
  dynamic: boolean;
}

export interface Pipeline {
  commands: SimpleCommand[];
  raw: string;
}

interface ListItem {
  pipeline: Pipeline;
  /** Operator that precedes this pipeline (null for the first). */
  connector: '&&' | '||' | ';' | '&' | null;
}

export interface ShellList {
  items: ListItem[];
  /** Control flow, subshells or grouping were present: the flat list is only approximate. */
  complex: boolean;
  /** Unterminated quote or here-doc. */
  incomplete: boolean;
}

const CONTROL_WORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'for',
  'while',
  'until',
  'do',
  'done',
  'case',
  'esac',
  'function',
  '{',
  '}',
  '!',
  'select',
]);

/** Parses a command line into a flat list of pipelines. Never throws. */
export function parseShell(source: string): ShellList {
  const { tokens, incomplete } = tokenize(source);
  const items: ListItem[] = [];
  let complex = false;
  let connector: ListItem['connector'] = null;
  let commands: Array<{ cmd: SimpleCommand; start: number; end: number }> = [];
  let cur: { words: Extract<Token, { t: 'word' }>[]; redirects: Redirect[]; start: number; end: number } | null = null;

  const flushCommand = (): void => {
    if (!cur) return;
    const words = cur.words;
    let k = 0;
    const env: string[] = [];
    while (k < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test((words[k] as { value: string }).value)) {
      env.push((words[k] as { value: string }).value);
      k++;
    }
    const argv = words.slice(k).map((w) => w.value);
    if (argv.length || cur.redirects.length || env.length) {
      commands.push({
        cmd: {
          argv,
          env,
          redirects: cur.redirects,
          raw: source.slice(cur.start, cur.end),
          dynamic: words.some((w) => w.dynamic),
        },
        start: cur.start,
        end: cur.end,
      });
    }
    cur = null;
  };
  const flushPipeline = (next: ListItem['connector']): void => {
    flushCommand();
    if (commands.length) {
      const first = commands[0] as { start: number };
      const last = commands[commands.length - 1] as { end: number };
      items.push({
        pipeline: { commands: commands.map((c) => c.cmd), raw: source.slice(first.start, last.end) },
        connector,
      });
      connector = next;
    } else if (next === '&&' || next === '||') {
      connector = next;
    }
    commands = [];
  };

  for (const tok of tokens) {
    if (tok.t === 'word') {
      if (!cur && CONTROL_WORDS.has(tok.value) && !tok.quoted) {
        complex = true;
        continue;
      }
      if (!cur) cur = { words: [], redirects: [], start: tok.start, end: tok.end };
      cur.words.push(tok);
      cur.end = tok.end;
      continue;
    }
    if (tok.t === 'redir') {
      if (!cur) cur = { words: [], redirects: [], start: tok.start, end: tok.end };
      if (tok.redirect) cur.redirects.push(tok.redirect);
      cur.end = Math.max(cur.end, tok.end);
      continue;
    }
    switch (tok.value) {
      case '|':
      case '|&':
        flushCommand();
        break;
      case '&&':
      case '||':
        flushPipeline(tok.value);
        break;
      case ';':
      case '\n':
        // A newline right after `&&`/`||` continues the list: flushPipeline keeps that connector.
        flushPipeline(';');
        break;
      case '&':
        flushPipeline('&');
        break;
      default:
        // ( ) ;; — subshells and case arms
        complex = true;
        flushPipeline(';');
    }
  }
  flushPipeline(null);
  return { items, complex, incomplete };
}
