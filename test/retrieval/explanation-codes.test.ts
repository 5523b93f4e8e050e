import { describe, expect, it } from 'vitest';
import { openLedger } from '../../src/entries/node.js';

describe("retrieval's explanation: included, reason and a code, as the working set's", () => {
  it('says selected, budget and duplicate-body with the words and the code', async () => {
    const ledger = await openLedger();
    try {
      await ledger.commit({
        epoch: 1,
        nodes: [
          { id: 'm:1', kind: 'message', authority: 'user', body: 'The CRC covers the frame bytes' },
          { id: 'm:2', kind: 'message', authority: 'user', body: 'The CRC covers the frame bytes' },
          { id: 'm:3', kind: 'message', authority: 'user', body: 'A CRC over frame bytes and the header' },
        ],
      });
      const r = await ledger.retrieve({ text: 'crc frame bytes', budget: { records: 1 } });
      const byId = new Map(r.explanation.map((e) => [e.id, e]));
      const chosen = r.explanation.filter((e) => e.included);
      expect(chosen).toHaveLength(1);
      expect(chosen[0]).toMatchObject({ code: 'selected' });
      expect(chosen[0]!.reason).toBe(chosen[0]!.signals.join('; '));
      const twin = chosen[0]!.id === 'm:1' ? 'm:2' : 'm:1';
      expect(byId.get(twin)).toMatchObject({
        included: false,
        code: 'duplicate-body',
        reason: `duplicate body of ${chosen[0]!.id}`,
      });
      expect(byId.get('m:3')).toMatchObject({ included: false, code: 'budget', reason: 'budget' });
      for (const e of r.explanation) expect(Object.keys(e)).not.toContain('kept');
    } finally {
      await ledger.close();
    }
  });
});
