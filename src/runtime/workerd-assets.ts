import { LedgerError } from '../errors.js';

/** @internal The precompiled wasm the Workers engine runs (wrangler `CompiledWasm` imports). */
export interface WorkerdWasmModules {
  /** `@duckdb/duckdb-wasm/dist/duckdb-eh.wasm`. */
  duckdbModule: WebAssembly.Module;
  /** `context-ledger/wasm/trampolines.wasm`: stands in for `WebAssembly.Function`, which workerd lacks. */
  trampolineModule: WebAssembly.Module;
  /** `tiktoken/lite/tiktoken_bg.wasm`. */
  tiktokenModule: WebAssembly.Module;
}

type Field = keyof WorkerdWasmModules;

/** The `assets` field each module is handed over as. */
const OPTION: Readonly<Record<Field, string>> = {
  duckdbModule: 'assets.duckdbWasm',
  trampolineModule: 'assets.trampolines',
  tiktokenModule: 'assets.tiktokenWasm',
};

const ASSET: Readonly<Record<Field, string>> = {
  duckdbModule: '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm',
  trampolineModule: 'context-ledger/wasm/trampolines.wasm',
  tiktokenModule: 'tiktoken/lite/tiktoken_bg.wasm',
};

/**
 * Why a module is not the expected wasm, or null when it fits. Decided from import and export
 * lists only, never by instantiating: a wrong module fails deep inside emscripten or leaves its
 * start-up pending forever, and the trampoline shim is installed once per isolate, so a wrong one
 * would break every later open. DuckDB's *export* list is never read: with 75k entries it costs
 * ~0.5 s, while its 405 imports cost under a millisecond and identify it as well.
 */
const MISMATCH: Readonly<Record<Field, (module: WebAssembly.Module) => string | null>> = {
  duckdbModule(module) {
    const imports = WebAssembly.Module.imports(module);
    if (!imports.some((i) => i.module === 'env' && i.name === 'duckdb_web_fs_file_read' && i.kind === 'function'))
      return "it does not import DuckDB-WASM's file-system callbacks";
    // Wasm exception tags (kind 'tag', absent from TypeScript's ImportExportKind) mark the eh build.
    if (!imports.some((i) => (i.kind as string) === 'tag'))
      return 'it is a DuckDB-WASM build without wasm exceptions (e.g. duckdb-mvp.wasm); the Workers engine runs duckdb-eh.wasm';
    return null;
  },
  trampolineModule(module) {
    const imports = WebAssembly.Module.imports(module);
    if (imports.length === 0 || !imports.every((i) => i.module === 'e' && i.kind === 'function'))
      return 'its imports are not the trampoline functions of module "e"';
    const imported = imports.map((i) => i.name).join(',');
    const exported = WebAssembly.Module.exports(module)
      .map((e) => e.name)
      .join(',');
    return exported === imported ? null : 'it does not re-export each imported trampoline';
  },
  tiktokenModule(module) {
    const imports = WebAssembly.Module.imports(module);
    if (imports.length === 0 || !imports.every((i) => i.module === './tiktoken_bg.js'))
      return "its imports are not tiktoken's wasm-bindgen glue";
    const exported = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
    return exported.has('tiktoken_new') && exported.has('tiktoken_encode_ordinary')
      ? null
      : 'it lacks the encoder functions of the lite build';
  },
};

/** ASSET_UNAVAILABLE naming the first option that is missing, not a module, or the wrong wasm. */
export function checkWorkerdModules(modules: Partial<Record<Field, unknown>>): void {
  for (const field of Object.keys(ASSET) as Field[]) {
    const module = modules[field];
    const reason =
      module instanceof WebAssembly.Module
        ? MISMATCH[field](module)
        : `expected a WebAssembly.Module (the bundler's compiled import of the .wasm), got ${kindOf(module)}`;
    if (reason !== null)
      throw new LedgerError('ASSET_UNAVAILABLE', { field: OPTION[field], asset: ASSET[field], reason });
  }
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object') return typeof value;
  return value.constructor?.name ?? 'an object';
}
