/**
 * File-editor tools: SWE-agent's windowed editor (`open`, `goto`, `scroll_*`, `create`,
 * `edit N:M … end_of_edit`, `edit 'search' 'replace'`, `insert`, `search_file`) and the
 * `str_replace_editor` / Anthropic text-editor family (`view`, `create`, `str_replace`, `insert`).
 * Views come from the observation, which numbers every line it shows; writes from the command.
 */
import type { LineRange } from '../../schema/types.js';
import { mergeRanges } from '../diff/unified-diff.js';
import { parseShell } from '../shell/shell-parse.js';
import type { Effect, FileKnowledge, PathNormaliser, ViewEffect, WriteEffect } from '../types.js';

export interface EditorContext {
  normalise: PathNormaliser;
  cwd?: string | undefined;
  files: FileKnowledge;
  /** Repository-relative path of the file the editor has open, if any. */
  openFile?: string | undefined;
}

export interface EditorRecognition {
  effects: Effect[];
  /** Tool name for the call node. */
  tool: string;
  /** File open after the command (from the command or the observation). */
  openFile?: string | undefined;
  submit: boolean;
  /** The tool rejected the command (e.g. an edit with syntax errors). */
  failed: boolean;
}

const FILE_HEADER = /^\[File: (.+?) \((\d+) lines total\)\]$/;
const CAT_N_HEADER = /Here's the result of running `cat -n` on (?:a snippet of )?(.+?):?$/;
const EDIT_FAILED =
  /Your proposed edit has introduced new syntax error|Your changes have NOT been applied|No replacement was performed|did not appear verbatim|^Error:|^ERROR:|^Usage:|is not a valid|No such file or directory|^Invalid /m;

/**
 * Every numbered window in an observation: `[File: p (N lines total)]` + `n:text` lines,
 * `cat -n` snippets, and `search_file` hits (`Line n:text`). Windows previewing a rejected edit
 * ("how your edit would have looked") are skipped: those lines never existed.
 */
export function numberedWindows(observation: string, resolve: (p: string) => string): ViewEffect[] {
  const lines = observation.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const views: ViewEffect[] = [];
  let hypothetical = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/would have looked if applied/.test(line)) hypothetical = true;
    if (/This is the original code before your edit/.test(line)) hypothetical = false;
    const header = FILE_HEADER.exec(line);
    if (header) {
      const path = resolve(header[1] as string);
      const total = Number(header[2]);
      let j = i + 1;
      let first: number | undefined;
      const body: string[] = [];
      for (; j < lines.length; j++) {
        const l = lines[j] as string;
        if (/^\(\d+ more lines (above|below)\)$/.test(l) || /^<<<<< (START|END) CURSOR >>>>>$/.test(l)) continue;
        const m = /^(\d+):(.*)$/.exec(l);
        if (!m) break;
        const n = Number(m[1]);
        if (first === undefined) first = n;
        else if (n !== first + body.length) break;
        body.push(m[2] as string);
      }
      if (!hypothetical && first !== undefined && body.length)
        views.push({ kind: 'view', path, range: [first, first + body.length - 1], lines: body, total });
      i = j - 1;
      continue;
    }
    const catN = CAT_N_HEADER.exec(line);
    if (catN) {
      const path = resolve(catN[1] as string);
      let j = i + 1;
      let first: number | undefined;
      const body: string[] = [];
      for (; j < lines.length; j++) {
        const m = /^ *(\d+)\t(.*)$/.exec(lines[j] as string);
        if (!m) break;
        const n = Number(m[1]);
        if (first === undefined) first = n;
        else if (n !== first + body.length) break;
        body.push(m[2] as string);
      }
      if (first !== undefined && body.length)
        views.push({ kind: 'view', path, range: [first, first + body.length - 1], lines: body });
      i = j - 1;
      continue;
    }
    // search_file: `Found N matches for "x" in /path:` then `Line n:text` (find_file lists paths instead)
    const search = /^Found \d+ matches for ".*" in (.+?):?$/.exec(line);
    if (search && lines[i + 1]?.startsWith('Line ')) {
      const path = resolve(search[1] as string);
      let j = i + 1;
      for (; j < lines.length; j++) {
        const m = /^Line (\d+):(.*)$/.exec(lines[j] as string);
        if (!m) break;
        const n = Number(m[1]);
        const last = views[views.length - 1];
        if (last && last.path === path && last.range[1] + 1 === n) {
          last.range = [last.range[0], n];
          last.lines.push(m[2] as string);
        } else views.push({ kind: 'view', path, range: [n, n], lines: [m[2] as string] });
      }
      i = j - 1;
    }
  }
  return views;
}

