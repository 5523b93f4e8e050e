/**
 * The ledger's tables. Integer surrogate keys everywhere a join happens (the closure over them
 * runs several times faster than over VARCHAR ids). No PRIMARY KEY / UNIQUE constraints:
 * DuckDB maintains an ART index per constraint, which slows bulk ingest, and uniqueness is
 * already enforced by validation before anything reaches the engine.
 *
 * Supersession is recorded as a fact in `closures` (append-only); `valid_to` on nodes and edges
 * is that fact denormalised so as-of filters stay a single predicate.
 */
export const TABLES = ['bodies', 'nodes', 'edges', 'closures', 'transactions'] as const;
export type TableName = (typeof TABLES)[number];

/**
 * The tables that live in the engine. `transactions` (one row per transaction: tx, epoch, kind
 * 'commit' | 'archive', the input's node, edge and transition counts, and archived_tx for an
 * archive) is a snapshot section only: no query reads it, the commit index holds every row
 * (LedgerIndex.transactions), and keeping it in the engine cost each commit a statement of its
 * own, a fixed planning cost in DuckDB-WASM whatever the rows (docs/benchmarks/profiles.md).
 */
export const ENGINE_TABLES = ['bodies', 'nodes', 'edges', 'closures'] as const;
export type EngineTable = (typeof ENGINE_TABLES)[number];

/** Key column of each engine table: the order rows are exported and restored in. */
export const TABLE_ORDER_KEY: Readonly<Record<EngineTable, string>> = {
  bodies: 'bkey',
  nodes: 'vkey',
  edges: 'ekey',
  closures: 'ckey',
};

export const CREATE_TABLES: Readonly<Record<EngineTable, string>> = {
  bodies: `CREATE TABLE bodies (
    bkey INTEGER NOT NULL,      -- surrogate key
    hash VARCHAR NOT NULL,      -- sha-256 of the text, hex
    text VARCHAR NOT NULL,
    tokens INTEGER NOT NULL,    -- in the ledger's encoding, counted once at write time
    chars INTEGER NOT NULL,
    tx INTEGER NOT NULL)`,
  nodes: `CREATE TABLE nodes (
    vkey INTEGER NOT NULL,      -- version key: one row per version of a node, recording order
    nid INTEGER NOT NULL,       -- surrogate key of the node id, shared by its versions; edges join on it
    id VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,
    status VARCHAR,
    authority VARCHAR NOT NULL,
    bkey INTEGER,
    path VARCHAR,
    revision VARCHAR,
    range_start INTEGER,
    range_end INTEGER,
    verifier VARCHAR,
    tool VARCHAR,
    role VARCHAR,
    changed VARCHAR,            -- JSON array of [first, last] ranges (artifact revisions)
    meta VARCHAR,               -- JSON object of scalars
    tx INTEGER NOT NULL,
    valid_from INTEGER NOT NULL,
    valid_to INTEGER)`,
  edges: `CREATE TABLE edges (
    ekey INTEGER NOT NULL,
    src INTEGER NOT NULL,       -- nodes.nid
    dst INTEGER NOT NULL,       -- nodes.nid
    kind VARCHAR NOT NULL,
    tx INTEGER NOT NULL,
    valid_from INTEGER NOT NULL,
    valid_to INTEGER)`,
  closures: `CREATE TABLE closures (
    ckey INTEGER NOT NULL,
    tx INTEGER NOT NULL,        -- the transaction that decided it
    epoch INTEGER NOT NULL,     -- becomes valid_to of the closed row
    target VARCHAR NOT NULL,    -- 'node' (a version, by vkey) or 'edge' (by ekey)
    key INTEGER NOT NULL,
    reason VARCHAR NOT NULL,    -- 'newer-revision' | 'stale-evidence' | 'newer-outcome' | 'superseded' | 'status-change' | 'archived'
    by_nid INTEGER)             -- the node that caused it, when one did`,
};

const CLOSURE_REASONS = [
  'newer-revision',
  'stale-evidence',
  'newer-outcome',
  'superseded',
  'status-change',
  'archived',
] as const;
export type ClosureReason = (typeof CLOSURE_REASONS)[number];
