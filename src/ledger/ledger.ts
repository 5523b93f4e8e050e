import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import { asLedgerError, LedgerError } from '../errors.js';
import { BodyVectors } from '../retrieval/body-vectors.js';
import type { Embedder } from '../retrieval/hashed-embedder.js';
import { hashedTrigramEmbedder } from '../retrieval/hashed-embedder.js';
import type { RetrievalQuery } from '../retrieval/query.js';
import { RetrievalIndex } from '../retrieval/retrieval-index.js';
import { type RetrievalResult, retrieve } from '../retrieval/retrieve.js';
import { copyInput } from '../schema/copy-input.js';
import { CREATE_TABLES, TABLE_ORDER_KEY, TABLES, type TableName } from '../schema/ddl.js';
import type { NodeKind, Status } from '../schema/kinds.js';
import { checkRequestText } from '../schema/text-rule.js';
import type { EdgeRecord, GraphView, LineRange, NodeRecord, Receipt, Transaction } from '../schema/types.js';
import { validateShape } from '../schema/validate-shape.js';
import { assertEpoch, edgesAsOfSql, nodesAsOfSql } from '../sql/as-of.js';
import { intList, intLiteral } from '../sql/literals.js';
import type { TokenCounter } from '../tokenizer/token-counter.js';
import { materialize } from '../working-set/materialize.js';
import { type RerunCandidate, rerunCandidates } from '../working-set/rerun.js';
import type { MaterializeRequest } from '../working-set/types.js';
import type { WorkingSet } from '../working-set/working-set.js';
import { rowsToIPC } from './arrow-rows.js';
import { type HashTexts, webCryptoHashTexts } from './content-hash.js';
import { loadIndexFromSnapshot } from './index-from-snapshot.js';
import { LedgerIndex } from './ledger-index.js';
import { literalInsertSql } from './literal-rows.js';
import { planArchive } from './plan-archive.js';
import { type BodyHashes, type CommitPlan, planCommit } from './plan-commit.js';
import type { BodyColumns, NodeRow } from './rows.js';
import { exportTableIPC } from './snapshot-export.js';
import {
  type DecodedSnapshot,
  decodeSnapshot,
  encodeSnapshot,
  isDecodedSnapshot,
  SNAPSHOT_FORMAT,
  type SnapshotManifest,
} from './snapshot-format.js';
import type { StorageAdapter } from './storage.js';

/**
 * One agent's ledger. Every operation runs exclusively (a promise queue), so a reader never sees
 * half a commit and commits apply in call order.
 */
export class Ledger {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private closing: Promise<void> | null = null;
  /** Set when a storage failure left the log holding a record this ledger does not: every later
   * call is refused with it, since only reopening can tell what the log means. */
  private failed: LedgerError | null = null;
  /** @internal Retrieval's postings and adjacency, maintained at commit (never in snapshots). */
  readonly retrievalIndex = new RetrievalIndex();
  /** @internal Body vectors, built on the first retrieval that reads them (never in snapshots). */
  bodyVectors: BodyVectors | null = null;
  /** @internal The vector channel's embedder (set once by openLedger). */
  embedder: Embedder = hashedTrigramEmbedder();

  private constructor(
    /** @internal */ readonly engine: Engine,
    private readonly counter: TokenCounter,
    /** @internal */ readonly index: LedgerIndex,
    private readonly storage: StorageAdapter | null,
    private readonly hashTexts: HashTexts,
  ) {}

  /** @internal Creates the tables in a fresh database. */
  static async create(
    engine: Engine,
    counter: TokenCounter,
    storage: StorageAdapter | null = null,
    hashTexts: HashTexts = webCryptoHashTexts,
  ): Promise<Ledger> {
    for (const name of TABLES) await engine.run(CREATE_TABLES[name]);
    return new Ledger(engine, counter, new LedgerIndex(), storage, hashTexts);
  }

