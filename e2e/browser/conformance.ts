/**
 * Runs the conformance suite in the page against the built bundle and hands the result to the
 * spec on `window.conformance` (or the error, so the spec fails at once instead of waiting).
 */
import { openLedger } from 'context-ledger';
import { RMDX_SESSION } from '../../demo/traces/rmdx-can-session.js';
import { runConformance } from '../../test/conformance/cases.js';

const out = window as unknown as { conformance?: unknown };
try {
  // The first query after navigation: DuckDB's worker, its wasm, tiktoken and the ranks all load.
  const ledger = await openLedger();
  await ledger.asOf({ epoch: 0 });
  const firstQueryMs = performance.now();
  await ledger.close();
  const result = await runConformance(openLedger, RMDX_SESSION);
  out.conformance = { json: JSON.stringify(result), firstQueryMs };
} catch (e) {
  out.conformance = { error: String((e as Error)?.stack ?? e) };
}
