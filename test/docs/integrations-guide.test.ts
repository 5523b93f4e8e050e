import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';

const GUIDE = new URL('../../docs/guide/integrations.md', import.meta.url);
/** Generated examples live under the repository (so the package aliases of vitest.config apply), in the ignored .out/. */
const OUT = new URL('../../.out/docs-examples/', import.meta.url);

/** The fenced `ts` blocks of a `## ` section. */
export function sectionBlocks(markdown: string, section: string): string[] {
  const body = markdown.split(/^## /m).find((s) => s.startsWith(`${section}\n`)) ?? '';
  return [...body.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** What the block's `console.log(…); // output` comments say it prints. */
const statedOutput = (code: string) => [...code.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);

/** Runs a block as a module and returns what it logged. */
async function runBlock(code: string, name: string): Promise<string[]> {
  await mkdir(OUT, { recursive: true });
  const file = new URL(name, OUT);
  await writeFile(file, code);
  const logs: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    logs.push(args.map(String).join(' '));
  });
  try {
    await import(/* @vite-ignore */ file.href);
  } finally {
    spy.mockRestore();
  }
  return logs;
}

describe('docs/guide/integrations.md', { timeout: 180_000 }, () => {
  it('records a live history (the recorder block) with the output it states', async () => {
    const [block] = sectionBlocks(await readFile(GUIDE, 'utf8'), 'Recording any loop (`context-ledger/recorder`)');
    expect(block).toBeDefined();
    expect(await runBlock(block!, 'recorder.ts')).toEqual(statedOutput(block!));
  });

  it('adds the ledger to an AI SDK tool loop in at most 15 lines, and the block runs verbatim with the output it states', async () => {
    const [quickstart] = sectionBlocks(await readFile(GUIDE, 'utf8'), 'AI SDK');
    expect(quickstart).toBeDefined();
    expect(quickstart!.trimEnd().split('\n').length).toBeLessThanOrEqual(15);
    const stated = statedOutput(quickstart!);
    expect(stated.length).toBeGreaterThan(0);
    expect(await runBlock(quickstart!, 'ai-sdk-quickstart.ts')).toEqual(stated);
  });
});
