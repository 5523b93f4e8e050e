/**
 * What one tool call of a chat turn did to files: views, writes and verifiers, recognised in
 * bash-like tools (by their shell command) and editor-like tools (by their editor command).
 */

import { isRecord } from '../content.js';
import type { makeNormaliser } from '../paths.js';
import { recogniseShell } from '../shell/bash-commands.js';
import { outputLines } from '../shell/view-pipeline.js';
import { type EditorInput, editorInputWrites, numberedWindows } from '../swe-agents/editor-tools.js';
import type { TraceBuilder } from '../trace-builder.js';
import type { Effect, ViewEffect } from '../types.js';
import type { ChatCall } from './chat-turns.js';

const BASH_NAMES =
  /^(?:bash|shell|sh|terminal|run|cmd|exec|run_?(?:shell_?)?command|execute_?(?:bash|command|shell)|exec_?command|run_?bash|container\.exec|local_shell)$/i;
const EDITOR_NAMES = /str_replace|text_editor|editor|edit_file|file_edit/i;

function commandOf(input: unknown): string | undefined {
  if (!isRecord(input)) return undefined;
  const c = input.command ?? input.cmd;
  if (typeof c === 'string') return c;
  if (Array.isArray(c) && c.every((x) => typeof x === 'string')) {
    // ["bash", "-lc", "cmd"] → cmd
    if (c.length === 3 && /^(ba)?sh$/.test(c[0] as string) && /^-\w*c$/.test(c[1] as string)) return c[2] as string;
    return c.join(' ');
  }
  return undefined;
}

/** The shell command of a bash-like tool call; undefined for any other call. */
function shellCommandOf(call: ChatCall): string | undefined {
  if (!BASH_NAMES.test(call.name) && !/bash|shell|terminal/i.test(call.name)) return undefined;
  return commandOf(call.input);
}

/** What a call node's body holds: a bash-like call's command, else the exact argument text. */
export const callBody = (call: ChatCall): string => shellCommandOf(call) ?? call.raw;

/** Numbered `   n\tline` output of an editor `view` that printed no header. */
function bareNumbered(text: string, path: string): ViewEffect[] {
  const lines = outputLines(text.replace(/\r\n/g, '\n'));
  const body: string[] = [];
  let first: number | undefined;
  for (const l of lines) {
    const m = /^ *(\d+)\t(.*)$/.exec(l);
    if (!m) {
      if (first === undefined) continue; // a leading header line
      break;
    }
    const n = Number(m[1]);
    if (first === undefined) first = n;
    else if (n !== first + body.length) break;
    body.push(m[2] as string);
  }
  return first === undefined ? [] : [{ kind: 'view', path, range: [first, first + body.length - 1], lines: body }];
}

/** Views, writes and verifiers of one tool use, when the tool is bash-like or editor-like. */
export function toolEffects(
  call: ChatCall,
  result: string | undefined,
  b: TraceBuilder,
  normalise: ReturnType<typeof makeNormaliser>,
): Effect[] {
  if (result === undefined) return [];
  const command = shellCommandOf(call);
  if (command !== undefined) {
    const text = result.replace(/\r\n/g, '\n');
    const rc = /(?:^|\n)(?:exit code|return ?code|exit status)[:=]?\s*(-?\d+)\s*$/i.exec(text);
    return recogniseShell(
      command,
      { text, lines: { lines: outputLines(text) }, returncode: rc ? Number(rc[1]) : undefined },
      { normalise, files: b },
    ).effects;
  }
  if (EDITOR_NAMES.test(call.name) && isRecord(call.input) && typeof call.input.command === 'string') {
    const inp = call.input;
    const input: EditorInput = {
      command: inp.command as string,
      path: typeof inp.path === 'string' ? inp.path : undefined,
      file_text: typeof inp.file_text === 'string' ? inp.file_text : undefined,
      old_str: typeof inp.old_str === 'string' ? inp.old_str : undefined,
      new_str: typeof inp.new_str === 'string' ? inp.new_str : undefined,
      insert_line: typeof inp.insert_line === 'number' ? inp.insert_line : undefined,
    };
    const ctx = { normalise, files: b };
    const effects: Effect[] =
      /error|not found|no such|did not appear|no replacement/i.test(result.slice(0, 200)) && input.command !== 'view'
        ? []
        : editorInputWrites(input, ctx);
    const resolve = (p: string): string => normalise(p);
    let views = numberedWindows(result, resolve);
    if (views.length === 0 && input.command === 'view' && input.path) views = bareNumbered(result, resolve(input.path));
    effects.push(...views);
    return effects;
  }
  return [];
}
