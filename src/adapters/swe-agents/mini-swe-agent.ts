/**
 * mini-swe-agent trajectories (`*.traj.json`, format `mini-swe-agent-1`): `messages[]` where each
 * assistant turn holds a THOUGHT and exactly one ```bash block, and the next user turn is the
 * rendered observation (`<returncode>…</returncode><output>…</output>`, an elided head/tail
 * variant, a timeout notice, or a format-error notice when the turn had no single command).
 */

import { isRecord, textOf } from '../content.js';
import { makeNormaliser, rootsOf } from '../paths.js';
import { recogniseShell, type ShellObservation } from '../shell/bash-commands.js';
import { outputLines } from '../shell/view-pipeline.js';
import { TraceBuilder } from '../trace-builder.js';
import type { AdaptedTrace, AdapterOptions } from '../types.js';

const BASH_BLOCK = /```bash\s*\n([\s\S]*?)\n```/g;

interface MiniObservation {
  obs: ShellObservation;
  kind: 'output' | 'elided' | 'timeout' | 'format-error' | 'raw';
}

const between = (s: string, open: string, close: string, fromEnd = false): string | undefined => {
  const a = s.indexOf(open);
  if (a < 0) return undefined;
  const b = fromEnd ? s.lastIndexOf(close) : s.indexOf(close, a + open.length);
  if (b < a + open.length) return undefined;
  return s.slice(a + open.length, b);
};

/** Reads an observation as rendered by mini-swe-agent's templates (see its default config). @internal Exported for its unit tests. */
export function parseMiniObservation(text: string): MiniObservation {
  const rc = /^\s*<returncode>(-?\d+)<\/returncode>/.exec(text);
  const returncode = rc ? Number(rc[1]) : undefined;
  if (text.startsWith('Please always provide EXACTLY ONE action')) {
    return { kind: 'format-error', obs: { text, lines: { lines: [] } } };
  }
  if (/^The last command <command>[\s\S]*?<\/command> timed out/.test(text)) {
    const out = between(text, ' <output>\n', '\n</output>', true) ?? '';
    return { kind: 'timeout', obs: { text: out, lines: { lines: outputLines(out) }, timedOut: true } };
  }
  if (rc) {
    const head = between(text, '<output_head>\n', '\n</output_head>');
    const tail = between(text, '<output_tail>\n', '\n</output_tail>', true);
    if (head !== undefined || tail !== undefined) {
      // The head is cut at a character count, so its last line may be partial (and the tail's first).
      const h = head ?? '';
      const headLines = h.endsWith('\n') ? outputLines(h) : outputLines(h).slice(0, -1);
      const tailLines = outputLines(tail ?? '').slice(1);
      return {
        kind: 'elided',
        obs: { text: `${h}\n${tail ?? ''}`, lines: { head: headLines, tail: tailLines }, returncode },
      };
    }
    const out = between(text, '<output>\n', '</output>', true);
    if (out !== undefined)
      return { kind: 'output', obs: { text: out, lines: { lines: outputLines(out) }, returncode } };
    const open = text.indexOf('<output>\n');
    if (open >= 0) {
      // Truncated record: what follows <output> is a prefix of the output, its last line maybe partial.
      const rest = text.slice(open + '<output>\n'.length);
      const head = rest.endsWith('\n') ? outputLines(rest) : outputLines(rest).slice(0, -1);
      return { kind: 'elided', obs: { text: rest, lines: { head, tail: [] }, returncode } };
    }
    return { kind: 'raw', obs: { text, lines: { lines: [] }, returncode } };
  }
  return { kind: 'raw', obs: { text, lines: { lines: outputLines(text) }, returncode } };
}

/** The task: the text the instance template wrapped in <pr_description>. */
function taskText(content: string): string | undefined {
  const inner = between(content, '<pr_description>', '</pr_description>');
  if (inner === undefined) return undefined;
  // The template's own lead-in line is boilerplate, not part of the task.
  return inner.replace(/^\s*Consider the following PR description:\s*\n/, '').trim();
}

/** Thought text of an assistant turn without its command block(s) and the THOUGHT: label. */
function thoughtOf(content: string): string {
  return content
    .replace(BASH_BLOCK, '')
    .replace(/^\s*THOUGHT:\s*/, '')
    .trim();
}

