/** Hashes many texts at once: SHA-256 of each text's UTF-8 bytes, lower-case hex. */
export type HashTexts = (texts: readonly string[]) => Promise<string[]>;

/**
 * WebCrypto is present in Node ≥ 20, Workers and browsers alike, so every runtime derives the same
 * addresses. (Node's entry swaps in node:crypto's synchronous hash: ~15× faster per small body
 * than a subtle.digest promise.)
 */
export const webCryptoHashTexts: HashTexts = (texts) => Promise.all(texts.map(contentHash));

async function contentHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(text));
  return toHex(new Uint8Array(digest));
}

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += HEX[b];
  return out;
}

type NodeHash = { createHash(algorithm: 'sha256'): { update(data: Uint8Array): { digest(): Uint8Array } } };
/** node:crypto when the runtime exposes builtins without an import (Node ≥ 20.16; a static import
 * would break browser bundles). */
const nodeCrypto = ((): NodeHash | undefined => {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = proc?.getBuiltinModule?.('node:crypto') as Partial<NodeHash> | undefined;
    return typeof mod?.createHash === 'function' ? (mod as NodeHash) : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * SHA-256 of a byte range. Snapshots checksum all their bytes (84 MB at 100k nodes), and Node's
 * subtle.digest copies its input first, several times slower than node:crypto's hash. Both give
 * the same digest, so snapshots stay identical across runtimes.
 */
export async function sha256Bytes(bytes: Uint8Array): Promise<Uint8Array> {
  if (nodeCrypto) return new Uint8Array(nodeCrypto.createHash('sha256').update(bytes).digest());
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}
