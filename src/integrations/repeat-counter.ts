/**
 * A token counter for renderings made call after call from mostly the same records: the counts of
 * the texts of the previous rendering are kept, so a call counts only the texts that are new. A
 * text keeps its count for one rendering past its last use, so memory stays one or two renderings.
 */
export interface RepeatCounter {
  count(text: string): number;
  /** Starts the next rendering: texts not counted since the last call are forgotten. */
  nextRendering(): void;
}

export function repeatCounter(countTokens: (text: string) => number): RepeatCounter {
  let current = new Map<string, number>();
  let previous = new Map<string, number>();
  return {
    count(text) {
      let n = current.get(text);
      if (n !== undefined) return n;
      n = previous.get(text) ?? countTokens(text);
      current.set(text, n);
      return n;
    },
    nextRendering() {
      previous = current;
      current = new Map();
    },
  };
}
