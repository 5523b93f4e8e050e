/**
 * CRC-32 (IEEE 802.3, the zlib/PNG polynomial), table-driven. Ours rather than `zlib.crc32`,
 * which only exists from Node 20.15 while the package supports every Node 20.
 */
const TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

/** CRC-32 of `bytes`, continuing from `crc` (the result for the preceding bytes) when given. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
