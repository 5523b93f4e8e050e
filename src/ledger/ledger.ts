import type { Engine, EngineStats } from '../engine/engine.js';
import { asLedgerError, LedgerError } from '../errors.js';
import { BodyVectors } from '../retrieval/body-vectors.js';
import { bundledCosineKernel } from '../retrieval/cosine-kernel.js';
import type { RetrievalQuery } from '../retrieval/query.js';
import { RetrievalIndex } from '../retrieval/retrieval-index.js';
import { type RetrievalResult, retrieve } from '../retrieval/retrieve.js';
import { copyInput } from '../schema/copy-input.js';
import { checkListLength, requireObject } from '../schema/request-checks.js';
import { checkRequestText } from '../schema/text-rule.js';
import type { GraphView, Receipt, Transaction } from '../schema/types.js';
import { assertEpoch } from '../sql/as-of.js';
import { BodyCache } from '../text/body-cache.js';
import type { TokenCounter } from '../tokenizer/token-counter.js';
import { dropLedgerCaches } from '../working-set/ledger-caches.js';
import { type MaterializeContext, materialize } from '../working-set/materialize.js';
import { type HashedBody, STEP_ROWS, StepLog } from '../working-set/step-delta.js';
import type { MaterializeRequest } from '../working-set/types.js';
import type { WorkingSet } from '../working-set/working-set.js';
import { archiveTransaction, commitTransaction, replayLog } from './commit/write-path.js';
import { CurrentGraphView, readGraphView } from './graph-view.js';
import { expandLedgerConfig, type LedgerSetup } from './ledger-config.js';
import { createCore, type LedgerCore } from './ledger-core.js';
import type { LedgerIndex } from './ledger-index.js';
import { type ArchiveRequest, type AsOfRequest, type RerunRequest, resolveRead, viewWithin } from './read-requests.js';
import { type RerunCandidate, rerunCandidates } from './rerun-candidates.js';
import { restoreSnapshot } from './snapshot/snapshot-restore.js';
import { writeSnapshot } from './snapshot/snapshot-write.js';
import type { Recovered, StorageAdapter } from './storage.js';
import { unbindStorage } from './storage-binding.js';

let wrap: (core: LedgerCore) => Ledger;
let unwrap: (ledger: Ledger) => LedgerCore;

/**
 * One agent's ledger: a facade over the write path (commit/write-path.ts), snapshots
 * (snapshot/snapshot-write.ts, snapshot/snapshot-restore.ts), the as-of view (graph-view.ts), materialize and
 * retrieve. Every operation runs exclusively (one queue, op-queue.ts), so a reader never sees half
 * a commit and commits apply in call order. Its state is private; the package's own modules reach
 * it only through `readLedger` (and tests through `ledgerCore`).
 */
export class Ledger {
  readonly #core: LedgerCore;
  /** Retrieval's postings and adjacency (kept at commit) and body vectors (built on first use);
   * derived, never in snapshots. Commits made before the facade existed (a restore's log
   * replay) are read from the tables by the first retrieval. */
  readonly #retrieval: { index: RetrievalIndex; vectors: BodyVectors | null };
  /** What `asOf` answers at the last epoch, kept in step with commits once it has been read. */
  readonly #currentView = new CurrentGraphView();
  /** The rows and bodies of the latest step-sized commits: what the session fold's next step reads
   * (see loadStepDelta) instead of the tables. */
  readonly #steps = { steps: new StepLog(), bodies: new BodyCache<HashedBody>() };

  private constructor(core: LedgerCore) {
    this.#core = core;
    const index = new RetrievalIndex();
    this.#retrieval = { index, vectors: null };
    core.hooks.push({ committed: (plan) => index.onCommit(plan.bodies, plan.edges) });
    const view = this.#currentView;
    core.hooks.push({ committed: (plan) => view.onCommit(plan, core.index) });
    const { bodies, steps } = this.#steps;
    core.hooks.push({
      committed: (plan) => {
        steps.add(plan);
        // A bulk commit's bodies would only churn the cache.
        if (plan.bodies.length <= STEP_ROWS) for (const b of plan.bodies) bodies.set(b);
      },
    });
  }

