import { type Table, tableFromIPC } from 'apache-arrow';
import {
  type ArrowChunk,
  type BufferType,
  int32sOf,
  isValidAt,
  nullableInt32sOf,
  sameUtf8,
  soleChunk,
  utf8At,
  utf8sOf,
} from '../../engine/arrow-columns.js';
import type { TableName } from '../../schema/ddl.js';
import type { NodeKind, Status } from '../../schema/kinds.js';
import type { NodeRow, TransactionRow } from '../../schema/rows.js';
import { EDGE_KIND_INDEX, type LedgerIndex } from '../ledger-index.js';
import type { SnapshotManifest } from './snapshot-format.js';

/**
 * Fills a fresh index from a snapshot's own table sections, read with apache-arrow in JS: the
 * same bytes the engine ingests, so no export query and no row objects for every row (reading
 * 100k nodes and 400k edges back out of DuckDB into objects took ~3 s). Only the latest version
 * of each node becomes a NodeRow: earlier versions are always closed, and closed versions add
 * nothing to the index but counters. Throws on anything inconsistent; the caller reports it as
 * SNAPSHOT_CORRUPT.
 */
export function loadIndexFromSnapshot(
  index: LedgerIndex,
  manifest: SnapshotManifest,
  sections: ReadonlyMap<TableName, Uint8Array>,
): void {
  const read = (name: TableName): Table | null => {
    const expected = manifest.tables.find((t) => t.name === name)?.rows ?? 0;
    if (expected === 0) return null;
    const table = tableFromIPC(sections.get(name)!);
    if (table.numRows !== expected)
      throw new Error(`${name}: ${table.numRows} rows in the section, manifest says ${expected}`);
    return table;
  };

  const bodies = read('bodies');
  if (bodies) {
    const bkey = ints(bodies, 'bkey');
    // Hashes go from the section's bytes into the key table; no string per body.
    const hashes = chunkOf(bodies, 'hash', 'Utf8');
    const offsets = hashes.valueOffsets!;
    const bytes = hashes.values as Uint8Array;
    let ascii = true;
    for (let i = offsets[0]!; i < offsets[bkey.length]! && ascii; i++) ascii = bytes[i]! < 0x80;
    const hash = ascii ? null : texts(bodies, 'hash'); // hashes of a custom hashTexts
    index.bodyKeys.reserve(
      bkey.length,
      bkey.length === 0 ? 0 : Math.ceil((offsets[bkey.length]! - offsets[0]!) / bkey.length),
    );
    let next = index.nextBkey;
    for (let i = 0; i < bkey.length; i++) {
      if (!isValidAt(hashes, i)) throw new Error('bodies: null hash');
      if (hash) index.bodyKeys.set(hash(i)!, bkey[i]!);
      else index.bodyKeys.setBytes(bytes, offsets[i]!, offsets[i + 1]!, bkey[i]!);
      if (bkey[i]! >= next) next = bkey[i]! + 1;
    }
    index.nextBkey = next;
  }

  const nodes = read('nodes');
  if (nodes) {
    const vkey = ints(nodes, 'vkey');
    const nid = ints(nodes, 'nid');
    // nid → row of its largest vkey. Nids are dense (one per node, in recording order), so a
    // typed array serves instead of a 100k-entry Map.
    let maxNid = -1;
    let sorted = true;
    for (let i = 0; i < vkey.length; i++) {
      if (nid[i]! < 0) throw new Error('nodes: negative nid');
      if (nid[i]! > maxNid) maxNid = nid[i]!;
      if (i > 0 && vkey[i]! <= vkey[i - 1]!) sorted = false;
    }
    if (maxNid > 2 * vkey.length + 1024) throw new Error('nodes: nids are not dense');
    const latest = new Int32Array(maxNid + 1).fill(-1);
    for (let i = 0; i < vkey.length; i++) {
      const at = latest[nid[i]!]!;
      if (at < 0 || vkey[at]! < vkey[i]!) latest[nid[i]!] = i;
    }
    const rows: number[] = [];
    for (let i = 0; i < vkey.length; i++) if (latest[nid[i]!] === i) rows.push(i);
    if (!sorted) rows.sort((a, b) => vkey[a]! - vkey[b]!); // sections are written in vkey order
    const text = (name: string) => texts(nodes, name);
    const int = (name: string) => nullableInts(nodes, name);
    const [id, kind, status, authority, path, revision, verifier, tool, role, changed, meta] = [
      'id',
      'kind',
      'status',
      'authority',
      'path',
      'revision',
      'verifier',
      'tool',
      'role',
      'changed',
      'meta',
    ].map(text) as Array<(i: number) => string | null>;
    const [bkey, rangeStart, rangeEnd, tx, validFrom, validTo] = [
      'bkey',
      'range_start',
      'range_end',
      'tx',
      'valid_from',
      'valid_to',
    ].map(int) as Array<(i: number) => number | null>;
    // Counters cover every version, not only the latest.
    for (let i = 0; i < vkey.length; i++) {
      index.nextVkey = Math.max(index.nextVkey, vkey[i]! + 1);
      index.nextNid = Math.max(index.nextNid, nid[i]! + 1);
    }
    for (const i of rows) {
      const row: NodeRow = {
        vkey: vkey[i]!,
        nid: nid[i]!,
        id: id!(i)!,
        kind: kind!(i) as NodeKind,
        status: status!(i) as Status | null,
        authority: authority!(i)!,
        bkey: bkey!(i),
        path: path!(i),
        revision: revision!(i),
        range_start: rangeStart!(i),
        range_end: rangeEnd!(i),
        verifier: verifier!(i),
        tool: tool!(i),
        role: role!(i),
        changed: changed!(i),
        meta: meta!(i),
        tx: tx!(i)!,
        valid_from: validFrom!(i)!,
        valid_to: validTo!(i),
      };
      index.addNodeVersion(row);
    }
  }

  const edges = read('edges');
  if (edges) {
    const ekey = ints(edges, 'ekey');
    const src = ints(edges, 'src');
    const dst = ints(edges, 'dst');
    const validTo = chunkOf(edges, 'valid_to', 'Int32');
    // 400k edges at 100k nodes: the kind is resolved once per run of equal bytes (edges of a
    // kind come in runs) and validity read from the bitmap, without a closure call per row.
    const kinds = chunkOf(edges, 'kind', 'Utf8');
    index.validEdges.reserve(ekey.length);
    let next = index.nextEkey;
    let run = -1;
    let kindIndex = -1;
    for (let i = 0; i < ekey.length; i++) {
      if (ekey[i]! >= next) next = ekey[i]! + 1;
      if (isValidAt(validTo, i)) continue; // closed: valid_to is set
      if (run < 0 || !sameUtf8(kinds, run, i)) {
        if (!isValidAt(kinds, i)) throw new Error('edges: null kind');
        const k = EDGE_KIND_INDEX.get(utf8At(kinds, i));
        if (k === undefined) throw new Error(`edges: unknown kind at row ${i}`);
        run = i;
        kindIndex = k;
      }
      index.validEdges.add(src[i]!, dst[i]! * 16 + kindIndex);
    }
    index.nextEkey = next;
  }

  const closures = read('closures');
  if (closures) {
    const ckey = ints(closures, 'ckey');
    for (let i = 0; i < ckey.length; i++) index.nextCkey = Math.max(index.nextCkey, ckey[i]! + 1);
  }

  const transactions = read('transactions');
  if (transactions) {
    const [tx, epoch, nodeCount, edgeCount, transitions] = ['tx', 'epoch', 'nodes', 'edges', 'transitions'].map((c) =>
      ints(transactions, c),
    );
    const kind = texts(transactions, 'kind');
    const archived = nullableInts(transactions, 'archived_tx');
    for (let i = 0; i < tx!.length; i++) {
      const row: TransactionRow = {
        tx: tx![i]!,
        epoch: epoch![i]!,
        kind: kind(i) as TransactionRow['kind'],
        nodes: nodeCount![i]!,
        edges: edgeCount![i]!,
        transitions: transitions![i]!,
        archived_tx: archived(i),
      };
      index.addTransaction(row);
    }
  }
}

