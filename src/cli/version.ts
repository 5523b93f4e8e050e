import { readFileSync } from 'node:fs';

/** dist/cli/ and src/cli/ both sit two levels under the package root. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