/** Lines of known text a literal snippet spans (all occurrences), or undefined when absent. */
function locateSnippet(snippet: string, known: ReadonlyMap<number, string> | undefined): LineRange[] | undefined {
  if (!known || known.size === 0 || snippet === '') return undefined;
  const nums = [...known.keys()].sort((a, b) => a - b);
  const ranges: LineRange[] = [];
  const parts = snippet.replace(/\n$/, '').split('\n');
  for (const n of nums) {
    // a snippet may start and end mid-line; inner lines must match whole lines
    const firstText = known.get(n) as string;
    if (!firstText.includes(parts[0] as string)) continue;
    if (parts.length === 1) {
      ranges.push([n, n]);
      continue;
    }
    let ok = firstText.endsWith(parts[0] as string);
    for (let k = 1; ok && k < parts.length; k++) {
      const t = known.get(n + k);
      if (t === undefined) ok = false;
      else if (k === parts.length - 1) ok = t.startsWith(parts[k] as string);
      else ok = t === parts[k];
    }
    if (ok) ranges.push([n, n + parts.length - 1]);
  }
  return ranges.length ? mergeRanges(ranges) : undefined;
}

/** Words of a command line (quotes removed), e.g. `edit 'a' 'b' True`. */
const words = (line: string): string[] =>
  parseShell(line).items.flatMap((it) => it.pipeline.commands.flatMap((c) => c.argv));

/** Value of `--flag value` in a str_replace_editor command line. */
function flagValue(argv: readonly string[], flag: string): string | undefined {
  const k = argv.indexOf(flag);
  return k >= 0 ? argv[k + 1] : undefined;
}

/** Structured editor input (Anthropic text editor / str_replace_editor function calls). */
export interface EditorInput {
  command: string;
  path?: string | undefined;
  file_text?: string | undefined;
  old_str?: string | undefined;
  new_str?: string | undefined;
  insert_line?: number | undefined;
  view_range?: readonly number[] | undefined;
}

/** Writes of a str_replace_editor-style command (views are read from the observation). */
export function editorInputWrites(input: EditorInput, ctx: EditorContext): WriteEffect[] {
  if (!input.path) return [];
  const path = ctx.normalise(input.path, ctx.cwd);
  switch (input.command) {
    case 'create':
      return [{ kind: 'write', path, content: input.file_text ?? '' }];
    case 'str_replace': {
      const w: WriteEffect = { kind: 'write', path };
      const changed =
        input.old_str === undefined ? undefined : locateSnippet(input.old_str, ctx.files.knownLines(path));
      if (changed) w.changed = changed;
      return [w];
    }
    case 'insert': {
      const n = input.insert_line;
      const w: WriteEffect = { kind: 'write', path };
      // insert_line N inserts after line N (0 = at the top)
      if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) w.changed = n === 0 ? [[1, 1]] : [[n, n + 1]];
      return [w];
    }
    case 'undo_edit':
      return [{ kind: 'write', path, revert: true }];
    default:
      return [];
  }
}

