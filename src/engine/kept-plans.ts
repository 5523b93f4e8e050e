/**
 * How many prepared plans one DuckDB instance keeps, by default. A kept plan pins DuckDB memory
 * until it is deallocated: the working-set statement's plan held 10.8 MiB (`duckdb_memory()`) on
 * a 10k-node ledger, and a workerd isolate gives DuckDB ~61 MiB of wasm memory in all, so a few
 * ledgers materializing on one instance could exhaust it. Past the cap the least recently used
 * plan is deallocated and prepared again on its next use (one planning, ~30% of a statement).
 */
export const DEFAULT_KEPT_PLANS = 4;

/** The default in workerd, where the instance has ~61 MiB for the data of every ledger as well. */
export const WORKERD_KEPT_PLANS = 2;

/** One statement name of one connection, which may hold a plan. */
export interface KeptPlan {
  /** The text its plan was prepared from; null while none is known to be prepared. */
  text: string | null;
  readonly owner: object;
  readonly name: string;
  /** Calls under way that use it (an EXECUTE in flight, or the PREPARE before it). */
  pins: number;
  /** Frees the plan (`DEALLOCATE`); called at most once, after the entry is dropped. */
  readonly evict: () => void;
}

/**
 * The prepared plans of every connection of one DuckDB instance, least recently used first,
 * capped at `limit`. Pure bookkeeping: the caller (src/sql/prepared.ts) prepares and executes,
 * and hands each entry the function that deallocates it. A pinned entry is never evicted, so a
 * plan is never deallocated between its PREPARE and its EXECUTE, nor while it runs; when every
 * entry is pinned the count may pass the cap until the calls finish (then it is trimmed). An
 * evicted entry is dropped at once, so the owner's next use finds no plan and prepares again.
 */
export class KeptPlans {
  /** Insertion order is recency: a used entry is deleted and added again. */
  private readonly order = new Set<KeptPlan>();
  private readonly byOwner = new Map<object, Map<string, KeptPlan>>();

  constructor(private cap: number = DEFAULT_KEPT_PLANS) {}

  get limit(): number {
    return this.cap;
  }

  /** Entries held (plans kept, or being prepared). */
  get size(): number {
    return this.order.size;
  }

  /** Sets the cap (a whole number ≥ 0; 0 keeps no plan) and evicts down to it. */
  setLimit(limit: number): void {
    this.cap = limit;
    this.trim();
  }

  /**
   * The entry for `name` on `owner`, made the most recently used and pinned (created, with no
   * text, when absent); release it with `release` when the call is done. Other entries are
   * evicted down to the cap first, so memory is freed before a new plan is made.
   */
  acquire(owner: object, name: string, evict: () => void): KeptPlan {
    let names = this.byOwner.get(owner);
    if (names === undefined) {
      names = new Map();
      this.byOwner.set(owner, names);
    }
    let entry = names.get(name);
    if (entry === undefined) {
      entry = { text: null, owner, name, pins: 0, evict };
      names.set(name, entry);
    } else this.order.delete(entry);
    this.order.add(entry);
    entry.pins++;
    this.trim();
    return entry;
  }

  /** Unpins an entry from `acquire`. One that never got a plan (its PREPARE failed) is dropped. */
  release(entry: KeptPlan): void {
    entry.pins--;
    if (entry.pins === 0 && entry.text === null) this.drop(entry);
    this.trim();
  }

  /** Forgets an owner's entries without evicting them (its connection closed, freeing them). */
  forget(owner: object): void {
    const names = this.byOwner.get(owner);
    if (names === undefined) return;
    for (const entry of names.values()) this.order.delete(entry);
    this.byOwner.delete(owner);
  }

  /** Whether `owner` holds an entry for `name` (for tests and reports). */
  has(owner: object, name: string): boolean {
    return this.byOwner.get(owner)?.has(name) ?? false;
  }

  private trim(): void {
    if (this.order.size <= this.cap) return;
    for (const entry of this.order) {
      if (this.order.size <= this.cap) return;
      if (entry.pins > 0) continue;
      this.drop(entry);
      entry.evict();
    }
  }

  private drop(entry: KeptPlan): void {
    this.order.delete(entry);
    const names = this.byOwner.get(entry.owner);
    names?.delete(entry.name);
    if (names?.size === 0) this.byOwner.delete(entry.owner);
  }
}
