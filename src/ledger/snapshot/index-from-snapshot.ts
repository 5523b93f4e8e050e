import { type Table, tableFromIPC } from 'apache-arrow';
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
      if (!validAt(hashes, i)) throw new Error('bodies: null hash');
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
    const offsets = kinds.valueOffsets!;
    const bytes = kinds.values as Uint8Array;
    index.validEdges.reserve(ekey.length);
    let next = index.nextEkey;
    let run = -1;
    let kindIndex = -1;
    for (let i = 0; i < ekey.length; i++) {
      if (ekey[i]! >= next) next = ekey[i]! + 1;
      if (validAt(validTo, i)) continue; // closed: valid_to is set
      if (run < 0 || !sameValue(bytes, offsets, run, i)) {
        if (!validAt(kinds, i)) throw new Error('edges: null kind');
        const k = EDGE_KIND_INDEX.get(decoder.decode(bytes.subarray(offsets[i]!, offsets[i + 1]!)));
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

interface Chunk {
  length: number;
  offset: number;
  nullBitmap?: Uint8Array | null;
  values: Int32Array | Uint8Array;
  valueOffsets?: Int32Array;
}

/** The single chunk of a column (sections are written as one batch). */
function chunkOf(table: Table, name: string, type: string): Chunk {
  const vector = table.getChild(name);
  const data = vector?.data;
  if (data?.length !== 1 || String(vector?.type) !== type) throw new Error(`column ${name} is not one ${type} batch`);
  return data[0] as unknown as Chunk;
}

const validAt = (c: Chunk, i: number): boolean =>
  !c.nullBitmap ||
  c.nullBitmap.length === 0 ||
  ((c.nullBitmap[(c.offset + i) >> 3]! >> ((c.offset + i) & 7)) & 1) === 1;

/** A non-null Int32 column. */
function ints(table: Table, name: string): Int32Array {
  const c = chunkOf(table, name, 'Int32');
  for (let i = 0; i < c.length; i++) if (!validAt(c, i)) throw new Error(`column ${name} has a null`);
  return (c.values as Int32Array).subarray(0, c.length);
}

function nullableInts(table: Table, name: string): (i: number) => number | null {
  const c = chunkOf(table, name, 'Int32');
  const values = c.values as Int32Array;
  return (i) => (validAt(c, i) ? values[i]! : null);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * A Utf8 column's values. When its bytes are all ASCII (ids, kinds, hashes nearly always are),
 * they are decoded once as one string and each value is a slice of it, instead of one
 * TextDecoder call per value.
 */
function texts(table: Table, name: string): (i: number) => string | null {
  const c = chunkOf(table, name, 'Utf8');
  const offsets = c.valueOffsets!;
  const bytes = c.values as Uint8Array;
  const read = decodeColumn(c, offsets, bytes);
  if (!REPEATING.has(name)) return read;
  // Kinds, statuses, authorities repeat row after row: reuse the previous string when the bytes
  // match (400k edge kinds were 400k fresh strings otherwise).
  let last = -1;
  let lastValue: string | null = null;
  return (i) => {
    if (!validAt(c, i)) return null;
    if (last >= 0 && sameValue(bytes, offsets, last, i)) return lastValue;
    last = i;
    lastValue = read(i);
    return lastValue;
  };
}

const REPEATING = new Set(['kind', 'status', 'authority', 'role', 'verifier', 'tool']);

function sameValue(bytes: Uint8Array, offsets: Int32Array, a: number, b: number): boolean {
  const length = offsets[a + 1]! - offsets[a]!;
  if (offsets[b + 1]! - offsets[b]! !== length) return false;
  for (let k = 0; k < length; k++) if (bytes[offsets[a]! + k] !== bytes[offsets[b]! + k]) return false;
  return true;
}

function decodeColumn(c: Chunk, offsets: Int32Array, bytes: Uint8Array): (i: number) => string | null {
  const start = offsets[0]!;
  const end = offsets[c.length]!;
  let ascii = true;
  for (let i = start; i < end; i++) {
    if (bytes[i]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    const all = decoder.decode(bytes.subarray(start, end));
    return (i) => (validAt(c, i) ? all.slice(offsets[i]! - start, offsets[i + 1]! - start) : null);
  }
  return (i) => (validAt(c, i) ? decoder.decode(bytes.subarray(offsets[i]!, offsets[i + 1]!)) : null);
}
