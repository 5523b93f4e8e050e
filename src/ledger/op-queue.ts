import { asLedgerError, LedgerError } from '../errors.js';

/**
 * The ledger's one queue: every operation runs exclusively and in call order, so a reader never
 * sees half a commit. Also holds the ledger's lifecycle (closing, closed, failed).
 */
export class OpQueue {
  #tail: Promise<unknown> = Promise.resolve();
  #closed = false;
  #closing: Promise<void> | null = null;
  /** Set when a storage failure left the log holding a record the ledger does not: every later
   * call is refused with it, since only reopening can tell what the log means. */
  #failed: LedgerError | null = null;

  /** Runs `fn` after everything queued before it; whatever it throws leaves as a LedgerError. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    // Decided at the call: what was called before close() still runs, what after it never does.
    if (this.#closing) return Promise.reject(new LedgerError('LEDGER_CLOSED'));
    const run = this.#tail
      .then(() => {
        if (this.#closed) throw new LedgerError('LEDGER_CLOSED');
        if (this.#failed) throw this.#failed;
        return fn();
      })
      // The public API's one exit: whatever a bug or the runtime throws leaves as a coded error.
      .catch((e: unknown) => {
        throw asLedgerError(e);
      });
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Refuses every later call with `error`. */
  fail(error: LedgerError): void {
    this.#failed = error;
  }

  /** Waits for the calls already made, then runs `release` once; later calls reject with
   * LEDGER_CLOSED. Calling it again returns the same promise. */
  close(release: () => Promise<void>): Promise<void> {
    this.#closing ??= this.#tail
      .then(() => {
        this.#closed = true;
        return release();
      })
      .catch((e: unknown) => {
        throw asLedgerError(e, 'STORAGE_FAILED', 'storage');
      });
    this.#tail = this.#closing.catch(() => undefined);
    return this.#closing;
  }
}
