/** `context-ledger materialize --ledger DIR --budget N`: the working set, explained. */
import type { WorkingSet } from '../working-set/working-set.js';
import { intOption, listOption, parse, requiredString, UsageError } from './args.js';
import type { CliIO } from './io.js';
import { openLedgerDir } from './ledger-dir.js';

export const MATERIALIZE_USAGE = `Usage: context-ledger materialize --ledger DIR --budget TOKENS [options]

Prints the working set the ledger would hand the model: the items in reading order with their
tier and tokens, then every candidate left out and why.

  --ledger DIR          the ledger directory (see: context-ledger ingest)
  --budget TOKENS       token budget (required)
  --epoch E             as of epoch E (default the last)
  --authority A,B       scopes the request may read (default all)
  --json                the working set as JSON
  --messages openai|anthropic
                        the working set rendered as chat messages (JSON)
  -h, --help            this text
`;

export async function materialize(argv: readonly string[], io: CliIO): Promise<number> {
  const { values } = parse(argv, {
    ledger: { type: 'string' },
    budget: { type: 'string' },
    epoch: { type: 'string' },
    authority: { type: 'string' },
    json: { type: 'boolean' },
    messages: { type: 'string' },
  });
  if (values.help) {
    io.stdout(MATERIALIZE_USAGE);
    return 0;
  }
  const dir = requiredString(values.ledger, 'ledger');
  const tokens = intOption(requiredString(values.budget, 'budget'), 'budget', 1)!;
  const epoch = intOption(values.epoch, 'epoch', 0);
  const authority = listOption(values.authority, 'authority');
  const shape = values.messages as string | undefined;
  if (shape !== undefined && shape !== 'openai' && shape !== 'anthropic') {
    throw new UsageError('--messages: openai or anthropic');
  }
  const { ledger } = await openLedgerDir(dir, io);
  try {
    // A one-off look at one epoch: the one-shot ranking, not the cache-stable set of a session.
    const ws = await ledger.materialize({
      mode: 'fresh',
      budget: { tokens },
      ...(epoch === undefined ? {} : { epoch }),
      ...(authority === undefined ? {} : { authority }),
    });
    if (shape !== undefined) {
      const messages = shape === 'openai' ? ws.toMessages('openai') : ws.toMessages('anthropic');
      io.stdout(`${JSON.stringify(messages, null, 2)}\n`);
    } else if (values.json) io.stdout(`${JSON.stringify(ws, null, 2)}\n`);
    else io.stdout(renderWorkingSet(ws));
    return 0;
  } finally {
    await ledger.close();
  }
}

function renderWorkingSet(ws: WorkingSet): string {
  const lines = [
    `epoch ${ws.epoch}: ${ws.items.length} items, ${ws.tokens} of ${ws.budget.tokens} tokens${ws.graphTruncated ? ' (graph truncated by the closure bound)' : ''}`,
  ];
  for (const item of ws.items) {
    const where = item.path ? ` ${item.path}${item.range ? `:${item.range[0]}-${item.range[1]}` : ''}` : '';
    lines.push(
      `  [tier ${item.tier}] ${item.id} (${item.kind}${where}) ${item.tokens} tokens${item.ref ? ` = ${item.ref}` : ''}`,
    );
  }
  const out = ws.explanation.filter((e) => !e.included);
  if (out.length > 0) {
    lines.push(`left out: ${out.length}`);
    for (const e of out) lines.push(`  ${e.id}: ${e.reason}`);
  }
  return `${lines.join('\n')}\n`;
}
