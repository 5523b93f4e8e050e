/** Hashes many texts at once: SHA-256 of each text's UTF-8 bytes, lower-case hex. */
export type HashTexts = (texts: readonly string[]) => Promise<string[]>;

/**
 * WebCrypto is present in Node ≥ 20, Workers and browsers alike, so every runtime derives the same
 * addresses. (Node's entry swaps in node:crypto's synchronous hash: ~15× faster per small body
 * than a subtle.digest promise.)
 */
export const webCryptoHashTexts: HashTexts = (texts) => Promise.all(texts.map(contentHash));

export async function contentHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(text));
  return toHex(new Uint8Array(digest));
}

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += HEX[b];
  return out;
}
