import { LedgerError } from '../errors.js';
import { crc32 } from './crc32.js';

/**
 * The byte layouts of the Node directory storage. Integers are u32 little-endian.
 *
 *   snapshot.bin  "CTXLSNP1" | generation | CRC-32 of (magic ‖ generation ‖ snapshot) | snapshot
 *   log.bin       "CTXLLOG1" | generation | CRC-32 of (magic ‖ generation) | frame*
 *   frame         length (> 0) | CRC-32 of (length ‖ record) | record
 *
 * The generation counts compactions. A log belongs to the snapshot of the same generation; one
 * with an older generation was already folded into the snapshot (a crash between the snapshot's
 * rename and the log's reset) and is dropped whole, so no record is ever applied twice. The
 * frame checksum covers the length too, so a zeroed or garbled header never passes as a frame.
 */
export const HEADER_BYTES = 16;
const FRAME_HEADER_BYTES = 8;
const SNAPSHOT_MAGIC = new TextEncoder().encode('CTXLSNP1');
const LOG_MAGIC = new TextEncoder().encode('CTXLLOG1');

export const corrupt = (file: string, offset: number, why: string): LedgerError =>
  new LedgerError('SNAPSHOT_CORRUPT', { field: 'storage', file, offset, reason: `${file} at byte ${offset}: ${why}` });

const view = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);

function encodeHeader(magic: Uint8Array, generation: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES + payload.length);
  out.set(magic, 0);
  view(out).setUint32(8, generation, true);
  view(out).setUint32(12, crc32(payload, crc32(out.subarray(0, 12))), true);
  out.set(payload, HEADER_BYTES);
  return out;
}

/** The generation in a header whose checksum covers `payload`; SNAPSHOT_CORRUPT otherwise. */
function decodeHeader(bytes: Uint8Array, magic: Uint8Array, payload: Uint8Array, file: string): number {
  if (bytes.length < HEADER_BYTES) throw corrupt(file, 0, 'shorter than its header');
  if (!magic.every((b, i) => bytes[i] === b)) throw corrupt(file, 0, 'bad magic');
  if (view(bytes).getUint32(12, true) !== crc32(payload, crc32(bytes.subarray(0, 12))))
    throw corrupt(file, 0, 'checksum mismatch');
  return view(bytes).getUint32(8, true);
}

export const encodeSnapshotFile = (generation: number, snapshot: Uint8Array): Uint8Array =>
  encodeHeader(SNAPSHOT_MAGIC, generation, snapshot);

export function decodeSnapshotFile(bytes: Uint8Array, file: string): { generation: number; snapshot: Uint8Array } {
  const snapshot = bytes.subarray(HEADER_BYTES);
  return { generation: decodeHeader(bytes, SNAPSHOT_MAGIC, snapshot, file), snapshot };
}

export const encodeLogHeader = (generation: number): Uint8Array =>
  encodeHeader(LOG_MAGIC, generation, new Uint8Array());

export const decodeLogHeader = (bytes: Uint8Array, file: string): number =>
  decodeHeader(bytes.subarray(0, HEADER_BYTES), LOG_MAGIC, new Uint8Array(), file);

export function encodeFrame(record: Uint8Array): Uint8Array {
  const out = new Uint8Array(FRAME_HEADER_BYTES + record.length);
  view(out).setUint32(0, record.length, true);
  out.set(record, FRAME_HEADER_BYTES);
  view(out).setUint32(4, crc32(record, crc32(out.subarray(0, 4))), true);
  return out;
}

/** The record of an intact frame starting at `at`, or null. */
function frameAt(bytes: Uint8Array, at: number): Uint8Array | null {
  if (at + FRAME_HEADER_BYTES > bytes.length) return null;
  const length = view(bytes).getUint32(at, true);
  const end = at + FRAME_HEADER_BYTES + length;
  if (length === 0 || end > bytes.length) return null;
  const record = bytes.subarray(at + FRAME_HEADER_BYTES, end);
  return view(bytes).getUint32(at + 4, true) === crc32(record, crc32(bytes.subarray(at, at + 4))) ? record : null;
}

/**
 * What a tail of a log file after its last intact frame looks like: a frame whose length fits the
 * file exactly but whose checksum fails is whole-looking (it may have been acknowledged and then
 * damaged); anything else is an append a crash interrupted.
 */
export function tailLooksWhole(bytes: Uint8Array, end: number): boolean {
  if (end + FRAME_HEADER_BYTES > bytes.length) return false;
  return end + FRAME_HEADER_BYTES + view(bytes).getUint32(end, true) === bytes.length;
}

/**
 * The records of a log file's frames, and where the intact frames end. Bytes after that end
 * are a torn tail: an append the crash interrupted, never acknowledged, to be cut off. A bad
 * frame is told apart from a torn tail by what follows it: an intact frame anywhere after it
 * means acknowledged records lie beyond, so it is corruption (SNAPSHOT_CORRUPT), not a crash.
 */
export function scanLog(bytes: Uint8Array, file: string): { records: Uint8Array[]; end: number } {
  const records: Uint8Array[] = [];
  let at = HEADER_BYTES;
  while (at < bytes.length) {
    const record = frameAt(bytes, at);
    if (record === null) {
      for (let later = at + 1; later < bytes.length; later++) {
        if (frameAt(bytes, later) !== null)
          throw corrupt(file, at, `damaged frame followed by intact ones (at byte ${later})`);
      }
      break;
    }
    records.push(record);
    at += FRAME_HEADER_BYTES + record.length;
  }
  return { records, end: at };
}
