import type { FileKnowledge } from '../../src/adapters/types.js';

/** In-memory knowledge: whole files by path. */
export function knowledge(files: Record<string, string> = {}): FileKnowledge {
  const lines = (p: string): string[] | undefined => {
    const c = files[p];
    if (c === undefined) return undefined;
    const ls = c.split('\n');
    if (c.endsWith('\n')) ls.pop();
    return ls;
  };
  return {
    lineCount: (p) => lines(p)?.length,
    knownLines: (p) => {
      const ls = lines(p);
      return ls ? new Map(ls.map((l, i) => [i + 1, l])) : undefined;
    },
    content: (p) => files[p],
  };
}
