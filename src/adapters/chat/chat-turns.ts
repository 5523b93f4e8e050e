/** The provider-neutral turns every chat parser flattens its messages into (see chat-steps.ts). */

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