  /**
   * @internal Restores a snapshot (bytes, or already decoded and verified) into a fresh
   * database; SNAPSHOT_CORRUPT on any inconsistency. The index is read from the snapshot's own
   * sections, the engine ingests the same sections, and one query checks every table's count.
   */
  static async restore(
    engine: Engine,
    counter: TokenCounter,
    snapshot: Uint8Array | DecodedSnapshot,
    storage: StorageAdapter | null = null,
    hashTexts: HashTexts = webCryptoHashTexts,
  ): Promise<Ledger> {
    const { manifest, sections } = isDecodedSnapshot(snapshot) ? snapshot : await decodeSnapshot(snapshot);
    if (manifest.encoding !== counter.encoding) {
      throw new LedgerError('SNAPSHOT_ENCODING_MISMATCH', {
        field: 'encoding',
        snapshot: manifest.encoding,
        requested: counter.encoding,
      });
    }
    const ledger = await Ledger.create(engine, counter, storage, hashTexts);
    try {
      for (const name of TABLES) {
        const rows = manifest.tables.find((t) => t.name === name)?.rows;
        if (rows !== manifest.counts[name]) throw new Error(`${name}: manifest counts disagree`);
      }
      loadIndexFromSnapshot(ledger.index, manifest, sections);
      for (const { name, rows } of manifest.tables) if (rows > 0) await engine.insertIPC(name, sections.get(name)!);
      const counts = await engine.query(
        `SELECT ${TABLES.map((t) => `(SELECT count(*) FROM ${t})::INTEGER AS ${t}`).join(', ')}`,
      );
      for (const name of TABLES) {
        const n = counts.getChild(name)?.get(0);
        if (n !== manifest.counts[name])
          throw new Error(`${name}: ${n} rows restored, manifest says ${manifest.counts[name]}`);
      }
    } catch (cause) {
      throw new LedgerError(
        'SNAPSHOT_CORRUPT',
        { field: 'snapshot', reason: String((cause as Error)?.message ?? cause) },
        cause,
      );
    }
    if (ledger.index.lastTx !== manifest.lastTx || ledger.index.lastEpoch !== manifest.lastEpoch) {
      throw new LedgerError('SNAPSHOT_CORRUPT', {
        field: 'snapshot',
        reason: 'transaction counters disagree with the manifest',
      });
    }
    return ledger;
  }

  /** The token encoding bodies are counted in. */
  get encoding(): TokenCounter['encoding'] {
    return this.counter.encoding;
  }

  /** Number of the last committed transaction (0 for an empty ledger). */
  get lastTx(): number {
    return this.index.lastTx;
  }

  /** The largest epoch committed so far. */
  get lastEpoch(): number {
    return this.index.lastEpoch;
  }

  /** Counts tokens of a text in the ledger's encoding. */
  countTokens(text: string): number {
    return this.counter.count(text);
  }

  /**
   * Applies a transaction whole or not at all. Invalid input is rejected with a coded
   * LedgerError naming the field, before anything is written.
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
    return this.exclusive(() => this.commitNow(own, true));
  }

  /** @internal Re-applies log records read from storage (recovery); they are not logged again. */
  replay(records: readonly Uint8Array[]): Promise<void> {
    return this.exclusive(async () => {
      for (const { record } of liveRecords(records, this.index.lastTx)) {
        if (record.op === 'commit') await this.commitNow(record.tx, false);
        else await this.apply(await planArchive(this.engine, this.index, record.tx, record.epoch), null);
      }
    });
  }

  private async commitNow(tx: Transaction, log: boolean): Promise<Receipt> {
    validateShape(tx);
    const plan = planCommit(tx, this.index, await this.hashBodies(tx), this.counter.count);
    await this.apply(plan, log ? { op: 'commit', tx } : null);
    return plan.receipt;
  }

  /** The nodes and edges valid at `epoch`, in recording order. */
  asOf(epoch: number): Promise<GraphView> {
    return this.exclusive(async () => {
      assertEpoch(epoch);
      const nodes = rowsOf<NodeRow & BodyColumns>(await this.engine.query(nodesAsOfSql(epoch))).map(toNodeRecord);
      const edges = rowsOf<{
        kind: string;
        tx: number;
        valid_from: number;
        valid_to: number | null;
        from_id: string;
        to_id: string;
      }>(await this.engine.query(edgesAsOfSql(epoch))).map(
        (e): EdgeRecord => ({
          from: e.from_id,
          to: e.to_id,
          kind: e.kind as EdgeRecord['kind'],
          tx: e.tx,
          validFrom: e.valid_from,
          ...(e.valid_to === null ? {} : { validTo: e.valid_to }),
        }),
      );
      return { nodes, edges };
    });
  }

