/** Node's Buffer#write encodes into a buffer and returns the byte count; TextEncoder#encodeInto
 * returns a fresh `{ read, written }` object per call, garbage that the commit path's scans
 * (token counting, term indexing: one call per body each) turned into scavenges while the
 * commit's rows were still alive. */
type NodeBufferLike = Uint8Array & { write(s: string, offset: number): number };
const NodeBuffer = (globalThis as { Buffer?: { allocUnsafe(n: number): NodeBufferLike } }).Buffer;
const encoder = new TextEncoder();

/**
 * A reusable buffer holding the UTF-8 of the last text encoded (3 bytes per UTF-16 unit at
 * most, so it is sized to that, plus one byte a scanner may write after the text). The bytes
 * are valid until the next `encode`; each synchronous scanner owns one.
 */
export class Utf8Scratch {
  bytes: Uint8Array = allocate(1 << 14);

  /** Encodes `text` into `bytes` and returns its length in bytes. */
  encode(text: string): number {
    if (this.bytes.length <= text.length * 3)
      this.bytes = allocate(Math.max(text.length * 3 + 1, this.bytes.length * 2));
    const b = this.bytes;
    return NodeBuffer ? (b as NodeBufferLike).write(text, 0) : encoder.encodeInto(text, b).written;
  }
}

const allocate = (n: number): Uint8Array => (NodeBuffer ? NodeBuffer.allocUnsafe(n) : new Uint8Array(n));
