/**
 * Documented input limits. Anything beyond them is refused with a coded error naming the field
 * (BODY_TOO_LARGE, INVALID_EPOCH, LIMIT_EXCEEDED…), never truncated or clamped. They keep every
 * public call's work proportional to what the ledger holds, not to what a caller asks for.
 */
export const LIMITS = {
  /** Characters in one body (1 MiB of UTF-16 code units). */
  maxBodyChars: 1_048_576,
  /** Characters of one node's `meta`: its keys and string values together, as for a body. */
  maxMetaChars: 1_048_576,
  /** Characters in an id, path, revision, verifier, tool or authority. */
  maxIdChars: 512,
  maxPathChars: 4096,
  /** Nodes, edges or transitions in one transaction. */
  maxRecordsPerTransaction: 1_000_000,
  /** Highest line number a range may name (INTEGER column). */
  maxLine: 2_147_483_647,
  /** Highest task epoch, in a transaction or a request (INTEGER column). */
  maxEpoch: 2_147_483_647,
  /** Graph hops of a materialize closure (`hops`) or of retrieval's graph expansion. */
  maxHops: 32,
  /** Nodes a materialize closure keeps per hop level (`maxNodes`). */
  maxClosureNodes: 4096,
  /** Root ids of one materialize request (`roots`). */
  maxRoots: 1024,
  /** Authority scopes of one request (`authority`, materialize and retrieve). */
  maxAuthorityScopes: 256,
  /** Artifact constraints (`artifacts`) and claim ids (`claims`) of one retrieval query. */
  maxArtifacts: 256,
  maxClaims: 256,
  /** Candidates one retrieval channel contributes (`perChannel`). */
  maxPerChannel: 1024,
  /** Host-supplied semantic scores of one retrieval query (`scores` entries). */
  maxScores: 100_000,
  /** Characters of a retrieval query's `text`. */
  maxQueryChars: 65_536,
} as const;
