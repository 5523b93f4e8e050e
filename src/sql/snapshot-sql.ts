import { TABLE_ORDER_KEY, TABLES, type TableName } from '../schema/ddl.js';

/**
 * Every row of one table in its key order: a snapshot writes rows in this order, so equal
 * ledgers give equal bytes.
 */
export function tableRowsSql(table: TableName): string {
  return `SELECT * FROM ${table} ORDER BY ${TABLE_ORDER_KEY[table]}`;
}

/**
 * One row holding each table's row count as an INTEGER column named for the table: a restore
 * checks every table against its manifest in one query.
 */
export function tableCountsSql(tables: readonly TableName[] = TABLES): string {
  return `SELECT ${tables.map((t) => `(SELECT count(*) FROM ${t})::INTEGER AS ${t}`).join(', ')}`;
}
