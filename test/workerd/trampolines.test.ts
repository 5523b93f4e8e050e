import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { installWorkerdShims } from '../../src/runtime/workerd-shims.js';

const run = promisify(execFile);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const LIST_SIGNATURES = here('../../wasm/trampolines/list-signatures.mjs');
const BUILD_MODULE = here('../../wasm/trampolines/build-module.mjs');
const SCRIPT_TIMEOUT_MS = 60_000;

interface SignatureList {
  duckdbWasm: string;
  signatures: string[];
}

const committed = async (): Promise<SignatureList> =>
  JSON.parse(await readFile(here('../../wasm/trampolines/signatures.json'), 'utf8')) as SignatureList;

describe('trampoline signatures', () => {
  it(
    'cover every signature a fresh run of DuckDB compiles from bytes',
    async () => {
      // A child process: the recorder wraps the WebAssembly globals, which must not leak here.
      const { stdout } = await run(process.execPath, [LIST_SIGNATURES, '--stdout'], { timeout: SCRIPT_TIMEOUT_MS });
      const fresh = JSON.parse(stdout) as SignatureList;
      const recorded = await committed();
      const missing = fresh.signatures.filter((sig) => !recorded.signatures.includes(sig));
      expect(missing, 'signatures DuckDB needs that signatures.json lacks: re-run list-signatures.mjs').toEqual([]);
      expect(fresh.signatures.length).toBeGreaterThan(0);
      // A new duckdb-wasm release means recording again, even if this run happens to pass.
      expect(recorded.duckdbWasm).toBe(fresh.duckdbWasm);
    },
    SCRIPT_TIMEOUT_MS,
  );

  it(
    'are exactly what trampolines.wasm exports',
    async () => {
      await run(process.execPath, [BUILD_MODULE, '--check'], { timeout: SCRIPT_TIMEOUT_MS });
      const module = new WebAssembly.Module(await readFile(here('../../wasm/trampolines/trampolines.wasm')));
      const exported = WebAssembly.Module.exports(module).map((e) => e.name);
      expect(exported).toEqual((await committed()).signatures);
    },
    SCRIPT_TIMEOUT_MS,
  );
});

describe('installWorkerdShims', () => {
  // Node 20, like workerd, has no WebAssembly.Function, so the polyfill is what gets installed.
  const WasmFunction = () =>
    (WebAssembly as unknown as { Function: new (type: object, fn: unknown) => WebAssembly.ExportValue }).Function;

  it('turns a JS function into a wasm function that an indirect-call table accepts', async () => {
    const trampolines = new WebAssembly.Module(await readFile(here('../../wasm/trampolines/trampolines.wasm')));
    installWorkerdShims(trampolines);
    const WasmFn = WasmFunction();
    const fn = new WasmFn(
      { parameters: ['i32', 'i32', 'i32'], results: ['i32'] },
      (a: number, b: number, c: number) => a * b + c,
    );
    const table = new WebAssembly.Table({ initial: 1, element: 'anyfunc' });
    table.set(0, fn as (...args: number[]) => number);
    expect((table.get(0) as (a: number, b: number, c: number) => number)(6, 7, 0)).toBe(42);

    expect(typeof setImmediate).toBe('function');
    expect((globalThis as { location?: { href: string } }).location?.href).toBe('https://context-ledger.invalid/');
    // Node looks like Node to emscripten unless it says it is a renderer, as under nodejs_compat.
    expect((process as unknown as { type?: string }).type).toBe('renderer');

    // A second install is a no-op: the same polyfill stays.
    installWorkerdShims(trampolines);
    expect(WasmFunction()).toBe(WasmFn);
  });

  it('names the signature when the trampoline module lacks it', () => {
    const WasmFn = WasmFunction();
    expect(() => new WasmFn({ parameters: ['f64', 'i64', 'f32'], results: ['i64'] }, () => 0n)).toThrow(
      /signature "jdjf" \(f64, i64, f32 -> i64\)/,
    );
  });
});
