// `.wasm` imports as Workers bundlers give them: wrangler's default module rules compile each
// imported `.wasm` file at upload (CompiledWasm) and hand the Worker a WebAssembly.Module.
// Add it to a Worker project with `/// <reference types="context-ledger/wasm-modules" />` or
// `"types": ["context-ledger/wasm-modules"]` when the Worker imports `.wasm` files itself (only
// needed for openLedger's explicit-module options; the zero-config entry imports its own).
declare module '*.wasm' {
  const compiled: WebAssembly.Module;
  export default compiled;
}
