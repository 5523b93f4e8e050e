/**
 * Globals DuckDB-WASM's browser-blocking build expects and Cloudflare's workerd lacks. Install
 * them before that build is *evaluated* (not just before it is called): its bundled sha256 and
 * emscripten glue pick their environment when they load.
 */

/** The type descriptor `new WebAssembly.Function(type, fn)` takes (JS type reflection). */
interface FunctionType {
  parameters: readonly string[];
  results: readonly string[];
}

/** Emscripten's signature letters, as used for the export names of trampolines.wasm. */
const LETTER_BY_TYPE: Readonly<Record<string, string>> = {
  i32: 'i',
  i64: 'j',
  f32: 'f',
  f64: 'd',
  externref: 'e',
};

/** Marks the shims as installed on the global itself, so a second bundled copy is a no-op too. */
const INSTALLED = Symbol.for('context-ledger.workerd-shims');

function letter(type: string): string {
  const found = LETTER_BY_TYPE[type];
  if (found === undefined) throw new Error(`workerd shim: wasm value type "${type}" has no signature letter`);
  return found;
}

/** `{parameters: ['i32', 'f32'], results: []}` → `"vif"`. */
function signatureOf(type: FunctionType): string {
  return (type.results.length === 0 ? 'v' : type.results.map(letter).join('')) + type.parameters.map(letter).join('');
}

function defineGlobal(target: object, name: PropertyKey, value: unknown): void {
  Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
}

/**
 * Workers refuse to compile wasm from bytes at run time, yet emscripten's dynamic linking makes
 * wasm functions out of JS functions (for the indirect-call table) via `WebAssembly.Function`
 * or, without it, by compiling a tiny module from bytes. This stands in for
 * `WebAssembly.Function`, which emscripten prefers when present, by instantiating the
 * precompiled trampoline module with `fn` as the import of the requested signature and
 * returning that import re-exported: a genuine wasm function of the right type.
 */
function makeWasmFunction(
  trampolineModule: WebAssembly.Module,
): (type: FunctionType, fn: WebAssembly.ImportValue) => WebAssembly.ExportValue | undefined {
  const provided = new Set(WebAssembly.Module.exports(trampolineModule).map((e) => e.name));
  // Every import must be satisfied at instantiation; only the requested one is ever exported.
  const unused = (): never => {
    throw new Error('workerd shim: an unused trampoline import was called');
  };
  const placeholders: Record<string, WebAssembly.ImportValue> = Object.fromEntries(
    [...provided].map((sig) => [sig, unused]),
  );
  return function WebAssemblyFunction(type: FunctionType, fn: WebAssembly.ImportValue) {
    const sig = signatureOf(type);
    if (!provided.has(sig)) {
      throw new Error(
        `workerd shim: DuckDB needs a wasm function of signature "${sig}" ` +
          `(${type.parameters.join(', ') || 'no parameters'} -> ${type.results.join(', ') || 'void'}), ` +
          'which trampolines.wasm does not provide; re-run wasm/trampolines/list-signatures.mjs and build-module.mjs',
      );
    }
    const instance = new WebAssembly.Instance(trampolineModule, { e: { ...placeholders, [sig]: fn } });
    return instance.exports[sig];
  };
}

/**
 * Installs, where missing: `location` (emscripten reads `self.location.href` when it sees a
 * worker scope), `setImmediate`/`clearImmediate`, `process.type = 'renderer'` when
 * `nodejs_compat` provides a Node-looking `process` (otherwise emscripten and js-sha256 take
 * their Node paths and `require` modules that do not exist), and `WebAssembly.Function`.
 * Idempotent: later calls change nothing.
 */
export function installWorkerdShims(trampolineModule: WebAssembly.Module): void {
  const g = globalThis as Record<PropertyKey, unknown>;
  if (g[INSTALLED]) return;

  if (g.location === undefined) {
    // `.invalid` can never resolve, so a stray fetch relative to it fails instead of leaving.
    defineGlobal(g, 'location', new URL('https://context-ledger.invalid/'));
  }
  if (typeof g.setImmediate !== 'function') {
    defineGlobal(g, 'setImmediate', (fn: (...args: unknown[]) => void, ...args: unknown[]) =>
      setTimeout(() => fn(...args), 0),
    );
    defineGlobal(g, 'clearImmediate', (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle));
  }
  const proc = g.process as { versions?: { node?: unknown }; type?: unknown } | undefined;
  if (typeof proc === 'object' && proc !== null && typeof proc.versions?.node === 'string' && proc.type === undefined) {
    proc.type = 'renderer';
  }
  if (typeof (WebAssembly as unknown as Record<string, unknown>).Function !== 'function') {
    defineGlobal(WebAssembly, 'Function', makeWasmFunction(trampolineModule));
  }
  defineGlobal(g, INSTALLED, true);
}
