import { openLedger } from 'context-ledger';

const ledger = await openLedger(); // in memory; { snapshot } restores, { encoding: 'cl100k_base' } switches tokenizer
const receipt = await ledger.commit({
  epoch: 3,
  nodes: [
    { id: 'task:can', kind: 'task', status: 'open', authority: 'user', body: 'Fix the CAN frame parser' },
    {
      id: 'claim:crc',
      kind: 'claim',
      status: 'open',
      authority: 'agent',
      body: 'The CRC is computed over the wrong bytes',
    },
    {
      id: 'ev:parser',
      kind: 'evidence',
      authority: 'repo',
      path: 'src/can/parser.ts',
      revision: 'a1b2c3',
      range: [10, 40],
      body: 'export function crc(frame: Uint8Array) { /* lines 10-40 */ }',
    },
  ],
  edges: [
    { from: 'task:can', to: 'claim:crc', kind: 'requires' },
    { from: 'claim:crc', to: 'ev:parser', kind: 'supported_by' },
  ],
});
console.log(receipt.tx); // 1

// A new revision of the file supersedes the evidence cut from the old one.
await ledger.commit({
  epoch: 4,
  nodes: [{ id: 'rev:2', kind: 'artifact_revision', path: 'src/can/parser.ts', revision: 'd4e5f6' }],
});
const then = await ledger.asOf(3);
const now = await ledger.asOf(4);
console.log(then.nodes.map((n) => n.id)); // [ 'task:can', 'claim:crc', 'ev:parser' ]
console.log(now.nodes.map((n) => n.id)); // [ 'task:can', 'claim:crc', 'rev:2' ]

const bytes = await ledger.snapshot(); // Arrow IPC streams + manifest; runtime-neutral
const copy = await openLedger({ snapshot: bytes });
console.log(JSON.stringify(await copy.asOf(3)) === JSON.stringify(then)); // true
await Promise.all([ledger.close(), copy.close()]);
