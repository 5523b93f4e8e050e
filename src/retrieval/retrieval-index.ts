import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import { Bm25Corpus } from '../rerank/bm25-corpus.js';
import type { Status } from '../schema/kinds.js';
import type { NodeRow } from '../schema/rows.js';
import { bodiesFromSql, edgesFromSql, visibleVersionsSql } from '../sql/retrieval-sql.js';
import { BodyCache } from '../text/body-cache.js';
import { EdgeAdjacency } from './edge-adjacency.js';
import { pathSubject } from './entities.js';
import { grow, TermPostings } from './term-postings.js';

/** What the index reads from the ledger's in-memory index (LedgerIndex has this shape). */
export interface LedgerNodes {
  readonly byNid: ReadonlyArray<NodeRow | undefined>;
  /** Body key by content hash. */
  readonly bodyKeys: { get(hash: string): number | undefined };
  readonly nextNid: number;
  readonly nextBkey: number;
  readonly nextEkey: number;
  readonly lastEpoch: number;
  readonly lastTx: number;
}

/** The records a query may see: valid at its epoch, inside its scopes. */
export interface VisibleSet {
  /** 1 for a visible record, by nid. */
  readonly nodes: Uint8Array;
  /** Visible records carrying each body, by body key (0: the body is invisible). */
  readonly bodies: Int32Array;
  /** Distinct visible bodies and their mean length in terms (BM25's N and avgdl). */
  readonly docs: number;
  readonly avgdl: number;
  /** The visible bodies as the lexical channel's BM25 corpus (its derived data kept with the set). */
  readonly corpus: Bm25Corpus;
  /** Status and transaction of the version valid at the epoch, where it is not the latest. */
  readonly versions: ReadonlyMap<number, { status: Status | null; tx: number }>;
}

/**
 * The retrieval's derived structures, all in memory and all maintained at commit: BM25 postings
 * per body, the edge adjacency the graph channel walks, which records carry each body, and which
 * records are about an entity by their path. `onCommit` is the ledger's one hook into it. A
 * restored ledger's bodies and edges were not committed through the hook; its first retrieval
 * reads them from the tables once (`catchUp`). Nothing here is in snapshots: it is rebuilt from
 * the tables.
 *
 * Why memory and not DuckDB tables: a retrieval then costs one engine round trip (the bodies of
 * what it returns) instead of ~10, and BM25 over a few hundred thousand postings takes a few
 * milliseconds in a typed-array loop. The cost is ~8 bytes a posting and ~20 bytes an edge.
 */
export class RetrievalIndex {
  readonly postings = new TermPostings();
  readonly adjacency = new EdgeAdjacency();
  /** Bodies recent retrievals returned (see BodyCache). */
  readonly bodies = new BodyCache();
  private bodyFirstNid = new Int32Array(1024).fill(-1);
  private readonly bodyMoreNids = new Map<number, number[]>();
  private readonly subjects = new Map<string, number[]>();
  private readonly paths = new Map<string, number[]>();
  private nidsUpTo = 0;
  private cache: { key: string; set: VisibleSet } | null = null;

  /** The commit hook: indexes the bodies and edges a commit wrote (pure JS, no engine call). */
  onCommit(
    bodies: ReadonlyArray<{ bkey: number; text: string }>,
    edges: ReadonlyArray<{ ekey: number; src: number; dst: number; kind: string; valid_from: number }>,
  ): void {
    // A key that is not the next one means an earlier gap (a restore): catchUp fills it in order.
    // Indexed loops: called once per commit, so unoptimised, where `for…of` allocates per row.
    for (let i = 0; i < bodies.length; i++) if (!this.postings.add(bodies[i]!.bkey, bodies[i]!.text)) break;
    for (let i = 0; i < edges.length; i++) {
      const e = edges[i]!;
      if (!this.adjacency.add(e.ekey, e.src, e.dst, e.kind, e.valid_from)) break;
    }
  }

  /** Brings every structure up to the ledger (reads the tables only after a restore). */
  async catchUp(engine: Engine, ledger: LedgerNodes, batch = 5000): Promise<void> {
    while (this.postings.upTo < ledger.nextBkey) {
      const rows = rowsOf<{ bkey: number; text: string }>(await engine.query(bodiesFromSql(this.postings.upTo, batch)));
      if (rows.length === 0) break;
      for (const r of rows) if (!this.postings.add(r.bkey, r.text)) throw new Error(`body ${r.bkey} out of order`);
    }
    while (this.adjacency.upTo < ledger.nextEkey) {
      const rows = rowsOf<{ ekey: number; src: number; dst: number; kind: string; valid_from: number }>(
        await engine.query(edgesFromSql(this.adjacency.upTo, batch * 4)),
      );
      if (rows.length === 0) break;
      for (const e of rows)
        if (!this.adjacency.add(e.ekey, e.src, e.dst, e.kind, e.valid_from))
          throw new Error(`edge ${e.ekey} out of order`);
    }
    // A node's body and path are the same in all its versions: each node is read once.
    for (; this.nidsUpTo < ledger.nextNid; this.nidsUpTo++) {
      const row = ledger.byNid[this.nidsUpTo];
      if (row === undefined) continue;
      if (row.bkey !== null) this.addBodyRecord(row.bkey, row.nid);
      if (row.path !== null) {
        push(this.subjects, pathSubject(row.path), row.nid);
        push(this.paths, row.path, row.nid);
      }
    }
  }

