import type { EngineTable } from '../../schema/ddl.js';
import { insertTextSql, insertVocabularySql, type VocabularyCell } from '../../sql/insert-values.js';
import { COLUMNS, type Column } from '../arrow-rows.js';

/**
 * A few rows of a table whose text columns hold only the schema's own vocabulary (edge kinds,
 * closure targets and reasons) go into the SQL batch that opens the engine
 * transaction: an Arrow IPC insert costs a round trip and a fixed share of DuckDB planning,
 * while a VALUES statement in the batch costs less up front but more per row, so past
 * MAX_LITERAL_ROWS rows Arrow is cheaper (docs/benchmarks/profiles.md, "Step commit").
 *
 * Only integers and strings of `[a-z_-]` are ever written as literals, so no caller text can reach
 * SQL this way; anything else returns null and the caller uses Arrow.
 */
const LITERAL_TABLES: ReadonlySet<EngineTable> = new Set(['edges', 'closures']);
const MAX_LITERAL_ROWS = 4;

export function literalInsertSql(table: EngineTable, rows: ReadonlyArray<object>): string | null {
  if (!LITERAL_TABLES.has(table) || rows.length === 0 || rows.length > MAX_LITERAL_ROWS) return null;
  return insertVocabularySql(table, cellsOf(table, rows));
}

/** Each row's cells in the table's column order, with their column types. */
function cellsOf(table: EngineTable, rows: ReadonlyArray<object>): VocabularyCell[][] {
  const columns = COLUMNS[table] as ReadonlyArray<Column<object>>;
  return rows.map((row) => columns.map(([, type, get]): VocabularyCell => [type, get(row)]));
}

/**
 * A small write's bodies and node versions (≤ MAX_LITERAL_ROWS rows whose texts total at most
 * MAX_LITERAL_CHARS, e.g. an agent step of 2 nodes) as an INSERT with their caller text quoted by
 * stringLiteral (insertTextSql), the same quoting the retrieval statements give caller paths. With
 * every table of a write in its SQL batch the write is one round trip (engine-writes.ts), where
 * each Arrow stream is one more plus ~0.7 ms of planning. Larger rows, other tables, or a text
 * with NUL or a surrogate give null: the caller uses Arrow.
 */
const TEXT_TABLES: ReadonlySet<EngineTable> = new Set(['bodies', 'nodes']);
/** Past this many characters, parsing the literals costs more than an Arrow stream. */
const MAX_LITERAL_CHARS = 4096;

export function smallTextInsertSql(table: EngineTable, rows: ReadonlyArray<object>): string | null {
  if (!TEXT_TABLES.has(table) || rows.length === 0 || rows.length > MAX_LITERAL_ROWS) return null;
  const cells = cellsOf(table, rows);
  let chars = 0;
  for (const row of cells) for (const [, v] of row) if (typeof v === 'string') chars += v.length;
  return chars <= MAX_LITERAL_CHARS ? insertTextSql(table, cells) : null;
}
