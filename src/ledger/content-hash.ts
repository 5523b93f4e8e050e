/**
 * Content address of a body: SHA-256 of its UTF-8 bytes, lower-case hex. WebCrypto is present in
 * Node ≥ 20, Workers and browsers alike, so every runtime derives the same address.
 */
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
