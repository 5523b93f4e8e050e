/** A body as the engine returns it for the records that need one. */
export interface BodyRecord {
  bkey: number;
  text: string;
  tokens: number;
}

/**
 * Bodies by body key, least recently used first out, up to `maxChars` characters of text: those
 * retrievals returned lately (retrieval's), and those of the latest step-sized commits (the
 * session fold's, see loadStepDelta). A body key names one content forever (bodies are
 * content-addressed and immutable, and a key is assigned only at a commit that succeeds), so a
 * cached body is the engine's. Why: the engine cannot fetch rows by key without scanning every
 * body's text in the row groups it reads (an IN list becomes a join after the scan, see
 * bodyRowsSql), the largest share of a retrieval at 80k records, while consecutive retrievals of
 * one session mostly return the same evidence, and a session's next step reads the bodies just
 * committed.
 */
export class BodyCache<B extends BodyRecord = BodyRecord> {
  private readonly entries = new Map<number, B>();
  private chars = 0;

  constructor(private readonly maxChars = 1 << 20) {}

  get(bkey: number): B | undefined {
    const b = this.entries.get(bkey);
    if (b !== undefined) {
      this.entries.delete(bkey);
      this.entries.set(bkey, b);
    }
    return b;
  }

  set(body: B): void {
    if (body.text.length > this.maxChars || this.entries.has(body.bkey)) return;
    this.entries.set(body.bkey, body);
    this.chars += body.text.length;
    for (const [bkey, old] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(bkey);
      this.chars -= old.text.length;
    }
  }
}
