import { openLedger } from 'context-ledger';

const ledger = await openLedger(); // in memory; pass { storage } to keep it across restarts
await ledger.commit({
  epoch: 1,
  nodes: [
    {
      id: 'task:can',
      kind: 'task',
      status: 'open',
      authority: 'user',
      body: 'Fix the CRC check in the CAN frame parser',
    },
    { id: 'claim:crc', kind: 'claim', status: 'open', body: 'The CRC is computed over the wrong bytes' },
    {
      id: 'ev:parser',
      kind: 'evidence',
      authority: 'repo',
      path: 'src/can/parser.ts',
      revision: 'a1b2c3',
      range: [10, 12],
      body: 'export function crc(frame: Uint8Array) {\n  return crc8(frame.subarray(0, 8));\n}',
    },
  ],
  edges: [
    { from: 'task:can', to: 'claim:crc', kind: 'requires' },
    { from: 'claim:crc', to: 'ev:parser', kind: 'supported_by' },
  ],
});

// Before a model call: the smallest evidence-closed working set that fits the budget.
const ws = await ledger.materialize({ budget: { tokens: 2000 } });
console.log(ws.items.map((i) => i.id)); // [ 'task:can', 'claim:crc', 'ev:parser' ]
const messages = ws.toMessages('openai'); // or 'anthropic': hand these to the model
console.log(messages.length > 0, ws.tokens <= 2000); // true true

// Support for a claim, or what is missing.
const r = await ledger.retrieve({ claims: ['claim:crc'], text: 'crc over frame bytes' });
console.log(r.status, r.evidence[0]?.id); // supported ev:parser
await ledger.close();