const SWE_TOOLS = new Set([
  'open',
  'goto',
  'scroll_up',
  'scroll_down',
  'create',
  'edit',
  'insert',
  'append',
  'search_file',
  'search_dir',
  'find_file',
  'submit',
  'str_replace_editor',
  'set_cursors',
  'filemap',
  'view',
]);

/** The tool a SWE-agent action invokes (`bash` for plain shell commands). */
export function sweAgentTool(action: string): string {
  const w = action.trim().split(/\s+/)[0] ?? '';
  return SWE_TOOLS.has(w) ? w : 'bash';
}

/** Recognises a SWE-agent editor action (not plain bash, see sweAgentTool). */
export function recogniseEditorAction(action: string, observation: string, ctx: EditorContext): EditorRecognition {
  const text = action.replace(/\r\n/g, '\n').trim();
  const tool = sweAgentTool(text);
  const resolve = (p: string): string => ctx.normalise(p, ctx.cwd);
  const failed = EDIT_FAILED.test(observation) && /^(edit|insert|append|str_replace_editor|create)$/.test(tool);
  const rec: EditorRecognition = { effects: [], tool, openFile: ctx.openFile, submit: tool === 'submit', failed };
  const firstLine = text.split('\n')[0] ?? '';
  const argv = words(firstLine);
  const writes: WriteEffect[] = [];

  if (tool === 'open' && argv[1]) rec.openFile = resolve(argv[1]);
  if (tool === 'create' && argv[1]) {
    rec.openFile = resolve(argv[1]);
    // SWE-agent creates the file with a single empty line.
    if (!failed) writes.push({ kind: 'write', path: rec.openFile, content: '\n' });
  }
  if (tool === 'edit' && !failed && ctx.openFile) {
    const range = /^edit\s+(\d+):(\d+)\s*$/.exec(firstLine);
    if (range) {
      const a = Number(range[1]);
      const b = Math.max(a, Number(range[2]));
      writes.push({ kind: 'write', path: ctx.openFile, changed: [[a, b]] });
    } else if (argv.length >= 3) {
      // edit 'search' 'replace' [replace-all]
      const w: WriteEffect = { kind: 'write', path: ctx.openFile };
      const changed = locateSnippet(argv[1] as string, ctx.files.knownLines(ctx.openFile));
      if (changed) w.changed = changed;
      writes.push(w);
    } else writes.push({ kind: 'write', path: ctx.openFile }); // cursor-window edit
  }
  if ((tool === 'insert' || tool === 'append') && !failed && ctx.openFile) {
    const w: WriteEffect = { kind: 'write', path: ctx.openFile };
    const line =
      tool === 'insert'
        ? (/^insert\s+(\d+)\s*$/.exec(firstLine)?.[1] ?? (argv.length >= 3 ? argv[2] : undefined))
        : undefined;
    if (line !== undefined && /^\d+$/.test(line))
      w.changed = Number(line) === 0 ? [[1, 1]] : [[Number(line), Number(line) + 1]];
    else w.changed = []; // appended at the end: no old line changes
    writes.push(w);
  }
  if (tool === 'str_replace_editor' && !failed) {
    const [, command, path] = argv;
    if (command && path) {
      const input: EditorInput = {
        command,
        path,
        file_text: flagValue(argv, '--file_text'),
        old_str: flagValue(argv, '--old_str'),
        new_str: flagValue(argv, '--new_str'),
        insert_line:
          flagValue(argv, '--insert_line') === undefined ? undefined : Number(flagValue(argv, '--insert_line')),
      };
      writes.push(...editorInputWrites(input, ctx));
      rec.openFile = resolve(path);
    }
  }

  rec.effects.push(...writes);
  if (!rec.submit) {
    const views = numberedWindows(observation, resolve);
    rec.effects.push(...views);
    const lastWindow = views.filter((v) => v.total !== undefined).pop();
    if (lastWindow && tool !== 'search_file') rec.openFile = lastWindow.path;
  }
  return rec;
}
