/**
 * Statements every new database runs before anything else. Any extension LOAD or autoload whose
 * download fails hangs the process forever (measured: even against a closed local port), so
 * autoloading is switched off first. The library never loads an extension: BM25 runs in memory
 * over postings kept at commit (src/retrieval/retrieval-index.ts) and cosine in memory over
 * float32 body vectors (src/retrieval/body-vectors.ts, src/retrieval/cosine-top.ts).
 */
export const HANG_SAFE_SETTINGS: readonly string[] = [
  'SET autoload_known_extensions = false',
  'SET autoinstall_known_extensions = false',
];

/**
 * Settings that let a plan outlive the data it was planned on (src/sql/prepared.ts keeps
 * statements prepared across commits). Statistics propagation and compressed materialisation
 * write the tables' statistics at planning time into the plan — derived range filters
 * (`vkey BETWEEN 22 AND 8385`), integer compression by range — and DuckDB rebinds a prepared
 * statement when the catalog changes, not when rows arrive: with them on, a join prepared before
 * an insert of keys outside the old ranges returned the old count (10 rows instead of 21).
 * Off, plans depend only on the text; scans still skip row groups by their zone maps at run
 * time. Instance-wide (`disabled_optimizers` is a global setting).
 */
export const PLAN_SETTINGS: readonly string[] = [
  "SET GLOBAL disabled_optimizers = 'statistics_propagation,compressed_materialization'",
];

/**
 * Settings for bulk ingest. DuckDB checkpoints an in-memory database when one commit's estimated
 * WAL size passes `checkpoint_threshold` (16 MiB): a 10k-node commit with ~500-character bodies
 * does, and the checkpoint compresses row groups nobody persists, a large share of the commit's
 * engine time. Commits of a few nodes never reach it, so a ledger grown step by step is
 * uncompressed anyway; raising it makes bulk commits behave the same, at the cost of the engine
 * memory compression would have saved (docs/benchmarks/profiles.md has the figures).
 */
export const INGEST_SETTINGS: readonly string[] = ["SET checkpoint_threshold = '1TB'"];

/**
 * DuckDB's memory limit bounds its buffer manager (table data of an in-memory database lives
 * there). Its default is 80% of what it believes the machine has, which inside wasm32 is the
 * 4 GiB address space (3.1 GiB): past the limit DuckDB answers a query with an out-of-memory
 * error (the commit rolls back, the ledger stays usable), while growing the wasm memory past
 * what the host allows aborts the whole instance. In Node the limit leaves a quarter of the
 * address space to DuckDB's unmanaged allocations and the query in flight.
 */
export const NODE_MEMORY_LIMIT = '3GB';

/** In workerd the isolate's 128 MB holds the JS heap, DuckDB's and tiktoken's wasm memories. */
export const WORKERD_MEMORY_LIMIT = '64MB';

/** The statement setting DuckDB's memory limit (instance-wide). */
export function memoryLimitSql(limit: string): string {
  return `SET memory_limit = '${limit}'`;
}

/**
 * A memory limit below what DuckDB holds, set only to be refused (see SharedInstance.reclaim):
 * on its way to refusing it, DuckDB walks its whole eviction queue.
 */
export const EVICTION_SWEEP_SQL = memoryLimitSql('1KB');
