import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { COSINE_KERNEL_BASE64 } from '../../src/retrieval/cosine-kernel-bytes.js';

const run = promisify(execFile);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const BUILD_MODULE = here('../../wasm/vector-kernel/build-module.mjs');
const WASM = here('../../wasm/vector-kernel/cosine-top.wasm');

describe('the vector kernel build', () => {
  it('rebuilds cosine-top.wasm and its bundled bytes byte for byte from cosine-top.wat', async () => {
    await run(process.execPath, [BUILD_MODULE, '--check'], { timeout: 60_000 });
    const bytes = await readFile(WASM);
    expect(Buffer.from(COSINE_KERNEL_BASE64, 'base64').equals(bytes)).toBe(true);
  }, 60_000);

  it('is a SIMD module: a runtime without wasm SIMD rejects it and takes the JS scan', async () => {
    const bytes = await readFile(WASM);
    expect(WebAssembly.validate(bytes)).toBe(true);
    const simdOpcode = 0xfd;
    expect(bytes.includes(simdOpcode)).toBe(true);
  });
});
