import type { Table } from 'apache-arrow';
import type { Engine } from '../engine/engine.js';

/**
 * Statements prepared on each engine's connection, by name, with the text each was prepared
 * from. Planning the working-set statement measured about as long as running it (its optimiser
 * walks a dozen CTEs), and DuckDB keeps a prepared plan across inserts, rebinding by itself only
 * when the catalog changes.
 */
const preparedOn = new WeakMap<Engine, Map<string, string>>();

/** `EXECUTE name(p := literal, ...)`: the parameters as SQL literals, by name. */
export function executeSql(name: string, params: Readonly<Record<string, string>>): string {
  return `EXECUTE ${name}(${Object.entries(params)
    .map(([k, v]) => `${k} := ${v}`)
    .join(', ')})`;
}

/**
 * Runs `body` as the prepared statement `name` with `params`, preparing it on this engine the
 * first time (or again if a different body was prepared under the name). A failed PREPARE is
 * not remembered, so the next call tries again.
 */
export async function queryPrepared(
  engine: Engine,
  name: string,
  body: string,
  params: Readonly<Record<string, string>>,
): Promise<Table> {
  let prepared = preparedOn.get(engine);
  if (!prepared) {
    prepared = new Map();
    preparedOn.set(engine, prepared);
  }
  if (prepared.get(name) !== body) {
    prepared.delete(name);
    await engine.run(`PREPARE ${name} AS ${body}`);
    prepared.set(name, body);
  }
  return engine.query(executeSql(name, params));
}