  /**
   * The smallest evidence-closed working set that fits the budget, for the active task and
   * steering (or the given roots), with an explanation for every candidate.
   */
  materialize(request: MaterializeRequest): Promise<WorkingSet> {
    return this.exclusive(() => {
      checkRequestText(request);
      return materialize(
        {
          engine: this.engine,
          lastEpoch: this.index.lastEpoch,
          nidOf: (id) => this.index.nodes.get(id)?.nid,
          idOf: (nid) => this.index.byNid[nid]?.id,
          countTokens: (text) => this.counter.count(text),
        },
        request,
      );
    });
  }

  /** Failed verifiers valid at `epoch` whose sources got a newer revision since they ran. */
  rerunCandidates(
    epoch: number = this.index.lastEpoch,
    options: { authority?: readonly string[] } = {},
  ): Promise<RerunCandidate[]> {
    return this.exclusive(async () => {
      assertEpoch(epoch);
      return rerunCandidates(this.engine, epoch, options.authority ? [...options.authority] : null);
    });
  }

  /**
   * Archives a completed, unreferenced discovery transaction (closes its nodes from `epoch`,
   * default the last epoch); refused with ARCHIVE_REFUSED when something still depends on it.
   */
  archive(tx: number, options: { epoch?: number } = {}): Promise<Receipt> {
    return this.exclusive(async () => {
      const epoch = options.epoch ?? this.index.lastEpoch;
      const plan = await planArchive(this.engine, this.index, tx, epoch);
      await this.apply(plan, { op: 'archive', tx, epoch });
      return plan.receipt;
    });
  }

  /**
   * Temporal hybrid retrieval: support for a claim, an action or a question from exact, BM25,
   * vector and graph channels over what is valid at the epoch within the authority scopes — or
   * `abstain` with the missing evidence named.
   */
  retrieve(query: RetrievalQuery): Promise<RetrievalResult> {
    return this.exclusive(() => {
      checkRequestText(query);
      return retrieve(
        {
          engine: this.engine,
          ledger: this.index,
          nidOf: (id) => this.index.nodes.get(id)?.nid,
          idOf: (nid) => this.index.byNid[nid]?.id,
          index: async () => {
            await this.retrievalIndex.catchUp(this.engine, this.index);
            return this.retrievalIndex;
          },
          vectors: async () => {
            this.bodyVectors ??= await BodyVectors.create(this.engine, this.embedder, () => this.index.nextBkey);
            await this.bodyVectors.catchUp();
            return this.bodyVectors;
          },
          embedder: this.embedder,
        },
        query,
      );
    });
  }

  /** Every table as Arrow IPC streams plus a manifest, in one verifiable byte array. */
  snapshot(): Promise<Uint8Array> {
    return this.exclusive(() => this.snapshotNow());
  }

  /** @internal Runs `fn` with exclusive access to the engine (used by the other modules). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    // Decided at the call: what was called before close() still runs, what after it never does.
    if (this.closing) return Promise.reject(new LedgerError('LEDGER_CLOSED'));
    const run = this.queue
      .then(() => {
        if (this.closed) throw new LedgerError('LEDGER_CLOSED');
        if (this.failed) throw this.failed;
        return fn();
      })
      // The public API's one exit: whatever a bug or the runtime throws leaves as a coded error.
      .catch((e: unknown) => {
        throw asLedgerError(e);
      });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Waits for the calls already made, then closes; calls made after it reject with
   * LEDGER_CLOSED. Calling it again returns the same promise. */
  close(): Promise<void> {
    this.closing ??= this.queue
      .then(async () => {
        this.closed = true;
        try {
          await this.storage?.close?.();
        } finally {
          await this.engine.close();
        }
      })
      .catch((e: unknown) => {
        throw asLedgerError(e, 'STORAGE_FAILED', 'storage');
      });
    this.queue = this.closing.catch(() => undefined);
    return this.closing;
  }

