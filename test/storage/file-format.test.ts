import { describe, expect, it } from 'vitest';
import { crc32 } from '../../src/storage/crc32.js';
import {
  decodeSnapshotFile,
  encodeFrame,
  encodeLogHeader,
  encodeSnapshotFile,
  scanLog,
} from '../../src/storage/file-format.js';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const records = ['{"op":"commit","tx":1}', '{"op":"commit","tx":2}', '{"op":"archive","tx":1,"epoch":3}'].map(text);
const frames = records.map(encodeFrame);
const log = concat(encodeLogHeader(0), ...frames);
const decoded = (r: Uint8Array[]): string[] => r.map((b) => new TextDecoder().decode(b));

describe('storage file format', () => {
  it('CRC-32 is the standard IEEE one', () => {
    expect(crc32(text('123456789'))).toBe(0xcbf43926);
  });

  it('reads every intact frame', () => {
    expect(scanLog(log, 'log.bin')).toEqual({ records: expect.any(Array), end: log.length });
    expect(decoded(scanLog(log, 'log.bin').records)).toEqual(decoded(records));
  });

  it.each([
    ['half a frame', frames[0]!.subarray(0, 9)],
    ['a frame header only', frames[0]!.subarray(0, 8)],
    ['three bytes of a header', frames[0]!.subarray(0, 3)],
    ['zeros (blocks allocated, data never written)', new Uint8Array(64)],
    [
      'a complete-length frame with garbage data',
      concat(frames[0]!.subarray(0, 8), new Uint8Array(records[0]!.length)),
    ],
  ])('a torn tail of %s ends the log before it', (_name, tail) => {
    const { records: read, end } = scanLog(concat(log, tail), 'log.bin');
    expect(decoded(read)).toEqual(decoded(records));
    expect(end).toBe(log.length);
  });

  it('a damaged frame with intact frames after it is SNAPSHOT_CORRUPT at its offset', () => {
    const damaged = log.slice();
    const second = 16 + frames[0]!.length;
    damaged[second + 10]! ^= 0x20;
    expect(() => scanLog(damaged, '/d/log.bin')).toThrow(
      expect.objectContaining({
        code: 'SNAPSHOT_CORRUPT',
        details: expect.objectContaining({ file: '/d/log.bin', offset: second }),
      }),
    );
    const zeroedHeader = log.slice();
    zeroedHeader.fill(0, second, second + 8);
    expect(() => scanLog(zeroedHeader, 'log.bin')).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ offset: second }) }),
    );
  });

  it('snapshot files carry their generation and reject any altered byte', () => {
    const file = encodeSnapshotFile(7, text('snapshot bytes'));
    expect(decodeSnapshotFile(file, 's')).toEqual({ generation: 7, snapshot: text('snapshot bytes') });
    for (const at of [0, 9, 13, file.length - 1]) {
      const bad = file.slice();
      bad[at]! ^= 0x01;
      expect(() => decodeSnapshotFile(bad, 's')).toThrow(expect.objectContaining({ code: 'SNAPSHOT_CORRUPT' }));
    }
  });
});
