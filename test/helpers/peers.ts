import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Whether every named package resolves from the project: optional peers are dev dependencies, so
 * `npm test` and the bench use them, and a checkout installed without them skips instead.
 */
export const installed = (packages: readonly string[]): boolean =>
  packages.every((p) => {
    try {
      require.resolve(p);
      return true;
    } catch {
      return false;
    }
  });
