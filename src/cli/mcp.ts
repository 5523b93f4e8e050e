/** `context-ledger mcp --ledger DIR`: the ledger as an MCP server on stdio. */
import { LedgerError } from '../errors.js';
import { intOption, listOption, parse, requiredString } from './args.js';
import type { CliIO } from './io.js';
import { openLedgerDir } from './ledger-dir.js';
import { createLedgerMcpServer } from './mcp-server.js';
import { packageVersion } from './version.js';

export const MCP_USAGE = `Usage: context-ledger mcp --ledger DIR [--budget N] [--authority A,B]

Serves the ledger over MCP on stdin/stdout (the Model Context Protocol's stdio transport) until
the client closes it: tools retrieve, explain and inspect, and the working set at the latest
epoch as the resource ledger://working-set/latest. Needs @modelcontextprotocol/sdk installed.

  --ledger DIR       the ledger directory (see: context-ledger ingest); held open, and locked
  --budget N         token budget of the working sets explain and the resource use (default 8000)
  --authority A,B    scopes the tools may read (default all)
  -h, --help         this text
`;

export async function mcp(argv: readonly string[], io: CliIO): Promise<number> {
  const { values } = parse(argv, {
    ledger: { type: 'string' },
    budget: { type: 'string' },
    authority: { type: 'string' },
  });
  if (values.help) {
    io.stdout(MCP_USAGE);
    return 0;
  }
  const dir = requiredString(values.ledger, 'ledger');
  const budget = intOption(values.budget, 'budget', 1) ?? 8000;
  const authority = listOption(values.authority, 'authority');
  const { ledger } = await openLedgerDir(dir, io);
  try {
    const server = await createLedgerMcpServer(ledger, {
      budget,
      version: packageVersion(),
      ...(authority ? { authority } : {}),
    });
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js').catch((e: unknown) => {
      throw new LedgerError('DEPENDENCY_MISSING', { package: '@modelcontextprotocol/sdk' }, e);
    });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
      process.stdin.once('end', resolve);
    });
    await server.connect(transport);
    await closed;
    await server.close();
    return 0;
  } finally {
    await ledger.close();
  }
}
