// wrangler's CompiledWasm rule turns a `.wasm` import into a compiled WebAssembly.Module.
declare module '*.wasm' {
  const compiled: WebAssembly.Module;
  export default compiled;
}
