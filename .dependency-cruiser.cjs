/**
 * The direction of dependencies in src/ (checked by `npm run lint`, which CI runs):
 *
 *   errors, schema, text, scoring  ←  engine, runtime, tokenizer  ←  sql  ←  ledger core, working-set,
 *   retrieval, rerank  ←  facade (ledger.ts, open-ledger.ts)  ←  storage,
 *   rdf  ←  entries, index.ts, cli
 *   facade, adapters  ←  recorder  ←  integrations (ai-sdk, openai-agents); the MCP server is the CLI's
 *
 * text/ holds pure functions over text that the layers above share: the lexical terms (working-set
 * and retrieval) and the built-in hashed-trigram embedder (the ledger core's default, retrieval's
 * vectors).
 * scoring/ holds the pure ranking arithmetic both working-set and retrieval use: BM25 and weighted
 * reciprocal-rank fusion with explicit tie-breaks, one formula for both.
 * Adapters are pure parsers: they see only the schema and text/. No file cycles anywhere. Type-only
 * imports count: a reader follows them just the same.
 */
const FACADE = '^src/ledger/(ledger|open-ledger)[.]ts$';
const LEDGER_CORE_NOT_FACADE = '^src/ledger/(?!(ledger|open-ledger)[.]ts$)';
const ABOVE_ENGINE = '^src/(sql|ledger|working-set|retrieval|rerank|storage|rdf|adapters|entries|cli|index[.]ts)';
const ABOVE_SQL = '^src/(ledger|working-set|retrieval|rerank|storage|rdf|adapters|entries|cli|index[.]ts)';
const ABOVE_FACADE = '^src/(storage|rdf|adapters|recorder|integrations|entries|cli|index[.]ts)';
const ENTRIES = '^src/(entries|cli|index[.]ts)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A file cycle makes every file in it depend on all the others.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'schema-is-the-bottom',
      severity: 'error',
      comment: 'errors.ts and schema/ depend on nothing else of the library.',
      from: { path: '^src/(errors[.]ts|schema/)' },
      to: { path: '^src/', pathNot: '^src/(errors[.]ts|schema/)' },
    },
    {
      name: 'text-is-pure',
      severity: 'error',
      comment: 'text/ holds pure functions over strings; it may use errors.ts and schema/, nothing above.',
      from: { path: '^src/text/' },
      to: { path: '^src/', pathNot: '^src/(text/|errors[.]ts|schema/)' },
    },
    {
      name: 'scoring-is-pure',
      severity: 'error',
      comment:
        'scoring/ holds pure ranking functions (BM25, reciprocal-rank fusion) that working-set and retrieval (rerank) share; it knows neither, nor anything above text/.',
      from: { path: '^src/scoring/' },
      to: { path: '^src/', pathNot: '^src/(scoring/|text/|errors[.]ts|schema/)' },
    },
    {
      name: 'engine-below-sql',
      severity: 'error',
      comment: 'engine/, runtime/ and tokenizer/ run DuckDB, assets and tiktoken; they know no query or ledger.',
      from: { path: '^src/(engine|runtime|tokenizer)/' },
      to: { path: ABOVE_ENGINE },
    },
    {
      name: 'sql-below-ledger',
      severity: 'error',
      comment: 'sql/ builds query text from the schema; the ledger, working set and retrieval call it.',
      from: { path: '^src/sql/' },
      to: { path: ABOVE_SQL },
    },
    {
      name: 'commit-and-snapshot-apart',
      severity: 'error',
      comment:
        'ledger/commit/ writes transactions and ledger/snapshot/ writes and restores whole ledgers; both build on the ledger core, neither on the other.',
      from: { path: '^src/ledger/(commit|snapshot)/' },
      to: { path: '^src/ledger/(commit|snapshot)/', pathNot: '^src/ledger/$1/' },
    },
    {
      name: 'core-below-facade',
      severity: 'error',
      comment: 'The ledger core, working-set, retrieval and rerank never reach up to the facade or past it.',
      from: { path: `${LEDGER_CORE_NOT_FACADE}|^src/(working-set|retrieval|rerank)/` },
      to: { path: `${FACADE}|${ABOVE_FACADE}` },
    },
    {
      name: 'ledger-core-not-operations',
      severity: 'error',
      comment: 'The ledger core records and replays; the facade composes it with materialize and retrieve.',
      from: { path: LEDGER_CORE_NOT_FACADE },
      to: { path: '^src/(working-set|retrieval|rerank)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import the cruiser cannot resolve would hide its edge from every rule above.',
      from: { path: '^src/' },
      // The MCP SDK exports its files through a `./*` pattern the cruiser's resolver does not follow.
      to: { couldNotResolve: true, pathNot: '^(node:|cloudflare:|@modelcontextprotocol/sdk/)' },
    },
    {
      name: 'working-set-not-retrieval',
      severity: 'error',
      comment:
        'working-set and retrieval are siblings; what both need lives below them (scoring/, text/, sql/, schema/).',
      from: { path: '^src/working-set/' },
      to: { path: '^src/(retrieval|rerank)/' },
    },
    {
      name: 'retrieval-not-working-set',
      severity: 'error',
      from: { path: '^src/(retrieval|rerank)/' },
      to: { path: '^src/working-set/' },
    },
    {
      name: 'operations-not-the-ledger-core',
      severity: 'error',
      comment: 'working-set, retrieval and rerank read the row types from schema/rows.ts, never the ledger core.',
      from: { path: '^src/(working-set|retrieval|rerank)/' },
      to: { path: '^src/ledger/' },
    },
    {
      name: 'facade-below-entries',
      severity: 'error',
      from: { path: `${FACADE}|^src/(storage|rdf)/` },
      to: { path: ENTRIES },
    },
    {
      name: 'embedders-are-leaves',
      severity: 'error',
      comment:
        'embedders/ wrap optional peer packages behind their own subpath exports: they implement the Embedder type (text/) and raise coded errors, and nothing else in src/ imports them, so no entry bundles a model.',
      from: { path: '^src/embedders/' },
      to: { path: '^src/', pathNot: '^src/(embedders/|text/|errors[.]ts)' },
    },
    {
      name: 'nothing-imports-embedders',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/embedders/' },
      to: { path: '^src/embedders/' },
    },
    {
      name: 'integrations-are-leaves',
      severity: 'error',
      comment:
        'integrations/ hold the framework glue behind their own subpath exports over optional peers: nothing else in src/ imports them, so no entry bundles a framework.',
      from: { path: '^src/', pathNot: '^src/integrations/' },
      to: { path: '^src/integrations/' },
    },
    {
      name: 'recorder-below-integrations',
      severity: 'error',
      comment: 'The recorder is framework-free: the entries and integrations use it, it uses neither.',
      from: { path: '^src/recorder/' },
      to: { path: '^src/(integrations|entries|cli|storage|rdf)/|^src/index[.]ts' },
    },
    {
      name: 'adapters-see-only-the-schema',
      severity: 'error',
      comment: 'Adapters parse transcripts into transactions: pure functions over the schema (and text/).',
      from: { path: '^src/adapters/' },
      to: { path: '^src/', pathNot: '^src/(adapters/|schema/|text/|errors[.]ts)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
