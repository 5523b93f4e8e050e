import type { TableName } from '../schema/ddl.js';
import { stringLiteral } from './literals.js';

/** One cell of a row for `insertVocabularySql`: its column's type and its value. */
export type VocabularyCell = readonly [type: 'int' | 'text', value: unknown];

const VOCABULARY = /^[a-z_-]{1,40}$/;

/** How a text cell becomes SQL: its literal, or null when it may not go into SQL this way. */
type TextCell = (v: string) => string | null;

/** `INSERT INTO <table> VALUES (…), …`: NULLs, safe integers in integer columns, text by `text`;
 * any other cell, or no rows, gives null. */
function insertValuesSql(
  table: TableName,
  rows: ReadonlyArray<ReadonlyArray<VocabularyCell>>,
  text: TextCell,
): string | null {
  if (rows.length === 0) return null;
  const tuples: string[] = [];
  for (const row of rows) {
    const cells: string[] = [];
    for (const [type, v] of row) {
      let cell: string | null = null;
      if (v === null || v === undefined) cell = 'NULL';
      else if (type === 'int' && typeof v === 'number' && Number.isSafeInteger(v)) cell = String(v);
      else if (type === 'text' && typeof v === 'string') cell = text(v);
      if (cell === null) return null;
      cells.push(cell);
    }
    tuples.push(`(${cells.join(', ')})`);
  }
  return `INSERT INTO ${table} VALUES ${tuples.join(', ')}`;
}

/**
 * `INSERT INTO <table> VALUES (…), …` for rows whose every cell is NULL, a safe integer in an
 * integer column, or a string of `[a-z_-]{1,40}` (the schema's own vocabulary) in a text column,
 * so no caller text can reach SQL this way. Anything else, or no rows, gives null: the caller
 * then inserts through Arrow.
 */
export function insertVocabularySql(
  table: TableName,
  rows: ReadonlyArray<ReadonlyArray<VocabularyCell>>,
): string | null {
  return insertValuesSql(table, rows, (v) => (VOCABULARY.test(v) ? `'${v}'` : null));
}

/** Text a literal may carry: no NUL (stringLiteral refuses it) and no UTF-16 surrogate, so the
 * SQL text's UTF-8 is exactly the bytes an Arrow stream would hold (a lone surrogate would be
 * encoded differently on the two paths). */
const SURROGATE = /[\uD800-\uDFFF]/;
const isPlainText = (v: string): boolean => !v.includes('\u0000') && !SURROGATE.test(v);

/**
 * `INSERT INTO <table> VALUES (…), …` for a few rows that may hold caller text: integers as in
 * insertVocabularySql, text quoted by stringLiteral (standard quoting; DuckDB treats backslashes
 * literally), so the text is data, never SQL. A text that is not plain (isPlainText), a cell of another
 * type, or no rows gives null: the caller then inserts through Arrow.
 */
export function insertTextSql(table: TableName, rows: ReadonlyArray<ReadonlyArray<VocabularyCell>>): string | null {
  return insertValuesSql(table, rows, (v) => (isPlainText(v) ? stringLiteral(v) : null));
}
