import type { Table } from 'apache-arrow';
import type { Engine } from '../engine/engine.js';
import { KeptPlans } from '../engine/kept-plans.js';

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
 *
 * A kept plan pins DuckDB memory, so the plans of every connection of one DuckDB instance are
 * capped together (the engine's `plans`, see src/engine/kept-plans.ts): past the cap the least
 * recently used one is deallocated, never while a call is using it, and prepared again on its
 * next use.
 */
const lastTextOn = new WeakMap<Engine, Map<string, string>>();
/** Plans of engines that bring no instance-wide cap of their own (one cap per engine). */
const ownPlans = new WeakMap<Engine, KeptPlans>();

/** `PREPARE name AS text`. @internal Exported for its unit tests. */
export function prepareSql(name: string, text: string): string {
  return `PREPARE ${name} AS ${text}`;
}

/** `DEALLOCATE name`: frees the plan (no error when there is none). */
function deallocateSql(name: string): string {
  return `DEALLOCATE ${name}`;
}

/** `EXECUTE name`: the statement takes no parameters (they are literals in its text). @internal Exported for its unit tests. */
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
  let lastText = lastTextOn.get(engine);
  if (!lastText) {
    lastText = new Map();
    lastTextOn.set(engine, lastText);
  }
  const plans = plansOf(engine);
  if (lastText.get(name) !== text || plans.limit === 0) {
    lastText.set(name, text);
    return engine.query(text);
  }
  const owner = engine.wrapped ?? engine;
  const plan = plans.acquire(owner, name, () => {
    // An evicted plan's engine may have closed meanwhile; its plans went with its connection.
    owner.run(deallocateSql(name)).catch(() => undefined);
  });
  try {
    if (plan.text !== text) {
      await engine.run(prepareSql(name, text));
      plan.text = text;
    }
    return await engine.query(executeSql(name));
  } finally {
    plans.release(plan);
  }
}

function plansOf(engine: Engine): KeptPlans {
  if (engine.plans) return engine.plans;
  let plans = ownPlans.get(engine);
  if (!plans) {
    plans = new KeptPlans();
    ownPlans.set(engine, plans);
  }
  return plans;
}
