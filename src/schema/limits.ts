/** Documented input limits. Anything beyond them is rejected, never truncated. */
export const LIMITS = {
  /** Characters in one body (1 MiB of UTF-16 code units). */
  maxBodyChars: 1_048_576,
  /** Characters in an id, path, revision, verifier, tool or authority. */
  maxIdChars: 512,
  maxPathChars: 4096,
  /** Nodes, edges or transitions in one transaction. */
  maxRecordsPerTransaction: 1_000_000,
  /** Highest line number a range may name (INTEGER column). */
  maxLine: 2_147_483_647,
} as const;
