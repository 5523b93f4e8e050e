/**
 * SWE-agent trajectories (`*.traj`): `trajectory[]` of `{action, observation, thought, state}`
 * (preferred: observations there carry no prompt trailer) or, when absent, `history[]` chat
 * messages. Actions are either editor commands (see editor-tools.ts) or plain bash. The task is the
 * issue text of the first non-demonstration user message (or `replay_config.problem_statement`).
 */

import { isRecord, textOf } from '../content.js';
import { makeNormaliser, rootsOf } from '../paths.js';
import { recogniseShell } from '../shell/bash-commands.js';
import { outputLines } from '../shell/view-pipeline.js';
import { TraceBuilder } from '../trace-builder.js';
import type { AdaptedTrace, AdapterOptions, Effect } from '../types.js';
import { recogniseEditorAction, sweAgentTool } from './editor-tools.js';

interface RawStep {
  action: string;
  observation?: string | undefined;
  thought: string;
  state?: Record<string, unknown> | undefined;
}

const TRAILER = /\n*\(Open file: ([^\n]*)\)\n\(Current directory: ([^\n]*)\)\n(?:bash-\$|\(\w+\) bash-\$)\s*$/;

/** A history observation without its prompt trailer, and the state the trailer reports. */
function splitTrailer(text: string): { body: string; state?: Record<string, unknown> | undefined } {
  const m = TRAILER.exec(text);
  if (!m) return { body: text };
  return { body: text.slice(0, m.index), state: { open_file: m[1], working_dir: m[2] } };
}

