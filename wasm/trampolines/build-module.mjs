#!/usr/bin/env node
// Writes trampolines.wasm from signatures.json: for each signature, one imported function
// (module "e", field = the signature) re-exported under the same name. Instantiating the module
// with a JS function as that import yields a real wasm function of that type, which is what
// emscripten needs for its indirect-call table and what Workers will not let it compile from
// bytes at run time. The module has no code, so a few dozen bytes per signature suffice and no
// wasm toolchain is needed.
//
//   node wasm/trampolines/build-module.mjs           writes trampolines.wasm next to this file
//   node wasm/trampolines/build-module.mjs --check   exits 1 if trampolines.wasm is stale
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

const VALTYPE_BY_LETTER = { i: 0x7f, j: 0x7e, f: 0x7d, d: 0x7c, e: 0x6f };

function uleb128(value) {
  const out = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

const utf8 = (text) => {
  const bytes = [...new TextEncoder().encode(text)];
  return [...uleb128(bytes.length), ...bytes];
};

/** A section is its id, its byte length, then a vector of entries. */
const section = (id, entries) => {
  const body = [...uleb128(entries.length), ...entries.flat()];
  return [id, ...uleb128(body.length), ...body];
};

function valtype(letter, signature) {
  const code = VALTYPE_BY_LETTER[letter];
  if (code === undefined) throw new Error(`signature "${signature}" has an unknown type letter "${letter}"`);
  return code;
}

function encodeTrampolineModule(signatures) {
  const types = signatures.map((sig) => {
    const params = [...sig.slice(1)].map((l) => valtype(l, sig));
    const results = sig[0] === 'v' ? [] : [valtype(sig[0], sig)];
    return [0x60, ...uleb128(params.length), ...params, ...uleb128(results.length), ...results];
  });
  const imports = signatures.map((sig, i) => [...utf8('e'), ...utf8(sig), 0x00, ...uleb128(i)]);
  const exports = signatures.map((sig, i) => [...utf8(sig), 0x00, ...uleb128(i)]);
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, types),
    ...section(2, imports),
    ...section(7, exports),
  ]);
}

const { signatures } = JSON.parse(readFileSync(join(here, 'signatures.json'), 'utf8'));
const bytes = encodeTrampolineModule(signatures);
// Compiling here proves the encoding is valid before anything ships it.
const exported = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);
if (exported.join() !== signatures.join()) throw new Error('the encoded module does not export every signature');

const target = join(here, 'trampolines.wasm');
if (process.argv.includes('--check')) {
  const current = readFileSync(target);
  if (!current.equals(Buffer.from(bytes))) {
    console.error('trampolines.wasm is stale: run node wasm/trampolines/build-module.mjs');
    process.exit(1);
  }
} else {
  writeFileSync(target, bytes);
  console.log(`wrote trampolines.wasm (${bytes.length} bytes, ${signatures.length} signatures)`);
}
