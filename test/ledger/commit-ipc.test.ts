import { tableFromIPC } from 'apache-arrow';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { COLUMNS, type Column } from '../../src/ledger/arrow-rows.js';
import { commitRowsIPC } from '../../src/ledger/commit/commit-ipc.js';
import { ENGINE_TABLES, type TableName } from '../../src/schema/ddl.js';
import { engineOf, LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

/** Rows of a table with random values: any int32 or null, any string (surrogates included) or null. */
const rowsOf = (table: TableName) =>
  fc.array(
    fc.tuple(
      ...(COLUMNS[table] as ReadonlyArray<Column<object>>).map(([, type]) =>
        type === 'int'
          ? fc.option(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { nil: null })
          : fc.option(
              fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ minLength: 40, maxLength: 300 })),
              {
                nil: null,
              },
            ),
      ),
    ),
    { maxLength: 40 },
  );

const objectOf = (table: TableName, cells: readonly unknown[]): Record<string, unknown> =>
  Object.fromEntries(COLUMNS[table].map(([name], i) => [name, cells[i]]));
/** What a string reads back as after UTF-8 (lone surrogates become U+FFFD). */
const utf8 = (s: string) => new TextDecoder().decode(new TextEncoder().encode(s));

describe('commitRowsIPC (the commit path Arrow writer)', () => {
  it('decodes, with apache-arrow, to exactly the rows it was given, for every table', () => {
    for (const table of ENGINE_TABLES) {
      fc.assert(
        fc.property(rowsOf(table), (cells) => {
          const rows = cells.map((c) => objectOf(table, c));
          const decoded = tableFromIPC(commitRowsIPC(table, rows));
          expect(decoded.numRows).toBe(rows.length);
          expect(decoded.schema.fields.map((f) => f.name)).toEqual(COLUMNS[table].map(([name]) => name));
          for (const [c, [name, type]] of COLUMNS[table].entries()) {
            const got = decoded.getChild(name)!.toArray() as ArrayLike<unknown>;
            const vector = decoded.getChild(name)!;
            for (let i = 0; i < rows.length; i++) {
              const want = cells[i]![c];
              if (want === null) expect(vector.isValid(i)).toBe(false);
              else expect(type === 'int' ? got[i] : vector.get(i)).toBe(type === 'int' ? want : utf8(want as string));
            }
          }
        }),
        { numRuns: 60 },
      );
    }
  });

  it('gives the same bytes for the same rows, whatever it wrote before (its buffer is reused)', () => {
    for (const table of ENGINE_TABLES) {
      fc.assert(
        fc.property(rowsOf(table), rowsOf(table), (cells, otherCells) => {
          const rows = cells.map((c) => objectOf(table, c));
          const first = commitRowsIPC(table, rows).slice();
          commitRowsIPC(
            table,
            otherCells.map((c) => objectOf(table, c)),
          );
          expect(commitRowsIPC(table, rows)).toEqual(first);
        }),
        { numRuns: 30 },
      );
    }
  });

  it('is ingested by the engine row for row, for every table', async () => {
    const ledger = await pool.ledger();
    const engine = engineOf(ledger);
    for (const table of ENGINE_TABLES) {
      const copy = `ipc_all_${table}`;
      await engine.run(`CREATE OR REPLACE TABLE ${copy} AS SELECT * FROM ${table} LIMIT 0`);
      await fc.assert(
        fc.asyncProperty(rowsOf(table), async (cells) => {
          fc.pre(cells.length > 0);
          await engine.run(`DELETE FROM ${copy}`);
          await engine.insertIPC(
            copy as TableName,
            commitRowsIPC(
              table,
              cells.map((c) => objectOf(table, c)),
            ),
          );
          const got = (await engine.query(`SELECT * FROM ${copy}`)).toArray().map((r) => ({ ...r.toJSON() }));
          const want = cells.map((c) =>
            objectOf(
              table,
              c.map((v) => (typeof v === 'string' ? utf8(v) : v)),
            ),
          );
          expect(got).toEqual(want);
        }),
        { numRuns: 6 },
      );
    }
  });

  it('is ingested by the engine row for row', async () => {
    const ledger = await pool.ledger();
    const engine = engineOf(ledger);
    await engine.run('CREATE OR REPLACE TABLE ipc_edges AS SELECT * FROM edges LIMIT 0');
    const rows = [
      { ekey: 1, src: 2, dst: 3, kind: 'depends_on', tx: 4, valid_from: 5, valid_to: null },
      { ekey: 6, src: -7, dst: 2 ** 31 - 1, kind: 'cites ✓', tx: 8, valid_from: 9, valid_to: 10 },
    ];
    await engine.insertIPC('ipc_edges' as TableName, commitRowsIPC('edges', rows));
    const t = await engine.query('SELECT * FROM ipc_edges ORDER BY ekey');
    expect(t.toArray().map((r) => ({ ...r.toJSON() }))).toEqual(rows);
  });
});