  /**
   * @internal Writes a plan inside one engine transaction; the durable log append of `record`
   * runs inside it, so a storage failure rolls the engine back too. When the engine's COMMIT
   * fails after the append succeeded, the log holds a record this ledger does not: a `void`
   * record naming its transaction is appended so that replay skips it (and if even that append
   * fails, the ledger refuses every later call until reopened).
   *
   * Round trips cost ~0.3 ms each and an Arrow insert ~0.7 ms of DuckDB planning, so a commit is
   * one SQL batch (BEGIN, the validity UPDATE, small vocabulary-only inserts), one Arrow stream
   * per remaining table, and COMMIT.
   */
  async apply(plan: CommitPlan, record: LogRecord | null): Promise<void> {
    const { engine } = this;
    const epoch = plan.transaction.epoch;
    // Versions written and closed by this same commit are written closed (they are the plan's
    // own rows, not the index's, so setting valid_to early changes nothing if the commit fails);
    // only older versions need the UPDATE.
    const closed = new Set<number>();
    for (const c of plan.closures) if (c.target === 'node') closed.add(c.key);
    for (const row of plan.nodes) if (closed.delete(row.vkey)) row.valid_to = epoch;
    const batch = ['BEGIN TRANSACTION'];
    if (closed.size > 0)
      batch.push(`UPDATE nodes SET valid_to = ${intLiteral(epoch)} WHERE vkey IN ${intList([...closed])}`);
    const streams: Array<[TableName, Uint8Array]> = [];
    const inserts: Array<[TableName, readonly object[]]> = [
      ['bodies', plan.bodies],
      ['nodes', plan.nodes],
      ['edges', plan.edges],
      ['closures', plan.closures],
      ['transactions', [plan.transaction]],
    ];
    for (const [name, rows] of inserts) {
      if (rows.length === 0) continue;
      const sql = literalInsertSql(name, rows);
      if (sql !== null) batch.push(sql);
      else streams.push([name, rowsToIPC(name, rows)]);
    }
    const storage = record === null ? null : this.storage;
    let appended = false;
    try {
      try {
        await engine.run(batch.join(';\n'));
        for (const [name, ipc] of streams) await engine.insertIPC(name, ipc);
      } catch (cause) {
        throw asLedgerError(cause, 'ENGINE_FAILED');
      }
      if (storage !== null) {
        try {
          await storage.append(encodeLogRecord(record!));
        } catch (cause) {
          throw asLedgerError(cause, 'STORAGE_FAILED', 'storage');
        }
        appended = true;
      }
      try {
        await engine.run('COMMIT');
      } catch (cause) {
        throw asLedgerError(cause, 'ENGINE_FAILED');
      }
    } catch (e) {
      await engine.run('ROLLBACK').catch(() => undefined);
      if (appended) await this.voidRecord(storage!, plan.transaction.tx, e);
      throw e;
    }
    this.applyToIndex(plan);
  }

  private async voidRecord(storage: StorageAdapter, tx: number, error: unknown): Promise<void> {
    try {
      await storage.append(encodeLogRecord({ op: 'void', tx }));
    } catch (cause) {
      this.failed = new LedgerError(
        'STORAGE_FAILED',
        {
          field: 'storage',
          reason: `transaction ${tx} failed after its log record was written, and the record could not be voided; reopen the ledger (the transaction may reappear)`,
          error: String(error),
        },
        cause,
      );
    }
  }

  private applyToIndex(plan: CommitPlan): void {
    const { index } = this;
    const epoch = plan.transaction.epoch;
    for (const row of plan.closedNodes) index.closeNode(row, epoch);
    index.nextCkey += plan.closures.length;
    for (const b of plan.bodies) index.addBody(b);
    for (const row of plan.nodes) index.addNodeVersion(row);
    for (const e of plan.edges) index.addEdge(e);
    index.addTransaction(plan.transaction);
    // Retrieval's postings and adjacency grow with each commit, off the engine (no round trip).
    this.retrievalIndex.onCommit(plan.bodies, plan.edges);
  }

  /** The content hash of each node's body, by position. A text repeated within the transaction
   * is hashed again rather than deduplicated by a Set keyed on the text (see BodyHashes). */
  private async hashBodies(tx: Transaction): Promise<BodyHashes> {
    const nodes = tx.nodes ?? [];
    const texts: string[] = [];
    for (const n of nodes) if (n.body !== undefined) texts.push(n.body);
    const hashes = await this.hashTexts(texts);
    const out = new Array<string | undefined>(nodes.length);
    for (let i = 0, k = 0; i < nodes.length; i++) if (nodes[i]!.body !== undefined) out[i] = hashes[k++];
    return out;
  }

