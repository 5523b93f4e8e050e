/**
 * `docs/reference/errors.md`, rendered from ERROR_CATALOGUE: `npm run docs:errors` writes it, and
 * `test/docs/error-reference.test.ts` fails when the committed file differs from this rendering.
 */
import { writeFile } from 'node:fs/promises';
import { ERROR_CATALOGUE } from '../../src/errors.js';

export const ERROR_REFERENCE_PATH = new URL('../../docs/reference/errors.md', import.meta.url);

/** The page: one row per code, in the catalogue's order. */
export function renderErrorReference(catalogue: Readonly<Record<string, string>> = ERROR_CATALOGUE): string {
  const rows = Object.entries(catalogue).map(
    ([code, message]) => `| \`${code}\` | ${message.replaceAll('|', '\\|')} |`,
  );
  return `# Error codes

<!-- Generated from ERROR_CATALOGUE (src/errors.ts) by \`npm run docs:errors\`; do not edit by hand. -->

Every failure of the public API is a \`LedgerError\` whose \`code\` is one of these and whose
\`details.field\` names the offending field where there is one (\`nodes[2].range\`). Match on the
code, never on the message. \`isLedgerError(error, code?)\` tells them apart.

| code | meaning |
|---|---|
${rows.join('\n')}
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await writeFile(ERROR_REFERENCE_PATH, renderErrorReference());
  console.log(`wrote ${ERROR_REFERENCE_PATH.pathname}`);
}
