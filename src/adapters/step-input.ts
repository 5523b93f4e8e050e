import type { Effect } from './types.js';

/** One tool call of a step, as an adapter recognised it. */
export interface CallInput {
  tool: string;
  /** Exact command / arguments. */
  body: string;
  /** Provider's call id (OpenAI/Anthropic), kept in meta.callId. */
  callId?: string | undefined;
  /** Undefined when no result was recorded: a placeholder result with status error is emitted. */
  result?: { body: string; error?: boolean | undefined; meta?: Record<string, string | number | boolean | null> };
  effects: Effect[];
}

/** One step (epoch) of a trace, as an adapter recognised it. */
export interface StepInput {
  epoch: number;
  /** Reasoning text of the turn (action body); omitted when empty. */
  thought?: string | undefined;
  calls: CallInput[];
  /** An unparseable step: its observation is kept as a plain tool result the action cites. */
  plainResult?: { body: string; meta?: Record<string, string | number | boolean | null> };
  /** Free text of the turn when it made no tool call (or a user turn). A `request` is a user turn
   * the agent has to answer (a chat's question): open until a step that `answers`. So is a
   * `steering` one that is not `standing` (a one-off instruction); a standing one stays open. */
  messages?: Array<{
    kind: 'message' | 'steering' | 'request';
    role: 'user' | 'assistant' | 'tool';
    body: string;
    standing?: boolean;
  }>;
  /** The turn answers the open requests (a chat's final reply): they are resolved. */
  answers?: boolean;
}
