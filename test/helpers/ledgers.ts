import type { Engine } from '../../src/engine/engine.js';
import { openNodeEngine } from '../../src/engine/open-node.js';
import { openLedger } from '../../src/entries/node.js';
import { createLedger, type Ledger, ledgerCore, restoreLedger } from '../../src/ledger/ledger.js';
import { type OpenLedgerOptions, openLedgerWith } from '../../src/ledger/open-ledger.js';
import { ENGINE_TABLES } from '../../src/schema/ddl.js';
import type { Embedder } from '../../src/text/hashed-embedder.js';
import { createNodeTokenCounter } from '../../src/tokenizer/tiktoken-node.js';

export { openLedger };

/** A ledger's engine and index (package internals that tests look at directly). */
export const engineOf = (ledger: Ledger): Engine => ledgerCore(ledger).config.engine;
export const indexOf = (ledger: Ledger) => ledgerCore(ledger).index;

/**
 * Property tests open hundreds of ledgers; a pool reuses one attached database per slot and
 * drops the tables between ledgers, so no test pays for opening and tearing down a database per
 * ledger. Closing such a ledger leaves the shared engine open.
 */
export class LedgerPool {
  private engines: Engine[] = [];
  /** The engine object the slot's latest ledger was given (see `takeSlot`). */
  private holders: (Engine | undefined)[] = [];

  async ledger(slot = 0, snapshot?: Uint8Array, embedder?: Embedder): Promise<Ledger> {
    const engine = await this.engine(slot);
    for (const t of ENGINE_TABLES) await engine.run(`DROP TABLE IF EXISTS ${t}`);
    const counter = await createNodeTokenCounter('o200k_base');
    const shared: Engine = this.takeSlot(slot, engine, { ...engine, close: async () => {} });
    const setup = { engine: shared, counter, embedder };
    return snapshot ? restoreLedger(setup, snapshot) : createLedger(setup);
  }

  /** Opens through the library's own open path (`openLedgerWith`: storage load, restore,
   * replay), on the slot's reused database; `wrap` may put a fault-injecting engine around it. */
  async open(slot: number, options: OpenLedgerOptions, wrap: (e: Engine) => Engine = (e) => e): Promise<Ledger> {
    const engine = await this.engine(slot);
    return openLedgerWith(
      {
        openEngine: async () => {
          for (const t of ENGINE_TABLES) await engine.run(`DROP TABLE IF EXISTS ${t}`);
          return this.takeSlot(slot, engine, wrap({ ...engine, close: async () => {} }));
        },
        tokenCounter: createNodeTokenCounter,
      },
      options,
    );
  }

  /**
   * Gives the slot's connection to a new ledger's engine object. The library opens one connection
   * per engine and forgets an engine's kept plans when it closes; here every ledger of a slot
   * shares the slot's connection and the one before is dropped without closing. Its kept-plan
   * entries must go with it: they name the same statements on the same connection, so evicting
   * one later (DEALLOCATE) would free the new ledger's plan under it.
   */
  private takeSlot(slot: number, engine: Engine, holder: Engine): Engine {
    const previous = this.holders[slot];
    if (previous !== undefined) engine.plans?.forget(previous);
    this.holders[slot] = holder;
    return holder;
  }

  private async engine(slot: number): Promise<Engine> {
    this.engines[slot] ??= await openNodeEngine();
    return this.engines[slot]!;
  }

  async close(): Promise<void> {
    for (const e of this.engines) await e?.close();
    this.engines = [];
    this.holders = [];
  }
}

export const bytesEqual = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** Runs `fn` and returns the LedgerError code it threw (fails the test when it did not throw). */
export async function codeOf(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
  } catch (e) {
    return (e as { code?: string }).code ?? `not a LedgerError: ${String(e)}`;
  }
  throw new Error('expected a rejection');
}
