/**
 * Shared step assembly for chat transcripts (OpenAI and Anthropic shapes). Each provider parser
 * flattens its messages into `ChatTurn`s; this module pairs tool calls with results by id (in a
 * first pass, so a late result still finds its call), emits one step per assistant turn and per
 * later user message, and recognises views/writes/verifiers in bash-like and editor-like tools.
 *
 * Steering rule: a user message after the task is a `steering` node when it reads as an
 * instruction about how to work — it starts with, or contains, a directive cue (see STEERING:
 * "please", "don't", "instead", "make sure", "you should", "stop", "use", …); otherwise it is a
 * `message` (role user). A steering node `plans` the next action.
 */

import { isRecord } from '../content.js';
import { makeNormaliser, rootsOf } from '../paths.js';
import { recogniseShell } from '../shell/bash-commands.js';
import { outputLines } from '../shell/view-pipeline.js';
import { type EditorInput, editorInputWrites, numberedWindows } from '../swe-agents/editor-tools.js';
import { type CallInput, TraceBuilder } from '../trace-builder.js';
import type { AdaptedTrace, AdapterOptions, Effect, ViewEffect } from '../types.js';

export interface ChatCall {
  /** Provider call id (undefined for legacy single function calls). */
  id?: string | undefined;
  name: string;
  /** Parsed input object, or the raw argument string when it is not JSON. */
  input: unknown;
  /** Exact argument text as the provider gave it. */
  raw: string;
}

export type ChatTurn =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string; calls: ChatCall[] }
  | { kind: 'result'; callId?: string | undefined; name?: string | undefined; text: string; isError: boolean }
  | { kind: 'skip' }
  | { kind: 'malformed'; reason: string; raw: string };

const STEERING =
  /^\s*(?:please|pls|don'?t|do not|stop|instead|use|make sure|remember|always|never|only|focus|avoid|try|no[,.!]|wait|also|keep|switch|revert|undo|skip|ignore|prefer)\b|\b(?:you (?:must|should|need to)|make sure|instead of|don'?t|do not|from now on|rather than)\b/i;

/** Whether a later user message is a steering instruction (see module comment). */
export const isSteering = (text: string): boolean => STEERING.test(text);

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
function toolEffects(
  call: ChatCall,
  result: string | undefined,
  b: TraceBuilder,
  normalise: ReturnType<typeof makeNormaliser>,
): Effect[] {
  if (result === undefined) return [];
  const command = commandOf(call.input);
  if (command !== undefined && (BASH_NAMES.test(call.name) || /bash|shell|terminal/i.test(call.name))) {
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

/** Emits the trace for flattened chat turns. */
export function buildChatTrace(turns: readonly ChatTurn[], options: AdapterOptions): AdaptedTrace {
  return chatTrace(turns, options).trace;
}

/**
 * The trace and, per turn, the epoch of the step it opened (-1 for a turn that opened none: the
 * task, a skipped or empty turn, a paired result). The live recorder uses it to tell which steps
 * a later turn can no longer change.
 */
export function chatTrace(
  turns: readonly ChatTurn[],
  options: AdapterOptions,
): { trace: AdaptedTrace; turnEpochs: number[] } {
  const turnEpochs = turns.map(() => -1);
  const b = new TraceBuilder(options);
  const normalise = makeNormaliser(rootsOf(options));

  // Task: the first user turn.
  const taskIdx = turns.findIndex((t) => t.kind === 'user');
  b.task(taskIdx >= 0 ? (turns[taskIdx] as { text: string }).text.trim() || undefined : undefined);

  // Pass 1: match results to calls by id (or by name/order for id-less legacy calls).
  const callOwner = new Map<string, number>(); // call id → turn index of its assistant turn
  const resultFor = new Map<string, { text: string; isError: boolean }>();
  const orphanAt = new Set<number>();
  const pendingNoId: Array<{ turn: number; call: ChatCall; key: string }> = [];
  turns.forEach((t, i) => {
    if (t.kind === 'assistant') {
      t.calls.forEach((c, k) => {
        const key = c.id ?? `#${i}:${k}`;
        if (c.id === undefined) pendingNoId.push({ turn: i, call: c, key });
        else if (!callOwner.has(key)) callOwner.set(key, i);
      });
      return;
    }
    if (t.kind !== 'result') return;
    let key: string | undefined;
    if (t.callId !== undefined && callOwner.has(t.callId) && !resultFor.has(t.callId)) key = t.callId;
    else if (t.callId === undefined) {
      const p = pendingNoId.find((x) => !resultFor.has(x.key) && (t.name === undefined || x.call.name === t.name));
      key = p?.key;
    }
    if (key === undefined) orphanAt.add(i);
    else resultFor.set(key, { text: t.text, isError: t.isError });
  });

  // Pass 2: one step per assistant turn and per later user message.
  let epoch = 0;
  turns.forEach((t, i) => {
    if (t.kind === 'skip' || i === taskIdx) return;
    if (t.kind === 'malformed') {
      // Unparseable: kept as a plain result so nothing of the transcript is silently lost.
      turnEpochs[i] = ++epoch;
      b.warn(epoch, t.reason);
      b.count('malformed');
      b.addStep({ epoch, calls: [], plainResult: { body: t.raw, meta: { unparsed: true } } });
      return;
    }
    if (t.kind === 'user') {
      if (!t.text.trim()) return; // an empty user turn says nothing
      turnEpochs[i] = ++epoch;
      const steering = isSteering(t.text);
      b.addStep({
        epoch,
        calls: [],
        messages: [{ kind: steering ? 'steering' : 'message', role: 'user', body: t.text }],
      });
      return;
    }
    if (t.kind === 'result') {
      if (!orphanAt.has(i)) return;
      turnEpochs[i] = ++epoch;
      b.warn(epoch, `tool result without a matching call${t.callId ? ` (${t.callId})` : ''}`);
      b.count('orphan-result');
      b.addStep({ epoch, calls: [], messages: [{ kind: 'message', role: 'tool', body: t.text }] });
      return;
    }
    turnEpochs[i] = ++epoch;
    if (t.calls.length === 0) {
      if (t.text.trim())
        b.addStep({ epoch, calls: [], messages: [{ kind: 'message', role: 'assistant', body: t.text }] });
      else {
        b.warn(epoch, 'empty assistant message');
        b.addStep({ epoch, calls: [] });
      }
      return;
    }
    const calls: CallInput[] = t.calls.map((c, k) => {
      const key = c.id ?? `#${i}:${k}`;
      const res = resultFor.get(key);
      if (!res) {
        b.warn(epoch, `call ${c.id ?? c.name} has no result`);
        b.count('no-result');
      }
      let effects: Effect[] = [];
      try {
        effects = toolEffects(c, res?.text, b, normalise);
      } catch (err) {
        b.warn(epoch, `recogniser failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (!effects.some((e) => e.kind !== 'view-uncertain')) b.count('other');
      const body =
        commandOf(c.input) !== undefined && (BASH_NAMES.test(c.name) || /bash|shell|terminal/i.test(c.name))
          ? (commandOf(c.input) as string)
          : c.raw;
      const call: CallInput = { tool: c.name || 'unknown', body, effects };
      if (c.id !== undefined) call.callId = c.id;
      if (res) call.result = { body: res.text, error: res.isError };
      return call;
    });
    b.addStep({ epoch, thought: t.text, calls });
  });
  return { trace: b.finish(), turnEpochs };
}
