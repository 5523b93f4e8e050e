import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { captureCli } from '../helpers/capture-cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/transcripts/openai-chat.json');

let tmp: string;
let client: Client;

const text = (r: unknown): string => ((r as { content: Array<{ text: string }> }).content[0] as { text: string }).text;
const call = async (name: string, args: Record<string, unknown>) =>
  JSON.parse(text(await client.callTool({ name, arguments: args }))) as Record<string, unknown>;

// The server runs from source under tsx, spawned by the SDK's own stdio client.
describe('context-ledger mcp', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'ctxl-mcp-'));
    const ingest = await captureCli(runCli, ['ingest', FIXTURE, '--out', 'ledger'], tmp);
    expect(ingest.code).toBe(0);
    client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: join(ROOT, 'node_modules/.bin/tsx'),
        args: [join(ROOT, 'src/cli/main.ts'), 'mcp', '--ledger', 'ledger', '--budget', '2000'],
        cwd: tmp,
        stderr: 'pipe',
      }),
    );
  }, 240_000);

  afterAll(async () => {
    await client?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('lists its tools and the working-set resource', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['explain', 'inspect', 'retrieve']);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['ledger://working-set/latest']);
  });

  it('retrieve: supported evidence for a recorded file range, and abstention naming what is missing', async () => {
    const found = await call('retrieve', { text: 'div return a / b', path: 'pkg/calc.py' });
    expect(found.status).toBe('supported');
    expect(JSON.stringify(found.evidence)).toContain('pkg/calc.py');
    const missing = await call('retrieve', { path: 'pkg/never_seen.py', range: [1, 5] });
    expect(missing.status).toBe('abstain');
    expect(JSON.stringify(missing.missing)).toContain('pkg/never_seen.py');
  });

  it('explain: why a record is in the working set, and why an unknown one is not', async () => {
    const task = await call('explain', { id: 'openai-chat/task' });
    expect(task).toMatchObject({ id: 'openai-chat/task', included: true });
    const unknown = await call('explain', { id: 'no-such-node' });
    expect(unknown).toMatchObject({ id: 'no-such-node', included: false });
    expect(String(unknown.reason)).toContain('not a candidate');
  });

  it('inspect and the resource read the same ledger', async () => {
    const report = await call('inspect', {});
    expect(report.nodes).toMatchObject({ task: 1 });
    const { contents } = await client.readResource({ uri: 'ledger://working-set/latest' });
    const ws = JSON.parse((contents[0] as { text: string }).text) as {
      epoch: number;
      tokens: number;
      items: Array<{ id: string }>;
    };
    expect(ws.epoch).toBe(report.epoch);
    expect(ws.tokens).toBeLessThanOrEqual(2000);
    expect(ws.items.map((i) => i.id)).toContain('openai-chat/task');
  });

  it('answers a bad argument with a tool error, not a crash', async () => {
    const r = (await client.callTool({ name: 'explain', arguments: { id: 42 } })) as { isError?: boolean };
    expect(r.isError).toBe(true);
    expect((await client.listTools()).tools.length).toBe(3);
  });
});