function stateOf(v: unknown): Record<string, unknown> | undefined {
  if (isRecord(v)) return v;
  if (typeof v === 'string') {
    try {
      const parsed: unknown = JSON.parse(v);
      return isRecord(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The issue text of a SWE-agent instance prompt. */
function issueText(prompt: string): string | undefined {
  const m =
    /ISSUE:\n([\s\S]*?)\n+INSTRUCTIONS:/.exec(prompt) ??
    /<issue>\n?([\s\S]*?)\n?<\/issue>/.exec(prompt) ??
    /<pr_description>\n?([\s\S]*?)\n?<\/pr_description>/.exec(prompt);
  return m ? (m[1] as string).trim() : undefined;
}

function findTask(traj: Record<string, unknown>): string | undefined {
  const history = Array.isArray(traj.history) ? traj.history : [];
  for (const m of history) {
    if (!isRecord(m) || m.role !== 'user' || m.is_demo === true) continue;
    const text = textOf(m.content);
    if (text.includes('--- DEMONSTRATION ---')) continue;
    const issue = issueText(text);
    if (issue) return issue;
  }
  const rc = stateOf(traj.replay_config);
  const ps = rc && isRecord(rc.problem_statement) ? rc.problem_statement : undefined;
  if (ps && typeof ps.text === 'string') return ps.text.trim();
  if (typeof traj.problem_statement === 'string') return traj.problem_statement.trim();
  for (const m of history) {
    if (isRecord(m) && m.role === 'user' && m.is_demo !== true)
      return splitTrailer(textOf(m.content)).body.trim() || undefined;
  }
  return undefined;
}

/** Steps from `trajectory[]`, or reconstructed from `history[]` (assistant action + next observation). */
function rawSteps(traj: Record<string, unknown>, warn: (reason: string) => void): Array<RawStep | undefined> {
  if (Array.isArray(traj.trajectory) && traj.trajectory.length > 0) {
    return traj.trajectory.map((s) => {
      if (!isRecord(s) || typeof s.action !== 'string') return undefined;
      return {
        action: s.action,
        observation: typeof s.observation === 'string' ? s.observation : undefined,
        thought: typeof s.thought === 'string' ? s.thought : typeof s.response === 'string' ? s.response : '',
        state: stateOf(s.state),
      };
    });
  }
  const history = Array.isArray(traj.history) ? traj.history : [];
  const steps: Array<RawStep | undefined> = [];
  let seenTask = false;
  for (let i = 0; i < history.length; i++) {
    const m = history[i];
    if (!isRecord(m)) continue;
    if (m.role === 'user' && !seenTask) {
      if (m.is_demo !== true) seenTask = true;
      continue;
    }
    if (m.role !== 'assistant' || m.is_demo === true) continue;
    const content = textOf(m.content);
    const action =
      typeof m.action === 'string'
        ? m.action
        : /```\w*\n([\s\S]*?)\n```|<command>\n?([\s\S]*?)\n?<\/command>/
            .exec(content)
            ?.slice(1)
            .find((x) => x !== undefined);
    if (action === undefined) {
      warn('assistant message without an action');
      steps.push(undefined);
      continue;
    }
    const next = history[i + 1];
    let observation: string | undefined;
    let state: Record<string, unknown> | undefined;
    if (isRecord(next) && (next.role === 'user' || next.role === 'tool')) {
      ({ body: observation, state } = splitTrailer(textOf(next.content)));
      i++;
    }
    steps.push({ action, observation, thought: typeof m.thought === 'string' ? m.thought : content, state });
  }
  return steps;
}

/** Where the agent starts: the task prompt's `(Current directory: …)`, else the first step's state. */
function initialCwd(traj: Record<string, unknown>, steps: ReadonlyArray<RawStep | undefined>): string | undefined {
  const history = Array.isArray(traj.history) ? traj.history : [];
  for (const m of history) {
    if (!isRecord(m) || m.role !== 'user' || m.is_demo === true) continue;
    const wd = splitTrailer(textOf(m.content)).state?.working_dir;
    if (typeof wd === 'string' && wd.startsWith('/')) return wd;
  }
  const wd = steps.find((s) => typeof s?.state?.working_dir === 'string')?.state?.working_dir;
  return typeof wd === 'string' && wd.startsWith('/') ? wd : undefined;
}

/** A SWE-agent trajectory (`{ trajectory, history, info }`) as transactions, one per step. */
export function fromSweAgent(trajectory: unknown, options: AdapterOptions = {}): AdaptedTrace {
  if (!isRecord(trajectory)) throw new TypeError('fromSweAgent: expected a trajectory object');
  const b = new TraceBuilder(options);
  b.task(findTask(trajectory));
  const steps = rawSteps(trajectory, (reason) => b.warn(0, reason));

  let cwd = initialCwd(trajectory, steps) ?? '/testbed';
  const normalise = makeNormaliser(['/testbed', cwd, ...rootsOf(options)]);
  let openFile: string | undefined;

  steps.forEach((s, idx) => {
    const t = idx + 1;
    if (!s) {
      b.warn(t, 'malformed step');
      b.count('malformed');
      b.addStep({ epoch: t, calls: [], plainResult: { body: '', meta: { unparsed: true } } });
      return;
    }
    const action = s.action.replace(/\n+$/, '');
    const tool = sweAgentTool(action);
    let effects: Effect[] = [];
    let failed = false;
    if (s.observation === undefined) {
      b.warn(t, 'no observation recorded for the action');
      b.count('no-result');
      b.addStep({ epoch: t, thought: s.thought, calls: [{ tool, body: action, effects }] });
      return;
    }
    try {
      if (tool === 'bash') {
        const r = recogniseShell(
          action,
          { text: s.observation, lines: { lines: outputLines(s.observation.replace(/\r\n/g, '\n')) } },
          { cwd, normalise, files: b },
        );
        effects = r.effects;
      } else {
        const r = recogniseEditorAction(action, s.observation, { normalise, cwd, files: b, openFile });
        effects = r.effects;
        failed = r.failed;
        openFile = r.openFile;
        if (r.submit) b.count('submit');
      }
    } catch (err) {
      b.warn(t, `recogniser failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!effects.some((e) => e.kind !== 'view-uncertain')) b.count('other');
    if (failed) b.count('edit-rejected');
    b.addStep({
      epoch: t,
      thought: s.thought,
      calls: [{ tool, body: action, result: { body: s.observation, error: failed }, effects }],
    });
    // `state` is recorded before the action in older formats and after it in newer ones, so it
    // only fills gaps: the commands and [File: …] headers are the reliable source.
    const wd = s.state?.working_dir;
    if (tool === 'bash' && typeof wd === 'string' && wd.startsWith('/') && /^\s*cd\s/.test(action)) cwd = wd;
    const of = s.state?.open_file;
    if (openFile === undefined && typeof of === 'string' && of.startsWith('/')) openFile = normalise(of);
  });
  return b.finish();
}