/** A mini-swe-agent trajectory (`{ messages, info }`) as transactions, one per step. */
export function fromMiniSweAgent(trajectory: unknown, options: AdapterOptions = {}): AdaptedTrace {
  if (!isRecord(trajectory) && !Array.isArray(trajectory))
    throw new TypeError('fromMiniSweAgent: expected a trajectory object');
  const messages: unknown = Array.isArray(trajectory) ? trajectory : trajectory.messages;
  if (!Array.isArray(messages)) throw new TypeError('fromMiniSweAgent: the trajectory has no messages array');
  const cwd = configuredCwd(trajectory) ?? '/testbed';
  const normalise = makeNormaliser([cwd, '/testbed', ...rootsOf(options)]);
  const b = new TraceBuilder(options);

  // Epoch 0: the first user message carrying the task (system prompt and instructions dropped).
  let start = 0;
  let task: string | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (isRecord(m) && m.role === 'user') {
      const content = textOf(m.content);
      task = taskText(content) ?? (content.trim() || undefined);
      start = i + 1;
      break;
    }
  }
  b.task(task);

  let t = 0;
  for (let i = start; i < messages.length; i++) {
    const m = messages[i];
    if (isRecord(m) && (m.role === 'system' || m.role === 'user')) {
      if (m.role === 'user') {
        b.warn(t, 'observation without a preceding assistant turn');
        b.count('orphan-observation');
      }
      continue;
    }
    t++;
    const next = messages[i + 1];
    const observation = isRecord(next) && next.role === 'user' ? textOf(next.content) : undefined;
    if (observation !== undefined) i++;
    if (!isRecord(m) || (typeof (m.content ?? '') !== 'string' && !Array.isArray(m.content))) {
      b.warn(t, 'malformed assistant message');
      b.count('malformed');
      b.addStep({ epoch: t, calls: [], plainResult: { body: observation ?? '', meta: { unparsed: true } } });
      continue;
    }
    const content = textOf(m.content);
    const blocks = [...content.matchAll(BASH_BLOCK)];
    if (blocks.length !== 1) {
      // mini-swe-agent rejects the turn and answers with a format error; nothing ran.
      b.warn(t, `format error: ${blocks.length} bash blocks`);
      b.count('format-error');
      b.addStep({
        epoch: t,
        thought: content,
        calls: [],
        plainResult: { body: observation ?? '', meta: { formatError: true } },
      });
      continue;
    }
    const command = (blocks[0] as RegExpMatchArray)[1] as string;
    if (observation === undefined) {
      b.warn(t, 'no observation recorded for the command');
      b.count('no-result');
      b.addStep({ epoch: t, thought: thoughtOf(content), calls: [{ tool: 'bash', body: command, effects: [] }] });
      continue;
    }
    const parsed = parseMiniObservation(observation);
    let effects: ReturnType<typeof recogniseShell>['effects'] = [];
    try {
      const r = recogniseShell(command, parsed.obs, { cwd, normalise, files: b });
      effects = r.effects;
      if (r.submit) b.count('submit');
    } catch (err) {
      // A recogniser bug must cost one step's facts, never the trace.
      b.warn(t, `recogniser failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (parsed.kind === 'timeout') b.count('timeout');
    if (parsed.kind === 'elided') b.count('elided-output');
    if (!effects.some((e) => e.kind !== 'view-uncertain')) b.count('other');
    const meta: Record<string, number | boolean> = {};
    if (parsed.obs.returncode !== undefined) meta.returncode = parsed.obs.returncode;
    if (parsed.kind === 'timeout') meta.timedOut = true;
    // The middle of the output is gone and only the head sits at known lines: a view cut from it
    // does not carry the tail, so the result must never be shown as a mere reference to it.
    if (parsed.kind === 'elided') meta.elided = true;
    b.addStep({
      epoch: t,
      thought: thoughtOf(content),
      calls: [
        { tool: 'bash', body: command, result: { body: observation, error: parsed.kind === 'timeout', meta }, effects },
      ],
    });
  }
  return b.finish();
}

function configuredCwd(trajectory: unknown): string | undefined {
  if (!isRecord(trajectory)) return undefined;
  const info = trajectory.info;
  const config = isRecord(info) ? info.config : undefined;
  const env = isRecord(config) ? config.environment : undefined;
  const cwd = isRecord(env) ? env.cwd : undefined;
  return typeof cwd === 'string' && cwd.startsWith('/') ? cwd : undefined;
}