  private async snapshotNow(): Promise<Uint8Array> {
    const sections: Uint8Array[] = [];
    const tables: SnapshotManifest['tables'] = [];
    const counts = {} as SnapshotManifest['counts'];
    for (const name of TABLES) {
      const result = await this.engine.query(`SELECT * FROM ${name} ORDER BY ${TABLE_ORDER_KEY[name]}`);
      // Re-encoded by our own writer: DuckDB's Arrow export leaves uninitialised bytes under
      // null slots, which would make equal ledgers differ byte-wise.
      const bytes = exportTableIPC(name, result) ?? rowsToIPC(name, rowsOf(result));
      sections.push(bytes);
      tables.push({ name, bytes: bytes.length, rows: result.numRows });
      counts[name] = result.numRows;
    }
    const manifest: SnapshotManifest = {
      format: SNAPSHOT_FORMAT,
      library: 'context-ledger',
      encoding: this.counter.encoding,
      lastTx: this.index.lastTx,
      lastEpoch: this.index.lastEpoch,
      counts,
      tables,
    };
    return encodeSnapshot(manifest, sections);
  }
}

/** A durable log record: the caller's input, replayed through `commit` on recovery (planning is
 * deterministic, so replay writes the same rows). */
export type LogRecord =
  | { op: 'commit'; tx: Transaction }
  | { op: 'archive'; tx: number; epoch: number }
  /** The record just before, which was to write transaction `tx`, never took effect. */
  | { op: 'void'; tx: number };

export function encodeLogRecord(record: LogRecord): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(record));
}

/**
 * The log records that took effect, with the transaction number each writes. A `void` record
 * cancels the record before it when that record was to write the transaction it names (it is
 * appended only right after such a record; one naming anything else is ignored).
 */
export function liveRecords(
  records: readonly Uint8Array[],
  lastTx: number,
): Array<{ tx: number; record: Exclude<LogRecord, { op: 'void' }> }> {
  const live: Array<{ tx: number; record: Exclude<LogRecord, { op: 'void' }> }> = [];
  for (const [i, bytes] of records.entries()) {
    let record: LogRecord;
    try {
      record = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as LogRecord;
    } catch (cause) {
      throw new LedgerError('SNAPSHOT_CORRUPT', { field: `log[${i}]`, reason: 'log record is not JSON' }, cause);
    }
    const op = (record as { op?: unknown } | null)?.op;
    if (op === 'void') {
      if (live.at(-1)?.tx === (record as { tx: unknown }).tx) live.pop();
    } else if (op === 'commit' || op === 'archive') {
      live.push({ tx: lastTx + live.length + 1, record: record as Exclude<LogRecord, { op: 'void' }> });
    } else {
      throw new LedgerError('SNAPSHOT_CORRUPT', { field: `log[${i}].op`, reason: `unknown op ${String(op)}` });
    }
  }
  return live;
}

export function toNodeRecord(r: NodeRow & BodyColumns): NodeRecord {
  // Keys in the commit shape's order, then validity: the same record always serialises the same.
  const rec: Partial<NodeRecord> & Record<string, unknown> = { id: r.id, kind: r.kind as NodeKind };
  if (r.status !== null) rec.status = r.status as Status;
  rec.authority = r.authority;
  if (r.body !== null) rec.body = r.body;
  if (r.path !== null) rec.path = r.path;
  if (r.revision !== null) rec.revision = r.revision;
  if (r.range_start !== null && r.range_end !== null) rec.range = [r.range_start, r.range_end];
  if (r.changed !== null) rec.changed = JSON.parse(r.changed) as LineRange[];
  if (r.verifier !== null) rec.verifier = r.verifier;
  if (r.tool !== null) rec.tool = r.tool;
  if (r.role !== null) rec.role = r.role as NodeRecord['role'];
  if (r.meta !== null) rec.meta = JSON.parse(r.meta) as NodeRecord['meta'];
  rec.tx = r.tx;
  rec.validFrom = r.valid_from;
  if (r.valid_to !== null) rec.validTo = r.valid_to;
  rec.tokens = r.tokens ?? 0;
  if (r.body_hash !== null) rec.bodyHash = r.body_hash;
  return rec as NodeRecord;
}