  private addBodyRecord(bkey: number, nid: number): void {
    if (bkey >= this.bodyFirstNid.length) {
      const old = this.bodyFirstNid.length;
      this.bodyFirstNid = grow(this.bodyFirstNid, Math.max(bkey + 1, old * 2));
      this.bodyFirstNid.fill(-1, old);
    }
    if (this.bodyFirstNid[bkey] === -1) this.bodyFirstNid[bkey] = nid;
    else {
      const more = this.bodyMoreNids.get(bkey);
      if (more === undefined) this.bodyMoreNids.set(bkey, [nid]);
      else more.push(nid);
    }
  }

  /** The visible records carrying a body, ascending. */
  recordsOf(bkey: number, visible: VisibleSet): number[] {
    const first = bkey < this.bodyFirstNid.length ? this.bodyFirstNid[bkey]! : -1;
    if (first === -1) return [];
    const all = [first, ...(this.bodyMoreNids.get(bkey) ?? [])];
    return all.filter((n) => visible.nodes[n] === 1).sort((a, b) => a - b);
  }

  /** Every record of a path, whatever its validity, ascending. */
  pathRecords(path: string): readonly number[] {
    return this.paths.get(path) ?? [];
  }

  /** Visible records whose path names the subject (see `pathSubject`), ascending. */
  subjectRecords(subject: string, visible: VisibleSet): number[] {
    return (this.subjects.get(subject) ?? []).filter((n) => visible.nodes[n] === 1).sort((a, b) => a - b);
  }

  /**
   * The records valid at `epoch` within `authority`. At the last epoch or later (a default call)
   * it is read from the ledger's own index, with no engine call; an earlier epoch needs the node
   * versions valid then, one query. Kept until the next commit or another epoch or scope.
   */
  async visible(
    engine: Engine,
    ledger: LedgerNodes,
    epoch: number,
    authority: readonly string[] | null,
  ): Promise<VisibleSet> {
    const current = epoch >= ledger.lastEpoch;
    const key = `${current ? 'now' : epoch}|${ledger.lastTx}|${authority === null ? '*' : authority.join('\u0000')}`;
    if (this.cache?.key === key) return this.cache.set;
    const n = ledger.nextNid;
    const nodes = new Uint8Array(n);
    const versions = new Map<number, { status: Status | null; tx: number }>();
    if (current) {
      const scopes = authority === null ? null : new Set(authority);
      for (let nid = 0; nid < n; nid++) {
        const row = ledger.byNid[nid];
        if (row !== undefined && row.valid_to === null && (scopes === null || scopes.has(row.authority)))
          nodes[nid] = 1;
      }
    } else {
      const rows = rowsOf<{ nid: number; status: Status | null; tx: number }>(
        await engine.query(visibleVersionsSql(epoch, authority)),
      );
      for (const r of rows) {
        nodes[r.nid] = 1;
        const latest = ledger.byNid[r.nid];
        if (latest !== undefined && (latest.status !== r.status || latest.tx !== r.tx))
          versions.set(r.nid, { status: r.status, tx: r.tx });
      }
    }
    const bodies = new Int32Array(this.postings.upTo);
    let docs = 0;
    let total = 0;
    for (let nid = 0; nid < n; nid++) {
      if (nodes[nid] !== 1) continue;
      const bkey = ledger.byNid[nid]?.bkey;
      if (bkey === null || bkey === undefined || bkey >= bodies.length) continue;
      if (bodies[bkey] === 0) {
        docs++;
        total += this.postings.docLen[bkey]!;
      }
      bodies[bkey]! += 1;
    }
    const avgdl = docs === 0 ? 0 : total / docs;
    const corpus = new Bm25Corpus(this.postings, bodies, docs, avgdl);
    const set: VisibleSet = { nodes, bodies, docs, avgdl, corpus, versions };
    this.cache = { key, set };
    return set;
  }
}

function push(map: Map<string, number[]>, key: string, nid: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [nid]);
  else list.push(nid);
}
