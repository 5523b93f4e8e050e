import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4Middleware,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { LedgerError } from '../../errors.js';
import type { Ledger } from '../../ledger/ledger.js';
import { SessionRecorder } from '../../recorder/session-recorder.js';
import type { MaterializeRequest } from '../../working-set/types.js';
import { fitWorkingSet, type Reserve } from '../fit-budget.js';
import { type RepeatCounter, repeatCounter } from '../repeat-counter.js';
import { aiSdkPrompt, promptTokens } from './render-prompt.js';

export interface LedgerMiddlewareOptions {
  /**
   * The session's ledger, or a getter that picks it from the call (e.g. by a session id in
   * `providerOptions` or a header). One ledger holds one session.
   */
  ledger: Ledger | ((params: LanguageModelV4CallOptions) => Ledger | Promise<Ledger>);
  /** Tokens the model may receive: system prompt, working set and tool calls and results (see `promptTokens`). */
  budget: number | MaterializeRequest['budget'];
  /** Authority scopes the working set may draw from; default every scope. */
  authority?: readonly string[];
  /** Prepended to the ids the recorder writes (see AdapterOptions). */
  idPrefix?: string;
}

interface Session {
  recorder: SessionRecorder;
  reserve: Reserve;
  /** Token counts of the last rendering: the next call's prompt mostly repeats its texts. */
  counter: RepeatCounter;
}

const sessions = new WeakMap<Ledger, Session>();

/** The assistant message a model's output becomes in the next prompt (the SDK's own shape). */
function assistantMessage(content: readonly LanguageModelV4Content[]): LanguageModelV4Prompt[number] {
  const parts: Extract<LanguageModelV4Prompt[number], { role: 'assistant' }>['content'] = [];
  for (const c of content) {
    if (c.type === 'text' && c.text.length > 0) parts.push({ type: 'text', text: c.text });
    else if (c.type === 'tool-call')
      parts.push({ type: 'tool-call', toolCallId: c.toolCallId, toolName: c.toolName, input: c.input });
    else if (c.type === 'tool-result')
      parts.push({
        type: 'tool-result',
        toolCallId: c.toolCallId,
        toolName: c.toolName,
        output:
          typeof c.result === 'string'
            ? { type: c.isError ? 'error-text' : 'text', value: c.result }
            : { type: c.isError ? 'error-json' : 'json', value: c.result },
      });
  }
  return { role: 'assistant', content: parts };
}

function checkOptions(options: LedgerMiddlewareOptions): MaterializeRequest['budget'] {
  if (typeof options !== 'object' || options === null)
    throw new LedgerError('INVALID_OPTION', { field: 'options', reason: 'an object' });
  if (typeof options.ledger !== 'object' && typeof options.ledger !== 'function')
    throw new LedgerError('INVALID_OPTION', { field: 'ledger', reason: 'a Ledger or a function returning one' });
  const budget = typeof options.budget === 'number' ? { tokens: options.budget } : options.budget;
  if (typeof budget !== 'object' || budget === null || !Number.isSafeInteger(budget.tokens) || budget.tokens < 1)
    throw new LedgerError('INVALID_OPTION', {
      field: 'budget',
      value: options.budget,
      reason: 'a positive whole number of tokens',
    });
  return budget;
}

/**
 * An AI SDK language-model middleware (`wrapLanguageModel({ model, middleware })`) that records the
 * conversation into a ledger as it happens and sends the model the ledger's working set instead
 * of the raw history: the prompt's new messages are recorded (a framework resends the whole
 * history each step; only what is new is written), then the prompt is replaced by the system
 * messages and the working set rendered as AI SDK messages — every tool call with its results,
 * the whole within `budget` tokens. The model's output (generated or streamed, tool calls
 * included) is recorded too, so the final answer of a loop is in the ledger when it ends.
 */
export function ledgerMiddleware(options: LedgerMiddlewareOptions): LanguageModelV4Middleware {
  const budget = checkOptions(options);
  const authority = options.authority ? [...options.authority] : undefined;
  const byParams = new WeakMap<object, Session>();

  const sessionOf = async (params: LanguageModelV4CallOptions): Promise<Session> => {
    const known = byParams.get(params);
    if (known) return known;
    const ledger = typeof options.ledger === 'function' ? await options.ledger(params) : options.ledger;
    let s = sessions.get(ledger);
    if (!s) {
      s = {
        recorder: new SessionRecorder(ledger, { format: 'ai-sdk', idPrefix: options.idPrefix }),
        reserve: { tokens: 0 },
        counter: repeatCounter((t) => ledger.countTokens(t)),
      };
      sessions.set(ledger, s);
    }
    return s;
  };

  const workingSetPrompt = async (s: Session, system: LanguageModelV4Prompt): Promise<LanguageModelV4Prompt> => {
    const ledger = s.recorder.ledger;
    s.counter.nextRendering();
    const count = s.counter.count;
    const fixed = promptTokens(system, count);
    const prompt = await fitWorkingSet(
      ledger,
      { budget, authority, fixed },
      s.reserve,
      (ws) => aiSdkPrompt(ws.toMessages('openai')),
      (p) => promptTokens(p, count),
    );
    return [...system, ...prompt];
  };

  return {
    specificationVersion: 'v4',
    transformParams: async ({ params }) => {
      const s = await sessionOf(params);
      await s.recorder.sync(params.prompt);
      const system = params.prompt.filter((m) => m.role === 'system');
      const next = { ...params, prompt: await workingSetPrompt(s, system) };
      byParams.set(next, s);
      return next;
    },
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      const s = await sessionOf(params);
      await s.recorder.append([assistantMessage(result.content)]);
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const s = await sessionOf(params);
      const { stream, ...rest } = await doStream();
      const content: LanguageModelV4Content[] = [];
      const texts = new Map<string, { type: 'text'; text: string }>();
      const recorded = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
        transform(part, controller) {
          if (part.type === 'text-start' || (part.type === 'text-delta' && !texts.has(part.id))) {
            const t = { type: 'text' as const, text: '' };
            texts.set(part.id, t);
            content.push(t);
          }
          if (part.type === 'text-delta') texts.get(part.id)!.text += part.delta;
          else if (part.type === 'tool-call' || part.type === 'tool-result')
            content.push(part as LanguageModelV4Content);
          controller.enqueue(part);
        },
        async flush() {
          await s.recorder.append([assistantMessage(content)]);
        },
      });
      return { ...rest, stream: stream.pipeThrough(recorded) };
    },
  };
}
