/**
 * The engine transaction around a commit's writes. Named rather than written inline so the write
 * path holds no SQL text of its own, and so the fault tests that fail the engine's COMMIT and the
 * write path agree on one statement text.
 */
export function beginTransactionSql(): string {
  return 'BEGIN TRANSACTION';
}

export function commitSql(): string {
  return 'COMMIT';
}

export function rollbackSql(): string {
  return 'ROLLBACK';
}
