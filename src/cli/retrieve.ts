/** `context-ledger retrieve --ledger DIR --text …`: support, or what is missing, as JSON. */
import type { LineRange } from '../schema/types.js';
import { intOption, listOption, parse, requiredString, UsageError } from './args.js';
import type { CliIO } from './io.js';
import { openLedgerDir } from './ledger-dir.js';

export const RETRIEVE_USAGE = `Usage: context-ledger retrieve --ledger DIR [--text T] [options]

Prints the retrieval result as JSON: status (supported or abstain), ranked evidence with
per-channel scores, and what is missing when the ledger abstains.

  --ledger DIR          the ledger directory (see: context-ledger ingest)
  --text T              what to find support for
  --claims A,B          claim ids that must be supported
  --action ID           the active action (a graph seed)
  --path P              an artifact constraint: path ...
  --range A-B           ... line range (with --path)
  --revision R          ... revision (with --path)
  --epoch E             as of epoch E (default the last)
  --authority A,B       scopes the query may read (default all)
  --records N           at most N records (default 32)
  -h, --help            this text
`;

export async function retrieve(argv: readonly string[], io: CliIO): Promise<number> {
  const { values } = parse(argv, {
    ledger: { type: 'string' },
    text: { type: 'string' },
    claims: { type: 'string' },
    action: { type: 'string' },
    path: { type: 'string' },
    range: { type: 'string' },
    revision: { type: 'string' },
    epoch: { type: 'string' },
    authority: { type: 'string' },
    records: { type: 'string' },
  });
  if (values.help) {
    io.stdout(RETRIEVE_USAGE);
    return 0;
  }
  const dir = requiredString(values.ledger, 'ledger');
  const epoch = intOption(values.epoch, 'epoch', 0);
  const records = intOption(values.records, 'records', 1);
  const claims = listOption(values.claims, 'claims');
  const authority = listOption(values.authority, 'authority');
  if ((values.range !== undefined || values.revision !== undefined) && values.path === undefined) {
    throw new UsageError('--range and --revision constrain an artifact: give --path too');
  }
  let range: LineRange | undefined;
  if (values.range !== undefined) {
    const m = /^(\d+)-(\d+)$/.exec(String(values.range));
    if (!m) throw new UsageError(`--range: ${JSON.stringify(values.range)} is not A-B`);
    range = [Number(m[1]), Number(m[2])];
  }
  if (values.text === undefined && claims === undefined && values.path === undefined && values.action === undefined) {
    throw new UsageError('say what to retrieve: --text, --claims, --path or --action');
  }
  const { ledger } = await openLedgerDir(dir, io);
  try {
    const result = await ledger.retrieve({
      ...(values.text === undefined ? {} : { text: String(values.text) }),
      ...(claims === undefined ? {} : { claims }),
      ...(values.action === undefined ? {} : { action: String(values.action) }),
      ...(values.path === undefined
        ? {}
        : {
            artifacts: [
              {
                path: String(values.path),
                ...(range === undefined ? {} : { range }),
                ...(values.revision === undefined ? {} : { revision: String(values.revision) }),
              },
            ],
          }),
      ...(epoch === undefined ? {} : { epoch }),
      ...(authority === undefined ? {} : { authority }),
      ...(records === undefined ? {} : { budget: { records } }),
    });
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await ledger.close();
  }
}
