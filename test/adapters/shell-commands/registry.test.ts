import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHELL_TOOLS, toolNamed } from '../../../src/adapters/shell/commands/registry.js';

const dir = new URL('../../../src/adapters/shell/commands/', import.meta.url);
const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'registry.ts' && f !== 'shell-tool.ts');

describe('the shell tool registry', () => {
  it('lists every tool module, and each module has its test', async () => {
    const exported = new Set<unknown>();
    for (const f of modules) for (const v of Object.values(await import(new URL(f, dir).href))) exported.add(v);
    for (const tool of SHELL_TOOLS) expect(exported.has(tool)).toBe(true);
    const tools = [...exported].filter((v) => typeof v === 'object' && v !== null && 'names' in v);
    expect(tools.every((t) => SHELL_TOOLS.includes(t as never))).toBe(true);
    const tests = new Set(readdirSync(new URL('./', import.meta.url)));
    for (const f of modules) expect(tests.has(f.replace(/\.ts$/, '.test.ts'))).toBe(true);
  });

  it('gives each name one tool', () => {
    const names = SHELL_TOOLS.flatMap((t) => t.names);
    expect(new Set(names).size).toBe(names.length);
    for (const t of SHELL_TOOLS) for (const n of t.names) expect(toolNamed(n)).toBe(t);
    expect(toolNamed('python3.12')?.matches).toBeDefined();
    expect(toolNamed('vim')).toBeUndefined();
  });
});