/** The single chunk of a column (sections are written as one batch). */
function chunkOf(table: Table, name: string, type: BufferType): ArrowChunk {
  const chunk = soleChunk(table, name, type);
  if (chunk === null) throw new Error(`column ${name} is not one ${type} batch`);
  return chunk;
}

/** A non-null Int32 column. */
const ints = (table: Table, name: string): Int32Array => int32sOf(chunkOf(table, name, 'Int32'), name);

const nullableInts = (table: Table, name: string): ((i: number) => number | null) =>
  nullableInt32sOf(chunkOf(table, name, 'Int32'));

/** A Utf8 column's values. */
function texts(table: Table, name: string): (i: number) => string | null {
  const c = chunkOf(table, name, 'Utf8');
  const read = utf8sOf(c);
  if (!REPEATING.has(name)) return read;
  // Kinds, statuses, authorities repeat row after row: reuse the previous string when the bytes
  // match (400k edge kinds were 400k fresh strings otherwise).
  let last = -1;
  let lastValue: string | null = null;
  return (i) => {
    if (!isValidAt(c, i)) return null;
    if (last >= 0 && sameUtf8(c, last, i)) return lastValue;
    last = i;
    lastValue = read(i);
    return lastValue;
  };
}

const REPEATING = new Set(['kind', 'status', 'authority', 'role', 'verifier', 'tool']);
