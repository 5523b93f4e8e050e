import { COSINE_KERNEL_BASE64 } from './cosine-kernel-bytes.js';

/** The exports of wasm/vector-kernel/cosine-top.wat, instantiated over one memory. */
export interface CosineKernel {
  scores_f32(q: number, qNorm: number, rows: number, groups: number, d: number, out: number): void;
  dots_i8(q: number, rows: number, count: number, width: number, out: number): void;
}

let compiled: WebAssembly.Module | null | undefined;

/**
 * The SIMD kernel compiled from its bytes, or null where this runtime cannot run it: no wasm
 * SIMD (`WebAssembly.validate` on the kernel, itself a ~600-byte SIMD module, is the feature
 * test) or no compiling from bytes at all (Workers, which pass the module their bundle compiled).
 * Decided once per process.
 */
export function bundledCosineKernel(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  compiled = null;
  try {
    const bytes = Uint8Array.from(atob(COSINE_KERNEL_BASE64), (c) => c.charCodeAt(0));
    if (WebAssembly.validate(bytes)) compiled = new WebAssembly.Module(bytes);
  } catch {
    // Compiling from bytes is forbidden here: the JS scan serves.
  }
  return compiled;
}

/** The kernel's exports over `memory`. */
export function instantiateCosineKernel(module: WebAssembly.Module, memory: WebAssembly.Memory): CosineKernel {
  return new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as CosineKernel;
}
