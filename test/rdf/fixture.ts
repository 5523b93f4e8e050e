import type { Ledger } from '../../src/ledger/ledger.js';

/** A small ledger with every PROV mapping in it, a stale evidence range, and one record in another scope. */
export async function commitFixture(ledger: Ledger): Promise<void> {
  await ledger.commit({
    epoch: 1,
    nodes: [
      { id: 'task:can', kind: 'task', body: 'Fix the CAN speed decoding' },
      { id: 'claim:speed', kind: 'claim', body: 'Speed is a signed int16' },
      { id: 'claim:reply', kind: 'claim', body: 'Replies use id 0x240 + motor id' },
      { id: 'claim:web', kind: 'claim', authority: 'tool:web', body: 'SECRET-WEB forum says speed is unsigned' },
      {
        id: 'rev:a1',
        kind: 'artifact_revision',
        path: 'src/can.c',
        revision: 'a1',
        body: 'int speed = (b[5] << 8) | b[4];',
      },
      { id: 'ev:a1:1-10', kind: 'evidence', path: 'src/can.c', revision: 'a1', range: [1, 10], body: 'decode' },
      { id: 'ev:doc', kind: 'evidence', path: 'docs/protocol.md', revision: 'd1', range: [3, 9], body: '0x240' },
    ],
    edges: [
      { from: 'task:can', to: 'claim:speed', kind: 'requires' },
      { from: 'task:can', to: 'claim:reply', kind: 'requires' },
      { from: 'claim:speed', to: 'ev:a1:1-10', kind: 'supported_by' },
      { from: 'claim:reply', to: 'ev:doc', kind: 'supported_by' },
      { from: 'claim:web', to: 'ev:doc', kind: 'supported_by' },
      { from: 'claim:web', to: 'claim:speed', kind: 'contradicts' },
    ],
  });
  await ledger.commit({
    epoch: 2,
    nodes: [
      { id: 'act:1', kind: 'action', body: 'Cast the speed to int16_t' },
      { id: 'call:1', kind: 'tool_call', tool: 'edit', body: 'edit src/can.c' },
      { id: 'res:1', kind: 'tool_result', body: 'ok' },
      { id: 'rev:a2', kind: 'artifact_revision', path: 'src/can.c', revision: 'a2', body: 'int16_t speed = …;' },
    ],
    edges: [
      { from: 'act:1', to: 'call:1', kind: 'invokes' },
      { from: 'call:1', to: 'res:1', kind: 'produces' },
      { from: 'call:1', to: 'rev:a2', kind: 'mutates' },
      { from: 'act:1', to: 'claim:speed', kind: 'cites' },
    ],
  });
  await ledger.commit({
    epoch: 3,
    nodes: [{ id: 'ver:1', kind: 'verifier_outcome', verifier: 'pytest', status: 'failed', body: '1 failed' }],
    edges: [{ from: 'rev:a2', to: 'ver:1', kind: 'verified_by' }],
  });
}
