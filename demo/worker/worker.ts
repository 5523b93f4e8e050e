/**
 * Example Worker: one Durable Object per agent session, each owning one ledger persisted in the
 * object's own storage.
 *
 *   POST /sessions/<name>/commit       transaction JSON          → receipt
 *   POST /sessions/<name>/materialize  MaterializeRequest JSON   → working set
 *   POST /sessions/<name>/retrieve     RetrievalQuery JSON       → retrieval result
 *   GET  /sessions/<name>/snapshot                               → snapshot bytes
 *
 * A coded failure (LedgerError) answers 400 with `{code, details}`; a commit that failed left the
 * ledger as it was.
 */
import tiktokenModule from '@dqbd/tiktoken/lite/tiktoken_bg.wasm';
import duckdbModule from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm';
import {
  compactLedger,
  type DurableObjectKvStorage,
  type DurableObjectLedgerStorage,
  durableObjectStorage,
  isLedgerError,
  type Ledger,
  LedgerError,
  openLedger,
} from 'context-ledger';
import trampolineModule from 'context-ledger/wasm/trampolines.wasm';

/** The part of a Durable Object's `ctx` a session uses. */
export interface SessionState {
  storage: DurableObjectKvStorage;
}

export interface SessionEnv {
  SESSIONS: SessionNamespace;
  /** Log records kept before compaction (wrangler `vars` are strings). */
  COMPACT_EVERY: string;
}

/** The part of a Durable Object namespace binding the router uses. */
interface SessionNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response> };
}

const ROUTE = /^\/sessions\/([^/]+)\/(commit|materialize|retrieve|snapshot)$/;

/** The Durable Object: the ledger opens on the first request and lives as long as the object. */
export class LedgerSession {
  private opened: Promise<{ ledger: Ledger; storage: DurableObjectLedgerStorage }> | undefined;

  constructor(
    private readonly state: SessionState,
    private readonly env: SessionEnv,
  ) {}

  async fetch(request: Request): Promise<Response> {
    const action = ROUTE.exec(new URL(request.url).pathname)?.[2];
    try {
      const { ledger, storage } = await this.open();
      switch (`${request.method} ${action}`) {
        case 'POST commit': {
          const receipt = await ledger.commit(await bodyOf(request));
          // The commit is durable in the log already; a failed compaction leaves the log as it
          // was and is tried again after the next commit.
          await compactLedger(ledger, storage).catch(() => false);
          return Response.json(receipt);
        }
        case 'POST materialize':
          return Response.json(await ledger.materialize(await bodyOf(request)));
        case 'POST retrieve':
          return Response.json(await ledger.retrieve(await bodyOf(request)));
        case 'GET snapshot': {
          // Snapshots are written into a fresh ArrayBuffer, never a shared one.
          const bytes = (await ledger.snapshot()) as Uint8Array<ArrayBuffer>;
          return new Response(bytes, { headers: { 'content-type': 'application/octet-stream' } });
        }
        default:
          return new Response('not found', { status: 404 });
      }
    } catch (error) {
      if (isLedgerError(error)) return Response.json({ code: error.code, details: error.details }, { status: 400 });
      throw error;
    }
  }

  private open(): Promise<{ ledger: Ledger; storage: DurableObjectLedgerStorage }> {
    if (!this.opened) {
      const storage = durableObjectStorage(this.state.storage, { compactEvery: Number(this.env.COMPACT_EVERY) });
      this.opened = openLedger({ storage, duckdbModule, trampolineModule, tiktokenModule }).then((ledger) => ({
        ledger,
        storage,
      }));
      // A failed open must not stick to the object: the next request tries again.
      this.opened.catch(() => {
        this.opened = undefined;
      });
    }
    return this.opened;
  }
}

/** The request body as JSON; a body that is not JSON is the caller's error, like a bad field. */
async function bodyOf<T>(request: Request): Promise<T> {
  try {
    return (await request.json()) as T;
  } catch (cause) {
    throw new LedgerError('INVALID_REQUEST', { field: 'body', reason: 'not JSON' }, cause);
  }
}

export default {
  fetch(request: Request, env: SessionEnv): Promise<Response> | Response {
    const name = ROUTE.exec(new URL(request.url).pathname)?.[1];
    if (name === undefined) return new Response('not found', { status: 404 });
    return env.SESSIONS.get(env.SESSIONS.idFromName(decodeURIComponent(name))).fetch(request);
  },
};
