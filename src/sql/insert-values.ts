import type { TableName } from '../schema/ddl.js';

/** One cell of a row for `insertVocabularySql`: its column's type and its value. */
export type VocabularyCell = readonly [type: 'int' | 'text', value: unknown];

const VOCABULARY = /^[a-z_-]{1,40}$/;

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
  if (rows.length === 0) return null;
  const tuples: string[] = [];
  for (const row of rows) {
    const cells: string[] = [];
    for (const [type, v] of row) {
      if (v === null || v === undefined) cells.push('NULL');
      else if (type === 'int' && typeof v === 'number' && Number.isSafeInteger(v)) cells.push(String(v));
      else if (type === 'text' && typeof v === 'string' && VOCABULARY.test(v)) cells.push(`'${v}'`);
      else return null;
    }
    tuples.push(`(${cells.join(', ')})`);
  }
  return `INSERT INTO ${table} VALUES ${tuples.join(', ')}`;
}
