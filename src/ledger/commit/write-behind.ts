import type { Table } from 'apache-arrow';
import type { Engine } from '../../engine/engine.js';
import { LedgerError } from '../../errors.js';
import { writePlans } from './engine-writes.js';
import type { CommitPlan } from './plan-commit.js';

/**
 * Commits of at most this many rows wait for the engine's next read (an agent's step is a few
 * dozen). A bulk commit is written at once, inside its own call: batching saves nothing on its few
 * statements, and an engine failure then rejects that commit alone instead of failing the ledger.
 */
const MAX_DEFERRED_ROWS = 256;
/** Past this many waiting commits or rows, a commit first writes what waits (bounded memory, and
 * a bounded write at the next read). */
const MAX_PENDING_PLANS = 64;
const MAX_PENDING_ROWS = 1024;

/**
 * Write-behind for step-sized commits. Validation, the durable log and every in-memory structure a
 * commit feeds (the index, the step log, the retrieval postings) never read the engine, so the
 * engine's copy of a small commit can wait until something reads the engine. Then every waiting
 * commit is written in one engine transaction: a statement's fixed bind-and-plan cost in
 * DuckDB-WASM (~0.5 ms) is paid once per table for all of them instead of once per table per
 * commit, and an agent step whose working set only appends (see src/working-set/session.ts) never
 * reaches the engine at all. Readers see no difference: the engine they get from the ledger
 * (`readThrough`) writes what waits before any statement of theirs.
 *
 * A commit is acknowledged once it is in the index (and in the log, for a durable ledger). If
 * writing waiting commits then fails, the engine no longer matches what was acknowledged: the
 * ledger refuses every later call with that ENGINE_FAILED (`onFailure`), and reopening a durable
 * ledger replays all of them from its log.
 */
export class PendingWrites {
  readonly #engine: Engine;
  readonly #onFailure: (error: LedgerError) => void;
  #plans: CommitPlan[] = [];
  #rows = 0;
  #writing: Promise<void> | null = null;

  /** `engine` is the raw engine the waiting commits are written to. */
  constructor(engine: Engine, onFailure: (error: LedgerError) => void) {
    this.#engine = engine;
    this.#onFailure = onFailure;
  }

  /** The raw engine, for the write path's own writes. */
  get engine(): Engine {
    return this.#engine;
  }

  /** Whether nothing waits and nothing is being written. */
  get idle(): boolean {
    return this.#plans.length === 0 && this.#writing === null;
  }

  /** Whether `plan` may wait for the next read. */
  defers(plan: CommitPlan): boolean {
    return rowsOf(plan) <= MAX_DEFERRED_ROWS;
  }

  /** Whether what waits must be written before `plan` joins it. */
  full(plan: CommitPlan): boolean {
    return this.#plans.length >= MAX_PENDING_PLANS || this.#rows + rowsOf(plan) > MAX_PENDING_ROWS;
  }

  /** Keeps an acknowledged plan for the next write (its own closed versions already marked). */
  add(plan: CommitPlan): void {
    this.#plans.push(plan);
    this.#rows += rowsOf(plan);
  }

  /**
   * Writes every waiting commit in one engine transaction. Concurrent callers (a retrieval's
   * channels query in parallel) share the one write in progress.
   */
  flush(): Promise<void> {
    if (this.#writing !== null) return this.#writing;
    if (this.#plans.length === 0) return Promise.resolve();
    const plans = this.#plans;
    this.#plans = [];
    this.#rows = 0;
    this.#writing = writePlans(this.#engine, plans, null)
      .catch((cause: unknown) => {
        const first = plans[0]!.transaction.tx;
        const last = plans[plans.length - 1]!.transaction.tx;
        const error = new LedgerError(
          'ENGINE_FAILED',
          {
            reason: `transactions ${first}–${last} were acknowledged but could not be written to the engine; reopen the ledger (a durable one replays them from its log)`,
          },
          cause,
        );
        this.#onFailure(error);
        throw error;
      })
      .finally(() => {
        this.#writing = null;
      });
    return this.#writing;
  }

  /**
   * The engine as the ledger's readers see it: every statement first writes what waits. Made
   * once per ledger (createCore), so caches keyed by engine stay valid for its life.
   */
  readThrough(): Engine {
    const engine = this.#engine;
    const before = <T>(then: () => Promise<T>): Promise<T> => (this.idle ? then() : this.flush().then(then));
    const through: Engine = {
      query: (sql: string): Promise<Table> => before(() => engine.query(sql)),
      run: (sql: string) => before(() => engine.run(sql)),
      insertIPC: (table: string, ipc: Uint8Array) => before(() => engine.insertIPC(table, ipc)),
      // Waiting commits die with the ledger: a durable one holds them in its log.
      close: () => {
        this.#plans = [];
        this.#rows = 0;
        return engine.close();
      },
      plans: engine.plans,
      wrapped: engine.wrapped ?? engine,
    };
    // Memory figures count the rows that wait too.
    if (engine.stats) through.stats = () => before(() => engine.stats!());
    return through;
  }
}

function rowsOf(plan: CommitPlan): number {
  return plan.bodies.length + plan.nodes.length + plan.edges.length + plan.closures.length;
}
