import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('shows exactly two set-up commands on its first screen: the demo and the tests', () => {
    const firstScreen = readme.split('\n').slice(0, 40).join('\n');
    const block = /```(?:sh|bash)\n([\s\S]*?)```/.exec(firstScreen)?.[1] ?? '';
    const commands = block
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual(['npm install && npm start', 'npm test']);
  });

  it('carries the API example verbatim, and the example runs with the output its comments state', async () => {
    const example = readFileSync(new URL('../demo/api-example.ts', import.meta.url), 'utf8');
    expect(readme).toContain(example.trim());
    const logs: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      logs.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    });
    try {
      await import('../demo/api-example.js');
    } finally {
      spy.mockRestore();
    }
    const stated = [...example.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) =>
      m[1]!.replaceAll("'", '"').replaceAll(' ', ''),
    );
    expect(logs.map((l) => l.replaceAll(' ', ''))).toEqual(stated);
  });
});
