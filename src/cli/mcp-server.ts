/**
 * The ledger as an MCP server (`context-ledger mcp --ledger DIR`): tools `retrieve`, `explain` and
 * `inspect`, and the working set at the latest epoch as a resource, so a coding assistant can
 * query a recorded session. `@modelcontextprotocol/sdk` (and the zod it validates inputs with) are
 * optional peers, loaded on first use; a missing one is DEPENDENCY_MISSING naming it.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LedgerError } from '../errors.js';
import type { Ledger } from '../ledger/ledger.js';
import type { RetrievalQuery } from '../retrieval/query.js';
import { inspectLedger } from './inspect.js';

type McpModule = typeof import('@modelcontextprotocol/sdk/server/mcp.js');
type ZodModule = typeof import('zod');

async function optional<T>(pkg: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    throw new LedgerError(
      'DEPENDENCY_MISSING',
      { package: pkg, reason: `the MCP server needs the optional package ${pkg}: npm install ${pkg}` },
      e,
    );
  }
}

export interface LedgerMcpOptions {
  /** Token budget of the working sets `explain` and the resource materialize. */
  budget: number;
  /** Authority scopes every tool may read; default every scope. */
  authority?: readonly string[];
  version: string;
}

const WORKING_SET_URI = 'ledger://working-set/latest';

const json = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value, null, 2) }] });

/** An MCP server over an open ledger (not yet connected to a transport). */
export async function createLedgerMcpServer(ledger: Ledger, options: LedgerMcpOptions): Promise<McpServer> {
  const { McpServer: Server } = await optional<McpModule>(
    '@modelcontextprotocol/sdk',
    () => import('@modelcontextprotocol/sdk/server/mcp.js'),
  );
  const { z } = await optional<ZodModule>('zod', () => import('zod'));
  const authority = options.authority ? [...options.authority] : undefined;
  const scoped = authority ? { authority } : {};
  const server = new Server({ name: 'context-ledger', version: options.version });
  const epochField = z.number().int().min(0).optional().describe('as of this epoch (default the last)');

  server.registerTool(
    'retrieve',
    {
      description:
        'Evidence recorded in the ledger that supports a query, ranked; or, when support is too weak, status "abstain" with what is missing (which path, range, revision or claim).',
      inputSchema: {
        text: z.string().optional().describe('what to find support for'),
        claims: z.array(z.string()).optional().describe('claim ids that must be supported'),
        path: z.string().optional().describe('an artifact the evidence must come from'),
        range: z
          .tuple([z.number().int().min(1), z.number().int().min(1)])
          .optional()
          .describe('line range in path'),
        revision: z.string().optional().describe('revision of path'),
        epoch: epochField,
        records: z.number().int().min(1).optional().describe('at most this many records (default 32)'),
      },
    },
    async (a) => {
      const query: RetrievalQuery = { ...scoped };
      if (a.text !== undefined) query.text = a.text;
      if (a.claims !== undefined) query.claims = a.claims;
      if (a.path !== undefined)
        query.artifacts = [
          { path: a.path, ...(a.range ? { range: a.range } : {}), ...(a.revision ? { revision: a.revision } : {}) },
        ];
      if (a.epoch !== undefined) query.epoch = a.epoch;
      if (a.records !== undefined) query.budget = { records: a.records };
      return json(await ledger.retrieve(query));
    },
  );

  server.registerTool(
    'explain',
    {
      description:
        'Why a record is in or out of the working set at an epoch: its tier and the signal that placed it, or the reason it was left out (budget, superseded, archived, beyond the bound, unanswered call).',
      inputSchema: {
        id: z.string().min(1).describe('node id'),
        epoch: epochField,
        budget: z.number().int().min(1).optional().describe(`token budget (default ${options.budget})`),
      },
    },
    async (a) => {
      const ws = await ledger.materialize({
        budget: { tokens: a.budget ?? options.budget },
        ...(a.epoch === undefined ? {} : { epoch: a.epoch }),
        ...scoped,
      });
      const record = ws.explanation.find((r) => r.id === a.id);
      return json(
        record ?? {
          id: a.id,
          included: false,
          code: 'not-a-candidate',
          reason:
            'not a candidate: unknown, not valid at the epoch, outside the authority scopes, or unreachable from the roots',
        },
      );
    },
  );

  server.registerTool(
    'inspect',
    {
      description:
        'The ledger as of an epoch: node and edge counts by kind, open work, every supersession (when, and by what) and the contradictions.',
      inputSchema: { epoch: epochField },
    },
    async (a) => json(await inspectLedger(ledger, a.epoch ?? ledger.lastEpoch)),
  );

  server.registerResource(
    'working-set',
    WORKING_SET_URI,
    {
      description: `The working set at the latest epoch (${options.budget} tokens): items in reading order and the chat rendering.`,
      mimeType: 'application/json',
    },
    async (uri) => {
      const ws = await ledger.materialize({ budget: { tokens: options.budget }, ...scoped });
      const body = {
        epoch: ws.epoch,
        tokens: ws.tokens,
        budget: ws.budget,
        items: ws.items,
        messages: ws.toMessages('openai'),
      };
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
    },
  );
  return server;
}
