import type { Table } from 'apache-arrow';
import type { Engine } from '../engine/engine.js';

/**
 * Statements planned once and executed many times, per engine, by name.
 *
 * DuckDB re-plans a prepared statement on every EXECUTE that passes parameters (it optimises with
 * the values: measured, EXECUTE with parameters cost as much CPU as the statement sent as text,
 * and planning the working-set statement is ~30% of its run). So the parameters are written into
 * the text as literals and the text itself is prepared: EXECUTE without parameters runs the plan
 * as it is. Such a plan is only right while it depends on no data, which the engine guarantees by
 * running with the statistics-based optimisers off (PLAN_SETTINGS in src/engine/settings.ts);
 * with them on, a plan kept across inserts returned stale rows.
 *
 * A text is prepared the second time it is asked for in a row under its name: the working set of
 * the last epoch with the default request is one text, called again and again, while an `asOf`
 * at each new epoch or a materialize with explicit roots is a new text each time and runs as it
 * is (preparing it would cost a round trip and save nothing).
 */
const preparedOn = new WeakMap<Engine, Map<string, { text: string; prepared: boolean }>>();

/** `PREPARE name AS text`. */
export function prepareSql(name: string, text: string): string {
  return `PREPARE ${name} AS ${text}`;
}

/** `EXECUTE name`: the statement takes no parameters (they are literals in its text). */
export function executeSql(name: string): string {
  return `EXECUTE ${name}`;
}

/**
 * A statement with its parameters written in as literals (`$name::T` → `(literal)::T`).
 * Generated statements hold no user text outside parameters, so `$` only ever opens a parameter;
 * the literals come from the builders of src/sql/literals.ts.
 */
export function inlineParams(sql: string, params: Readonly<Record<string, string>>): string {
  return sql.replace(/\$([a-z_]+)/g, (_, name: string) => {
    const literal = params[name];
    if (literal === undefined) throw new Error(`no value for $${name}`);
    return `(${literal})`;
  });
}

/**
 * Runs `body` with `params` written in (see inlineParams) as the statement `name`: as text the
 * first time a text is seen, prepared the second time in a row, executed by name after that. A
 * failed PREPARE is not remembered, so the next call tries again.
 */
export async function queryPrepared(
  engine: Engine,
  name: string,
  body: string,
  params: Readonly<Record<string, string>>,
): Promise<Table> {
  const text = inlineParams(body, params);
  let statements = preparedOn.get(engine);
  if (!statements) {
    statements = new Map();
    preparedOn.set(engine, statements);
  }
  const last = statements.get(name);
  if (last?.text !== text) {
    statements.set(name, { text, prepared: false });
    return engine.query(text);
  }
  if (!last.prepared) {
    await engine.run(prepareSql(name, text));
    last.prepared = true;
  }
  return engine.query(executeSql(name));
}
