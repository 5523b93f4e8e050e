import type { NodeInput } from '../schema/types.js';
import { ledgerName } from './ledger-name.js';
import type { StepContext } from './step-graph.js';
import type { CallInput, StepInput } from './step-input.js';

/** Body of the result paired with a call that was never answered. */
const NO_RESULT_BODY = '[no result recorded]';

/**
 * The step's free-text messages: a `steering` node per user instruction (in `planners`, for the
 * next action it plans; a one-off one in `requests` too), an open user `message` per request (in
 * `requests`: a root of the working set until answered) and a `message` node per other text. Ids carry an ordinal only when the step holds more than
 * one message of the kind.
 */
export function emitMessages(
  ctx: StepContext,
  messages: NonNullable<StepInput['messages']>,
): { planners: string[]; requests: string[] } {
  const t = ctx.epoch;
  const steering: string[] = [];
  const requests: string[] = [];
  for (const [k, m] of messages.entries()) {
    const local = m.kind === 'steering' ? 'steer' : m.kind === 'request' ? 'req' : 'msg';
    const many = messages.filter((x) => x.kind === m.kind).length > 1;
    const id = ctx.id(many ? `${local}:${t}:${k + 1}` : `${local}:${t}`);
    if (m.kind === 'steering') {
      ctx.graph.node({ id, kind: 'steering', authority: 'user', status: 'open', role: 'user', body: m.body });
      steering.push(id);
      if (m.standing === false) requests.push(id);
      ctx.count('steering');
    } else if (m.kind === 'request') {
      ctx.graph.node({ id, kind: 'message', authority: 'user', status: 'open', role: 'user', body: m.body });
      requests.push(id);
      ctx.count('request');
    } else {
      ctx.graph.node({
        id,
        kind: 'message',
        authority: m.role === 'user' ? 'user' : 'agent',
        role: m.role,
        body: m.body,
      });
      ctx.count('message');
    }
  }
  return { planners: steering, requests };
}

/** The step's action (its thought as body), planned by the task and the steering not yet acted
 * on. Returns the action's id. */
export function emitAction(ctx: StepContext, thought: string | undefined, plannedBy: readonly string[]): string {
  const act: NodeInput = { id: ctx.id(`act:${ctx.epoch}`), kind: 'action', authority: 'agent', status: 'resolved' };
  const text = thought?.trim();
  if (text) act.body = text;
  ctx.graph.node(act);
  for (const planner of plannedBy) ctx.graph.edge(planner, act.id, 'plans');
  return act.id;
}

/** An unparseable step's observation: an error result the action cites. */
export function emitPlainResult(
  ctx: StepContext,
  actionId: string,
  plain: NonNullable<StepInput['plainResult']>,
): void {
  const res: NodeInput = {
    id: ctx.id(`result:${ctx.epoch}`),
    kind: 'tool_result',
    authority: 'agent',
    status: 'error',
    body: plain.body,
  };
  if (plain.meta) res.meta = plain.meta;
  ctx.graph.node(res);
  ctx.graph.edge(actionId, res.id, 'cites');
}

/** A call the action invokes and the result it produces (a placeholder error result when none
 * was recorded). `suffix` tells the step's calls apart. */
export function emitCall(
  ctx: StepContext,
  actionId: string,
  call: CallInput,
  suffix: string,
): { call: NodeInput; result: NodeInput } {
  const callNode: NodeInput = {
    id: ctx.id(`call:${suffix}`),
    kind: 'tool_call',
    authority: 'agent',
    status: 'terminal',
    tool: ledgerName(call.tool),
    body: call.body,
  };
  if (call.callId !== undefined) callNode.meta = { callId: call.callId };
  ctx.graph.node(callNode);
  ctx.graph.edge(actionId, callNode.id, 'invokes');

  const resNode: NodeInput = { id: ctx.id(`result:${suffix}`), kind: 'tool_result', authority: 'agent' };
  if (call.result) {
    resNode.status = call.result.error ? 'error' : 'terminal';
    resNode.body = call.result.body;
    if (call.result.meta && Object.keys(call.result.meta).length) resNode.meta = call.result.meta;
  } else {
    resNode.status = 'error';
    resNode.body = NO_RESULT_BODY;
  }
  ctx.graph.node(resNode);
  ctx.graph.edge(callNode.id, resNode.id, 'produces');
  return { call: callNode, result: resNode };
}
