/**
 * The code blocks of the README and of every page under `docs/`, and the Node programs they make:
 * read by `test/readme.test.ts` (run from source) and the package test (run against the packed
 * package), so both run the same examples.
 *
 * A block that cannot run as a Node program carries, on the line right above its fence,
 * `<!-- example: not run here: <why> -->` (a Worker, a browser page): the package test runs those
 * in their own runtimes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface DocBlock {
  /** Path from the repository root: `README.md`, `docs/guide/retrieval.md`. */
  file: string;
  /** The `# ` or `## ` heading the block sits under. */
  section: string;
  lang: string;
  code: string;
  /** Why the block is not run as a Node program, from its marker; undefined when it is run. */
  notRun?: string;
}

export interface DocProgram {
  name: string;
  file: string;
  code: string;
}

const NOT_RUN = /^<!-- example: not run here: (.+) -->$/;

/** `README.md` and every Markdown page under `docs/` except generated reference output. */
export function docFiles(root: string): string[] {
  const pages: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (relative(root, path) !== join('docs', 'reference', 'api')) walk(path);
      } else if (entry.name.endsWith('.md')) pages.push(relative(root, path));
    }
  };
  walk(join(root, 'docs'));
  return ['README.md', ...pages];
}

/** Every fenced block of one page, with its heading and its not-run marker. */
export function docBlocks(root: string, file: string): DocBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{1,2} /.test(line)) section = line.replace(/^#+ /, '').trim();
    const fence = /^```(\w+)$/.exec(line);
    if (!fence) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${file}:${i + 1}: unclosed code block`);
    const marker = NOT_RUN.exec(lines[i - 1] ?? '');
    blocks.push({
      file,
      section,
      lang: fence[1]!,
      code: `${lines.slice(i + 1, end).join('\n')}\n`,
      ...(marker ? { notRun: marker[1]! } : {}),
    });
    i = end;
  }
  return blocks;
}

/** Every block of the README and `docs/`. */
export function allDocBlocks(root: string): DocBlock[] {
  return docFiles(root).flatMap((file) => docBlocks(root, file));
}

/**
 * The Node programs: a `ts` block that imports something starts one; a `ts` block without imports
 * continues the latest program of the same page, run after its statements and before its last
 * line (the one that closes the ledger). Blocks marked not-run are skipped.
 */
export function docPrograms(blocks: readonly DocBlock[]): DocProgram[] {
  const programs: DocProgram[] = [];
  let base: { file: string; code: string } | undefined;
  for (const b of blocks) {
    if (b.lang !== 'ts' || b.notRun !== undefined) continue;
    if (/^import /m.test(b.code)) {
      base = { file: b.file, code: b.code };
      programs.push({ name: `${b.file} › ${b.section}`, file: b.file, code: b.code });
    } else if (base?.file === b.file) {
      const lines = base.code.trimEnd().split('\n');
      const last = lines.pop()!;
      programs.push({
        name: `${b.file} › ${b.section} (after the page's previous example)`,
        file: b.file,
        code: `${lines.join('\n')}\n${b.code}${last}\n`,
      });
    } else {
      throw new Error(`${b.file} › ${b.section}: a ts block without imports and no example before it on its page`);
    }
  }
  return programs;
}

/** What a program's `console.log(…); // output` comments say it prints, spaces and quotes normalised. */
export function statedOutput(code: string): string[] {
  return [...code.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => normaliseOutput(m[1]!));
}

export const normaliseOutput = (s: string): string => s.replaceAll("'", '"').replaceAll(/\s+/g, '');