  static {
    wrap = (core) => new Ledger(core);
    // A ledger from another copy of this module (two installs of the package, a bundler that
    // duplicated it) has no #core here: say so with a code instead of a TypeError.
    unwrap = (ledger) => {
      if (typeof ledger !== 'object' || ledger === null || !(#core in ledger))
        throw new LedgerError('INVALID_REQUEST', {
          field: 'ledger',
          reason: 'not a Ledger opened by this copy of context-ledger',
        });
      return ledger.#core;
    };
  }

  /**
   * The token encoding bodies are counted in.
   * @example
   * ```ts
   * console.log(ledger.encoding); // 'o200k_base'
   * ```
   */
  get encoding(): TokenCounter['encoding'] {
    return this.#core.config.counter.encoding;
  }

  /**
   * Number of the last committed transaction (0 for an empty ledger).
   * @example
   * ```ts
   * const { tx } = await ledger.commit({ epoch: 1, nodes: [{ id: 'a', kind: 'message', body: 'hi' }] });
   * console.log(ledger.lastTx === tx); // true
   * ```
   */
  get lastTx(): number {
    return this.#core.index.lastTx;
  }

  /**
   * What opening the storage had to cut off its log, or null: a torn or damaged tail. When
   * `wholeFrame` is true the cut frame may have held an acknowledged transaction, now lost; tell
   * the user (the CLI prints a warning).
   *
   * @example
   * ```ts
   * if (ledger.recovered?.wholeFrame) console.warn('the last commit before the crash was lost');
   * ```
   */
  get recovered(): Recovered | null {
    return this.#core.recovered;
  }

  /**
   * The largest epoch committed so far.
   * @example
   * ```ts
   * await ledger.commit({ epoch: ledger.lastEpoch + 1, nodes: [{ id: 'b', kind: 'message', body: 'next step' }] });
   * ```
   */
  get lastEpoch(): number {
    return this.#core.index.lastEpoch;
  }

  /**
   * Counts tokens of a text in the ledger's encoding.
   * @example
   * ```ts
   * const fits = ledger.countTokens('Fix the CAN frame parser') <= 16;
   * ```
   */
  countTokens(text: string): number {
    return this.#core.config.counter.count(text);
  }

  /**
   * Applies a transaction whole or not at all. Invalid input is rejected with a coded
   * LedgerError naming the field, before anything is written.
   *
   * @example
   * ```ts
   * const receipt = await ledger.commit({
   *   epoch: 3,
   *   nodes: [
   *     { id: 'task:can', kind: 'task', status: 'open', authority: 'user', body: 'Fix the CAN frame parser' },
   *     { id: 'claim:crc', kind: 'claim', status: 'open', body: 'The CRC is computed over the wrong bytes' },
   *   ],
   *   edges: [{ from: 'task:can', to: 'claim:crc', kind: 'requires' }],
   * });
   * console.log(receipt.tx, receipt.superseded);
   * ```
   */
  commit(tx: Transaction): Promise<Receipt> {
    // Copied now: the commit runs after those queued before it, and what the caller does to its
    // object meanwhile must change nothing.
    let own: Transaction;
    try {
      own = copyInput(tx);
    } catch (e) {
      return Promise.reject(asLedgerError(e));
    }
    const core = this.#core;
    return core.queue.run(async () => {
      const { receipt } = await commitTransaction(core, own, true);
      await autoCompact(core);
      return receipt;
    });
  }

  /**
   * The nodes and edges valid at `request.epoch` (default the last epoch), in recording order;
   * with `authority`, only the nodes inside those scopes and the edges between them.
   *
   * @example
   * ```ts
   * const now = await ledger.asOf();
   * const then = await ledger.asOf({ epoch: 3, authority: ['user', 'repo'] });
   * console.log(then.nodes.map((n) => n.id), now.edges.length);
   * ```
   */
  asOf(request: AsOfRequest = {}): Promise<GraphView> {
    const core = this.#core;
    return core.queue.run(async () => {
      checkRequestText(request);
      const { epoch, authority } = resolveRead(request, core.index.lastEpoch);
      assertEpoch(epoch);
      return viewWithin(await readGraphView(core.config.engine, epoch, core.index, this.#currentView), authority);
    });
  }

  /**
   * The smallest evidence-closed working set that fits the budget, for the active task and
   * steering (or the given roots), with an explanation for every candidate.
   *
   * @example
   * ```ts
   * const ws = await ledger.materialize({ budget: { tokens: 4000 }, authority: ['user', 'agent', 'repo'] });
   * const messages = ws.toMessages('openai');
   * const leftOut = ws.explanation.filter((e) => !e.included);
   * ```
   */
  materialize(request: MaterializeRequest): Promise<WorkingSet> {
    const { queue } = this.#core;
    return queue.run(() => {
      checkRequestText(request);
      return materialize({ ...materializeContext(this.#core, this), ...this.#steps }, request);
    });
  }

  /**
   * Failed verifiers valid at `request.epoch` (default the last epoch) whose sources got a newer
   * revision since they ran, within the `authority` scopes: the checks worth running again.
   *
   * @example
   * ```ts
   * for (const c of await ledger.rerunCandidates({ authority: ['agent', 'repo'] }))
   *   console.log(c.verifier, c.changed.map((s) => s.path));
   * ```
   */
  rerunCandidates(request: RerunRequest = {}): Promise<RerunCandidate[]> {
    const { config, index, queue } = this.#core;
    return queue.run(async () => {
      checkRequestText(request);
      const { epoch, authority } = resolveRead(request, index.lastEpoch);
      assertEpoch(epoch);
      checkListLength(request.authority, 'authority', 'maxAuthorityScopes');
      return rerunCandidates(config.engine, epoch, authority);
    });
  }

  /**
   * Archives a completed, unreferenced discovery transaction (closes its nodes from
   * `request.epoch`, default the last epoch); refused with ARCHIVE_REFUSED when something still
   * depends on it.
   *
   * @example
   * ```ts
   * const { tx } = await ledger.commit({ epoch: 5, nodes: [{ id: 'note:1', kind: 'message', body: 'looked at the logs' }] });
   * await ledger.archive({ tx });
   * ```
   */
  archive(request: ArchiveRequest): Promise<Receipt> {
    const core = this.#core;
    return core.queue.run(async () => {
      requireObject(request, 'request');
      return (await archiveTransaction(core, request.tx, request.epoch ?? core.index.lastEpoch, true)).receipt;
    });
  }

  /**
   * Temporal hybrid retrieval: support for a claim, an action or a question from exact, BM25,
   * vector and graph channels over what is valid at the epoch within the authority scopes — or
   * `abstain` with the missing evidence named.
   *
   * @example
   * ```ts
   * const r = await ledger.retrieve({ claims: ['claim:crc'], text: 'crc over frame bytes', budget: { records: 8 } });
   * if (r.status === 'abstain') console.log(r.missing.map((m) => m.reason));
   * else console.log(r.evidence.map((e) => e.id));
   * ```
   */
  retrieve(query: RetrievalQuery): Promise<RetrievalResult> {
    const core = this.#core;
    const retrieval = this.#retrieval;
    const { config, index } = core;
    return core.queue.run(() => {
      checkRequestText(query);
      return retrieve(
        {
          engine: config.engine,
          ledger: index,
          nidOf: (id) => index.nodes.get(id)?.nid,
          idOf: (nid) => index.byNid[nid]?.id,
          index: async () => {
            await retrieval.index.catchUp(config.engine, index);
            return retrieval.index;
          },
          vectors: async () => {
            retrieval.vectors ??= await BodyVectors.create(
              config.engine,
              config.embedder,
              () => index.nextBkey,
              config.vectorKernel === undefined ? bundledCosineKernel() : config.vectorKernel,
              config.vectorPrecision,
            );
            await retrieval.vectors.catchUp();
            return retrieval.vectors;
          },
          embedder: config.embedder,
        },
        query,
      );
    });
  }

  /**
   * Every table as Arrow IPC streams plus a manifest, in one verifiable byte array.
   * @example
   * ```ts
   * const bytes = await ledger.snapshot();
   * const copy = await openLedger({ snapshot: bytes });
   * ```
   */
  snapshot(): Promise<Uint8Array> {
    const core = this.#core;
    return core.queue.run(() => writeSnapshot(core));
  }

  /**
   * Folds the log into a new snapshot of this ledger's own storage when the storage says
   * compaction is due (`compactEvery`; always, for a storage that does not say). Resolves to
   * whether it compacted; false for a ledger without storage. Call it between commits, e.g. after
   * each one. Takes no argument: a ledger only ever compacts the storage it was opened with.
   */
  compact(...args: never[]): Promise<boolean> {
    if (args.length > 0 && args[0] !== undefined)
      return Promise.reject(
        new LedgerError('INVALID_REQUEST', {
          field: 'storage',
          reason: 'compact() takes no argument: the ledger compacts the storage it was opened with',
        }),
      );
    const core = this.#core;
    const storage = core.config.storage;
    if (storage === null) return Promise.resolve(false);
    // One queued turn: no commit lands between taking the snapshot and emptying the log (its
    // record would be lost).
    return core.queue.run(async () => {
      if (!compactionDue(storage)) return false;
      await compactNow(core, storage);
      return true;
    });
  }

  /**
   * DuckDB's memory as this runtime's build reports it: its wasm linear memory (shared by every
   * ledger of the process or isolate; it never shrinks), DuckDB's own accounting and its memory
   * limit. `null` where the build exposes none (the browser's worker build). In Workers this is
   * the one memory figure an isolate can read.
   *
   * @example
   * ```ts
   * const memory = await ledger.engineMemory();
   * if (memory) console.log(memory);
   * ```
   */
  engineMemory(): Promise<EngineStats | null> {
    const { config, queue } = this.#core;
    return queue.run(async () => (config.engine.stats ? config.engine.stats() : null));
  }

  /** Waits for the calls already made, then closes; calls made after it reject with
   *
   * @example
   * ```ts
   * await ledger.close();
   * ```
   * LEDGER_CLOSED. Calling it again returns the same promise. */
  close(): Promise<void> {
    const { config, queue } = this.#core;
    return queue.close(async () => {
      try {
        await config.storage?.close?.();
      } finally {
        if (config.storage) unbindStorage(config.storage);
        dropLedgerCaches(this);
        await config.engine.close();
      }
    });
  }
}

/** @internal A ledger over a fresh database (creates the tables). */
export async function createLedger(setup: LedgerSetup): Promise<Ledger> {
  return wrap(await createCore(expandLedgerConfig(setup)));
}

/** @internal A ledger restored from a snapshot into a fresh database, then `log` replayed. */
export async function restoreLedger(
  setup: LedgerSetup,
  snapshot: Parameters<typeof restoreSnapshot>[1] | null,
  log: readonly Uint8Array[] = [],
  recovered: Recovered | null = null,
): Promise<Ledger> {
  const core = await createCore(expandLedgerConfig(setup));
  core.recovered = recovered;
  if (snapshot !== null) await restoreSnapshot(core, snapshot);
  if (log.length > 0) await core.queue.run(() => replayLog(core, log));
  core.logRecords = log.length;
  return wrap(core);
}

/** @internal What the package's own readers (src/rdf, the CLI) may use, inside the queue. */
export interface LedgerReader {
  readonly engine: Pick<Engine, 'query'>;
  readonly index: Readonly<LedgerIndex>;
}

/** @internal Runs a read in the ledger's queue (never half a commit). */
export function readLedger<T>(ledger: Ledger, read: (reader: LedgerReader) => Promise<T>): Promise<T> {
  const { config, index, queue } = unwrap(ledger);
  return queue.run(() => read({ engine: config.engine, index }));
}

/** @internal The last epoch, or a coded error for anything that is not a Ledger of this copy. */
export function lastEpochOf(ledger: Ledger): number {
  unwrap(ledger);
  return ledger.lastEpoch;
}

/** @internal Tests and benchmarks only: the whole private state. */
export function ledgerCore(ledger: Ledger): LedgerCore {
  return unwrap(ledger);
}

/** A storage's own pacing (`compactionDue`), or always for a storage that keeps none. */
const compactionDue = (storage: StorageAdapter): boolean =>
  !('compactionDue' in storage) || (storage as { compactionDue: unknown }).compactionDue !== false;

/** Folds the log into a snapshot; runs inside a queued turn, so no commit lands in between. */
async function compactNow(core: LedgerCore, storage: StorageAdapter): Promise<void> {
  const bytes = await writeSnapshot(core);
  try {
    await storage.compact(bytes);
  } catch (e) {
    throw asLedgerError(e, 'STORAGE_FAILED', 'storage');
  }
  core.logRecords = 0;
}

/**
 * The default compaction policy, right after a commit: when the storage says its log is long
 * enough (`autoCompactionDue`), compact, so that reopening stays fast without the host calling
 * `compact()`. The commit is durable already: a failed compaction leaves the log as it was (tried
 * again after the next commit) or the storage refusing writes until reopened, which the next
 * commit reports.
 */
async function autoCompact(core: LedgerCore): Promise<void> {
  const storage = core.config.storage as { autoCompactionDue?: unknown } | null;
  if (storage?.autoCompactionDue !== true) return;
  await compactNow(core, core.config.storage!).catch(() => undefined);
}

/**
 * What materialize reads of a ledger, its caches kept for `owner`.
 * @internal Exported for the tests that vary one of its parts.
 */
export function materializeContext(core: LedgerCore, owner: object): MaterializeContext {
  const { config, index } = core;
  return {
    engine: config.engine,
    lastEpoch: index.lastEpoch,
    nidOf: (id) => index.nodes.get(id)?.nid,
    idOf: (nid) => index.byNid[nid]?.id,
    rowOf: (nid) => index.byNid[nid],
    countTokens: (text) => config.counter.count(text),
    lastTx: index.lastTx,
    cacheOwner: owner,
    txEpoch: (tx) => index.transactions[tx]?.epoch,
    txRows: (tx) => {
      const t = index.transactions[tx];
      return t === undefined ? undefined : t.nodes + t.edges + t.transitions;
    },
  };
}
