/**
 * One DuckDB-WASM database for a whole evaluation run: instantiating one costs ~2 s, more than
 * replaying a typical trajectory, so each trajectory gets a fresh ledger on the same database
 * after its tables are dropped. Ledgers are used one at a time; closing one leaves the engine open.
 */
import { createHash } from 'node:crypto';
import type { Engine } from '../../src/engine/engine.js';
import { openNodeEngine } from '../../src/engine/open-node.js';
import { createLedger, type Ledger } from '../../src/ledger/ledger.js';
import { TABLES } from '../../src/schema/ddl.js';
import { createNodeTokenCounter } from '../../src/tokenizer/tiktoken-node.js';
import type { TokenCounter } from '../../src/tokenizer/token-counter.js';

const nodeHashTexts = async (texts: readonly string[]): Promise<string[]> =>
  texts.map((t) => createHash('sha256').update(t, 'utf8').digest('hex'));

export class LedgerPool {
  private engine: Promise<Engine> | null = null;
  private counter: Promise<TokenCounter> | null = null;
  /** The engine object the previous ledger was given: its kept plans name statements on the same
   * connection as the next ledger's, so evicting one later would free the next ledger's plan. */
  private previous: Engine | null = null;

  /** An empty ledger (o200k_base) on the shared database; the previous one must be done. */
  async fresh(): Promise<Ledger> {
    this.engine ??= openNodeEngine();
    this.counter ??= createNodeTokenCounter('o200k_base');
    const engine = await this.engine;
    for (const t of TABLES) await engine.run(`DROP TABLE IF EXISTS ${t}`);
    if (this.previous !== null) engine.plans?.forget(this.previous);
    const shared: Engine = { ...engine, close: async () => {} };
    this.previous = shared;
    return createLedger({ engine: shared, counter: await this.counter, hashTexts: nodeHashTexts });
  }

  async close(): Promise<void> {
    const engine = this.engine;
    this.engine = null;
    await (await engine)?.close();
  }
}
