import { ENGINE_TABLES, type EngineTable, TABLE_ORDER_KEY } from '../schema/ddl.js';

/**
 * Every row of one table in its key order: a snapshot writes rows in this order, so equal
 * ledgers give equal bytes.
 */
export function tableRowsSql(table: EngineTable): string {
  return `SELECT * FROM ${table} ORDER BY ${TABLE_ORDER_KEY[table]}`;
}

/**
 * One row holding each engine table's row count as an INTEGER column named for the table: a restore
 * checks every table against its manifest in one query.
 */
export function tableCountsSql(tables: readonly EngineTable[] = ENGINE_TABLES): string {
  return `SELECT ${tables.map((t) => `(SELECT count(*) FROM ${t})::INTEGER AS ${t}`).join(', ')}`;
}
