/**
 * Example Worker: one Durable Object per agent session, each owning one ledger persisted in the
 * object's own storage. Zero-config: `openLedger` brings its own wasm modules.
 *
 *   POST /sessions/<name>/commit       transaction JSON          → receipt
 *   POST /sessions/<name>/materialize  MaterializeRequest JSON   → working set
 *   POST /sessions/<name>/retrieve     RetrievalQuery JSON       → retrieval result
 *   GET  /sessions/<name>/snapshot                               → snapshot bytes
 *
 * Every refusal is a JSON `{code, details}` with a 4xx status: 404/405 for an unknown route or
 * method, 413 for a body over MAX_BODY_BYTES, 400 for a body that is not a JSON object and for
 * every LedgerError (a commit that failed left the ledger as it was). Anything else answers 500
 * `{code: 'INTERNAL'}`; the error itself goes to the Worker's log, never to the caller.
 *
 * Isolation: a session name maps to one Durable Object, so a session's ledger is reachable only
 * through that object, and the object handles its requests one at a time, in order. Nothing
 * here authenticates: anyone who can reach the Worker can name any session. Authentication and
 * the mapping of callers to the sessions they may use are the host's job, in `authorize` below.
 */
import {
  type DurableObjectKvStorage,
  type DurableObjectLedgerStorage,
  durableObjectStorage,
  type ErrorCode,
  isLedgerError,
  type Ledger,
  openLedger,
} from 'context-ledger';

/** The part of a Durable Object's `ctx` a session uses. */
export interface SessionState {
  storage: DurableObjectKvStorage;
}

export interface SessionEnv {
  SESSIONS: SessionNamespace;
  /** Log records kept before compaction (wrangler `vars` are strings). */
  COMPACT_EVERY: string;
  /** Largest request body accepted, in bytes (default 8 MiB: eight bodies at the 1 Mi-character limit). */
  MAX_BODY_BYTES?: string;
}

/** The part of a Durable Object namespace binding the router uses. */
interface SessionNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response> };
}

const ROUTE = /^\/sessions\/([^/]+)\/(commit|materialize|retrieve|snapshot)$/;
const METHOD: Readonly<Record<string, string>> = {
  commit: 'POST',
  materialize: 'POST',
  retrieve: 'POST',
  snapshot: 'GET',
};
const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** A refusal of the HTTP layer, answered as `{code, details}` with its status. */
class RequestRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly details: Record<string, unknown>,
  ) {
    super(code);
  }
}

function refusal(status: number, code: string, details: Record<string, unknown>): Response {
  return Response.json({ code, details }, { status });
}

/** The Durable Object: the ledger opens on the first request and lives as long as the object. */
export class LedgerSession {
  private opened: Promise<{ ledger: Ledger; storage: DurableObjectLedgerStorage }> | undefined;

  constructor(
    private readonly state: SessionState,
    private readonly env: SessionEnv,
  ) {}

  async fetch(request: Request): Promise<Response> {
    try {
      const action = route(request);
      const body = action === 'snapshot' ? undefined : await jsonObjectOf(request, maxBodyBytes(this.env));
      const { ledger } = await this.open();
      switch (action) {
        case 'commit': {
          const receipt = await ledger.commit(body as never);
          // The commit is durable in the log already; a failed compaction leaves the log as it
          // was and is tried again after the next commit.
          await ledger.compact().catch(() => false);
          return Response.json(receipt);
        }
        case 'materialize':
          return Response.json(await ledger.materialize(body as never));
        case 'retrieve':
          return Response.json(await ledger.retrieve(body as never));
        default: {
          // Snapshots are written into a fresh ArrayBuffer, never a shared one.
          const bytes = (await ledger.snapshot()) as Uint8Array<ArrayBuffer>;
          return new Response(bytes, { headers: { 'content-type': 'application/octet-stream' } });
        }
      }
    } catch (error) {
      return errorResponse(error);
    }
  }

  private open(): Promise<{ ledger: Ledger; storage: DurableObjectLedgerStorage }> {
    if (!this.opened) {
      const storage = durableObjectStorage(this.state.storage, { compactEvery: Number(this.env.COMPACT_EVERY) });
      this.opened = openLedger({ storage }).then((ledger) => ({ ledger, storage }));
      // A failed open must not stick to the object: the next request tries again.
      this.opened.catch(() => {
        this.opened = undefined;
      });
    }
    return this.opened;
  }
}

function errorResponse(error: unknown): Response {
  if (error instanceof RequestRefused) return refusal(error.status, error.code, error.details);
  if (isLedgerError(error)) return refusal(400, error.code, error.details);
  console.error('ledger session failed', error);
  return refusal(500, 'INTERNAL', {});
}

/** The action a request names, or a 404/405 refusal. */
function route(request: Request): string {
  const action = ROUTE.exec(new URL(request.url).pathname)?.[2];
  if (action === undefined)
    throw new RequestRefused(404, 'INVALID_REQUEST', { field: 'path', reason: 'no such route' });
  if (request.method !== METHOD[action]) {
    throw new RequestRefused(405, 'INVALID_REQUEST', { field: 'method', reason: `${action} takes ${METHOD[action]}` });
  }
  return action;
}

function maxBodyBytes(env: SessionEnv): number {
  const n = Number(env.MAX_BODY_BYTES);
  return Number.isSafeInteger(n) && n > 0 ? n : DEFAULT_MAX_BODY_BYTES;
}

const tooLarge = (limit: number) =>
  new RequestRefused(413, 'INVALID_REQUEST', { field: 'body', reason: `over ${limit} bytes` });

/**
 * The body as a JSON object. Read as a stream and kept only up to the limit, so a body without
 * (or with a false) content-length cannot make the object buffer more than `limit` bytes.
 */
async function jsonObjectOf(request: Request, limit: number): Promise<Record<string, unknown>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    // An over-limit body is read to its end and dropped, never buffered: answering before the
    // client has sent it all makes the runtime close the connection mid-upload, and the client
    // then sees a reset instead of the coded 413 (Cloudflare caps request bodies upstream).
    let over = Number(request.headers.get('content-length') ?? 0) > limit;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) over = true;
      if (!over) chunks.push(value);
    }
    if (over) throw tooLarge(limit);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new RequestRefused(400, 'INVALID_REQUEST', { field: 'body', reason: 'not UTF-8 JSON' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new RequestRefused(400, 'INVALID_REQUEST', { field: 'body', reason: 'not a JSON object' });
  }
  return parsed as Record<string, unknown>;
}

/**
 * The host's hook: authenticate the caller (a bearer token, Cloudflare Access, a signed cookie)
 * and decide whether it may use this session. The example lets everyone in; a real deployment
 * must not.
 */
function authorize(_request: Request, _session: string): boolean {
  return true;
}

export default {
  async fetch(request: Request, env: SessionEnv): Promise<Response> {
    const match = ROUTE.exec(new URL(request.url).pathname);
    if (!match) return refusal(404, 'INVALID_REQUEST', { field: 'path', reason: 'no such route' });
    let session: string;
    try {
      session = decodeURIComponent(match[1]!);
    } catch {
      return refusal(400, 'INVALID_REQUEST', {
        field: 'path',
        reason: 'the session name is not valid percent-encoding',
      });
    }
    if (!authorize(request, session)) return refusal(403, 'INVALID_REQUEST', { field: 'authorization' });
    return env.SESSIONS.get(env.SESSIONS.idFromName(session)).fetch(request);
  },
};
