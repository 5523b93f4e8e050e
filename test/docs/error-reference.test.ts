import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ERROR_REFERENCE_PATH, renderErrorReference } from '../../scripts/docs/error-reference.js';
import { ERROR_CATALOGUE } from '../../src/errors.js';

describe('docs/reference/errors.md', () => {
  it('is what `npm run docs:errors` renders from ERROR_CATALOGUE (stale otherwise: run it)', async () => {
    expect(await readFile(ERROR_REFERENCE_PATH, 'utf8')).toBe(renderErrorReference());
  });

  it('lists every code of the catalogue, and a changed catalogue renders a different page', () => {
    const page = renderErrorReference();
    for (const code of Object.keys(ERROR_CATALOGUE)) expect(page).toContain(`| \`${code}\` |`);
    expect(renderErrorReference({ ...ERROR_CATALOGUE, NEW_CODE: 'x' })).not.toBe(page);
  });
});
