import { LedgerError } from '../../errors.js';
import { TABLES, type TableName } from '../../schema/ddl.js';
import type { Encoding } from '../../tokenizer/token-counter.js';
import { sha256Bytes } from '../content-hash.js';

/**
 * The snapshot container: runtime-neutral bytes, identical for the same ledger in every runtime.
 *
 *   magic "CTXLEDG1" (8 bytes) | manifest length (u32 LE) | manifest (UTF-8 JSON)
 *   | table sections (Arrow IPC streams, in manifest order) | SHA-256 of everything before (32 bytes)
 *
 * The manifest holds no timestamps or host details, so equal ledgers give equal bytes. It is padded
 * with trailing spaces (still JSON) so the sections start 8-byte aligned: apache-arrow copies
 * every message body it reads from a misaligned buffer (80 MB at 100k nodes on restore).
 */
export const SNAPSHOT_FORMAT = 1;
const MAGIC = new TextEncoder().encode('CTXLEDG1');
const DIGEST_BYTES = 32;

export interface SnapshotManifest {
  format: number;
  library: 'context-ledger';
  encoding: Encoding;
  lastTx: number;
  lastEpoch: number;
  counts: Record<TableName, number>;
  tables: Array<{ name: TableName; bytes: number; rows: number }>;
}

export async function encodeSnapshot(manifest: SnapshotManifest, sections: Uint8Array[]): Promise<Uint8Array> {
  const json = JSON.stringify(manifest);
  const head = new TextEncoder().encode(json.padEnd(json.length + ((8 - ((MAGIC.length + 4 + json.length) % 8)) % 8)));
  const bodyLength = MAGIC.length + 4 + head.length + sections.reduce((n, s) => n + s.length, 0);
  const out = new Uint8Array(bodyLength + DIGEST_BYTES);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(MAGIC.length, head.length, true);
  out.set(head, MAGIC.length + 4);
  let at = MAGIC.length + 4 + head.length;
  for (const s of sections) {
    out.set(s, at);
    at += s.length;
  }
  out.set(await sha256Bytes(out.subarray(0, bodyLength)), bodyLength);
  return out;
}

export interface DecodedSnapshot {
  manifest: SnapshotManifest;
  sections: Map<TableName, Uint8Array>;
}

/** True for the result of `decodeSnapshot` (a caller that verified a snapshot once passes it on). */
export function isDecodedSnapshot(x: unknown): x is DecodedSnapshot {
  return (
    typeof x === 'object' && x !== null && !(x instanceof Uint8Array) && (x as DecodedSnapshot).sections instanceof Map
  );
}

/** Parses and verifies a snapshot; any inconsistency is SNAPSHOT_CORRUPT naming what failed. */
export async function decodeSnapshot(bytes: unknown): Promise<DecodedSnapshot> {
  const corrupt = (reason: string): LedgerError => new LedgerError('SNAPSHOT_CORRUPT', { field: 'snapshot', reason });
  if (!(bytes instanceof Uint8Array)) throw corrupt('not a Uint8Array');
  if (bytes.length < MAGIC.length + 4 + DIGEST_BYTES) throw corrupt('too short');
  if (!MAGIC.every((b, i) => bytes[i] === b)) throw corrupt('bad magic');
  const bodyLength = bytes.length - DIGEST_BYTES;
  const digest = await sha256Bytes(bytes.subarray(0, bodyLength));
  if (!digest.every((b, i) => b === bytes[bodyLength + i])) throw corrupt('checksum mismatch (truncated or altered)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headLength = view.getUint32(MAGIC.length, true);
  const headEnd = MAGIC.length + 4 + headLength;
  if (headEnd > bodyLength) throw corrupt('manifest length out of range');
  let manifest: SnapshotManifest;
  try {
    manifest = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(MAGIC.length + 4, headEnd)));
  } catch {
    throw corrupt('manifest is not JSON');
  }
  if (manifest?.format !== SNAPSHOT_FORMAT) throw corrupt(`unsupported format ${String(manifest?.format)}`);
  if (!Array.isArray(manifest.tables)) throw corrupt('manifest lists no tables');
  const sections = new Map<TableName, Uint8Array>();
  let at = headEnd;
  for (const t of manifest.tables) {
    if (!TABLES.includes(t.name) || !Number.isSafeInteger(t.bytes) || t.bytes < 0 || at + t.bytes > bodyLength) {
      throw corrupt(`bad table section ${String(t?.name)}`);
    }
    sections.set(t.name, bytes.subarray(at, at + t.bytes));
    at += t.bytes;
  }
  if (at !== bodyLength) throw corrupt('trailing bytes after the last section');
  for (const name of TABLES) if (!sections.has(name)) throw corrupt(`missing table ${name}`);
  return { manifest, sections };
}
