import { afterAll, describe, expect, it } from 'vitest';
import { RMDX_SESSION } from '../../demo/traces/rmdx-can-session.js';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

const CRC_OLD = 'uint8_t crc = crc8(frame, 6); // CRC over bytes 0..5 of the CAN frame';
const CRC_NEW = 'uint8_t crc = crc8(frame, 7); // CRC over bytes 0..6 of the CAN frame, DLC included';

describe('temporal hybrid retrieval', () => {
  it('a changed file revision outranks and supersedes its older body', async () => {
    const l = await pool.ledger();
    await l.commit({
      epoch: 1,
      nodes: [
        {
          id: 'ev:crc@r1',
          kind: 'evidence',
          authority: 'repo',
          path: 'src/can/parser.c',
          revision: 'r1',
          range: [10, 20],
          body: CRC_OLD,
        },
      ],
    });
    await l.commit({
      epoch: 2,
      nodes: [
        { id: 'rev:r2', kind: 'artifact_revision', path: 'src/can/parser.c', revision: 'r2', changed: [[12, 12]] },
        {
          id: 'ev:crc@r2',
          kind: 'evidence',
          authority: 'repo',
          path: 'src/can/parser.c',
          revision: 'r2',
          range: [10, 20],
          body: CRC_NEW,
        },
      ],
    });
    const now = await l.retrieve({
      text: 'CRC over bytes of the CAN frame',
      artifacts: [{ path: 'src/can/parser.c', range: [10, 20] }],
    });
    expect(now.status).toBe('supported');
    expect(now.evidence[0]!.id).toBe('ev:crc@r2');
    expect(now.evidence.map((e) => e.id)).not.toContain('ev:crc@r1');
    expect(now.superseded).toBe(1);
    const before = await l.retrieve({
      epoch: 1,
      text: 'CRC over bytes of the CAN frame',
      artifacts: [{ path: 'src/can/parser.c', range: [10, 20] }],
    });
    expect(before.evidence[0]!.id).toBe('ev:crc@r1');
  });

  it('exact cited ranges outrank semantically similar but unrelated code', async () => {
    const l = await pool.ledger();
    const similar = 'def crc_over_frame_bytes(frame): return crc8(frame[0:7])  # crc over frame bytes';
    await l.commit({
      epoch: 1,
      nodes: [
        {
          id: 'ev:cited',
          kind: 'evidence',
          authority: 'repo',
          path: 'src/can/parser.ts',
          revision: 'd4e5f6',
          range: [10, 40],
          body: 'export function frameChecksum(f: Uint8Array) { return table[f[0]] ^ f[1]; }',
        },
        {
          id: 'ev:lookalike-1',
          kind: 'evidence',
          authority: 'repo',
          path: 'tools/sim/crc.py',
          revision: 'x1',
          range: [1, 3],
          body: similar,
        },
        {
          id: 'ev:lookalike-2',
          kind: 'evidence',
          authority: 'repo',
          path: 'tools/sim/crc2.py',
          revision: 'x1',
          range: [1, 3],
          body: `${similar} # copy`,
        },
      ],
    });
    const r = await l.retrieve({
      text: 'crc over frame bytes',
      artifacts: [{ path: 'src/can/parser.ts', revision: 'd4e5f6', range: [10, 40] }],
    });
    expect(r.status).toBe('supported');
    expect(r.evidence[0]!.id).toBe('ev:cited');
    expect(r.evidence[0]!.channels.exact).toBe(1);
    expect(r.evidence.slice(1).every((e) => e.score < r.evidence[0]!.score)).toBe(true);
    const cited = r.explanation.find((e) => e.id === 'ev:cited')!;
    expect(cited.contributions.exact).toBeGreaterThan(0);
    expect(cited.signals.some((x) => x.startsWith('exact: src/can/parser.ts:10-40'))).toBe(true);
  });

  it('a two-hop task → claim → evidence query returns all required support', async () => {
    const l = await pool.ledger();
    await l.commit({
      epoch: 1,
      nodes: [
        { id: 'task', kind: 'task', authority: 'user', body: 'Fix the CAN parser' },
        { id: 'claim:a', kind: 'claim', body: 'The CRC skips the DLC byte' },
        { id: 'claim:b', kind: 'claim', body: 'Replies come on 0x240 + id' },
        { id: 'ev:1', kind: 'evidence', authority: 'repo', path: 'parser.c', range: [1, 5], body: 'crc8(frame, 6)' },
        {
          id: 'ev:2',
          kind: 'evidence',
          authority: 'repo',
          path: 'spec.md',
          range: [9, 12],
          body: 'DLC is part of the checksum',
        },
        {
          id: 'ev:3',
          kind: 'evidence',
          authority: 'repo',
          path: 'spec.md',
          range: [40, 44],
          body: 'Reply identifier: 0x240 + ID',
        },
        {
          id: 'ev:noise',
          kind: 'evidence',
          authority: 'repo',
          path: 'README.md',
          range: [1, 2],
          body: 'A CAN library',
        },
      ],
      edges: [
        { from: 'task', to: 'claim:a', kind: 'requires' },
        { from: 'task', to: 'claim:b', kind: 'requires' },
        { from: 'claim:a', to: 'ev:1', kind: 'supported_by' },
        { from: 'claim:a', to: 'ev:2', kind: 'supported_by' },
        { from: 'claim:b', to: 'ev:3', kind: 'supported_by' },
      ],
    });
    const r = await l.retrieve({ task: 'task' });
    expect(r.status).toBe('supported');
    expect(r.evidence.map((e) => e.id)).toEqual(expect.arrayContaining(['ev:1', 'ev:2', 'ev:3']));
    expect(r.missing).toEqual([]);
  });

  it('missing support returns abstention naming what is missing, not fabricated results', async () => {
    const l = await pool.ledger();
    for (const tx of RMDX_SESSION) await l.commit(tx);
    const superseded = await l.retrieve({ artifacts: [{ path: 'rmdx/driver.py', range: [41, 70] }] });
    expect(superseded.status).toBe('abstain');
    expect(superseded.evidence).toEqual([]);
    expect(superseded.missing).toEqual([
      { path: 'rmdx/driver.py', range: [41, 70], reason: expect.stringMatching(/^only superseded evidence/) },
    ]);
    const unseen = await l.retrieve({ artifacts: [{ path: 'rmdx/cli.py', range: [1, 20] }] });
    expect(unseen.missing).toEqual([{ path: 'rmdx/cli.py', range: [1, 20], reason: 'no record of this path' }]);
    await l.commit({
      epoch: 12,
      nodes: [{ id: 'claim:bt', kind: 'claim', body: 'The servo can be flashed over Bluetooth' }],
    });
    const unsupported = await l.retrieve({ claims: ['claim:bt'] });
    expect(unsupported.status).toBe('abstain');
    expect(unsupported.missing).toEqual([
      { claim: 'claim:bt', reason: 'no valid supporting evidence within the authority scopes' },
    ]);
    const offTopic = await l.retrieve({ text: 'firmware update over bluetooth' });
    expect(offTopic.status).toBe('abstain');
    expect(offTopic.missing[0]!.reason).toMatch(/bluetooth/);
    expect(offTopic.evidence).toEqual([]);
  });

  it('surfaces contradictions among what it returns', async () => {
    const l = await pool.ledger();
    for (const tx of RMDX_SESSION) await l.commit(tx);
    const r = await l.retrieve({ text: 'speed dps per LSB scaling', supportThreshold: 0.3 });
    expect(r.contradictions).toContainEqual({ from: 'claim:speed-dps', to: 'claim:speed-tenths' });
  });

  it('rejects malformed queries with codes naming the field', async () => {
    const l = await pool.ledger();
    const err = async (q: unknown) => {
      try {
        await l.retrieve(q as never);
      } catch (e) {
        return `${(e as { code: string }).code} ${(e as { details: { field: string } }).details.field}`;
      }
      return 'ok';
    };
    expect(await err({ budget: { records: 0 } })).toBe('INVALID_REQUEST budget.records');
    expect(await err({ artifacts: [{ path: 'a', range: [5, 1] }] })).toBe('INVALID_RANGE artifacts[0].range');
    expect(await err({ claims: ['nope'] })).toBe('UNKNOWN_NODE claims[0]');
    expect(await err({ vector: [1, 2], text: 'x' })).toBe('INVALID_REQUEST vector');
    expect(await err({ supportThreshold: 2 })).toBe('INVALID_REQUEST supportThreshold');
  });
});
