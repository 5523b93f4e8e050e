import type { LineRange } from '../schema/types.js';
import type { FileKnowledge, PreImage } from './types.js';

/** Revision id of a file nobody in the trace has written yet. */
const BASE_REVISION = 'base';

/** What the trace has shown of one path's current revision. */
interface FileState {
  revision: string;
  lines: Map<number, string>;
  total?: number | undefined;
  content?: string | undefined;
}

const splitContent = (content: string): string[] => {
  const lines = content.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
};

/**
 * The trace's model of file contents: per path, the current revision and whatever the trace has
 * shown of it (lines viewed, content written). Recognisers read it to resolve relative edits,
 * and the builder to notice a file that changed without a recognised write.
 */
export class KnownFiles implements FileKnowledge {
  private readonly files = new Map<string, FileState>();
  /** Paths in the order the trace first wrote them (verifiers depend on their latest revisions). */
  private readonly written: string[] = [];

  lineCount(path: string): number | undefined {
    return this.files.get(path)?.total;
  }
  knownLines(path: string): ReadonlyMap<number, string> | undefined {
    return this.files.get(path)?.lines;
  }
  content(path: string): string | undefined {
    return this.files.get(path)?.content;
  }
  /** Current revision id of a path (`base` until the trace writes it). */
  revisionOf(path: string): string {
    return this.files.get(path)?.revision ?? BASE_REVISION;
  }

  /** The paths the trace has written, sorted (code-unit order). */
  writtenPaths(): string[] {
    return [...this.written].sort();
  }

  /** Whether displayed lines disagree with what is known of the path's current revision. */
  contradicts(path: string, first: number, lines: readonly string[]): boolean {
    const st = this.files.get(path);
    if (!st) return false;
    if (st.total !== undefined && first + lines.length - 1 > st.total) return true;
    return lines.some((text, i) => {
      const known = st.lines.get(first + i);
      return known !== undefined && known !== text;
    });
  }

  /** Records displayed lines of the current revision (used by later tail/str_replace reasoning). */
  learn(path: string, first: number, lines: readonly string[], whole?: boolean, total?: number): void {
    const st = this.files.get(path) ?? { revision: BASE_REVISION, lines: new Map<number, string>() };
    this.files.set(path, st);
    lines.forEach((text, i) => {
      st.lines.set(first + i, text);
    });
    if (whole && first === 1) st.total = lines.length;
    if (total !== undefined) st.total = total;
  }

  /** A new current revision of `path`: its content when the write spelled it out, else unknown. */
  setRevision(path: string, revision: string, content: string | undefined): void {
    const st: FileState = { revision, lines: new Map<number, string>() };
    if (content !== undefined) {
      const lines = content === '' ? [] : splitContent(content);
      lines.forEach((text, i) => {
        st.lines.set(i + 1, text);
      });
      st.total = lines.length;
      st.content = content;
    }
    this.files.set(path, st);
    if (!this.written.includes(path)) this.written.push(path);
  }

  /** The changed lines of the current revision, when every one of them is known. */
  preImageLines(path: string, changed: readonly LineRange[]): PreImage['lines'] | undefined {
    const known = this.files.get(path)?.lines;
    if (!known) return undefined;
    const lines: PreImage['lines'] = [];
    for (const [a, b] of changed) {
      for (let line = a; line <= b; line++) {
        const text = known.get(line);
        if (text === undefined) return undefined;
        lines.push({ line, text });
      }
    }
    return lines;
  }
}
