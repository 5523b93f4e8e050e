import type { Page } from '@playwright/test';
import type { Harness } from './harness.js';

/** Where `vite preview` serves the built test pages and the built explorer (playwright.config.ts). */
export const HARNESS_ORIGIN = 'http://127.0.0.1:4417';
export const EXPLORER_ORIGIN = 'http://127.0.0.1:4418';

export interface ConformanceOutcome {
  json?: string;
  error?: string;
  /** Milliseconds from navigation start to the first query's answer. */
  firstQueryMs?: number;
}

declare global {
  interface Window {
    harness?: Harness;
    conformance?: ConformanceOutcome;
  }
}

/** Opens the harness page and waits (bounded) for its hooks. */
export async function openHarness(page: Page): Promise<void> {
  await page.goto(`${HARNESS_ORIGIN}/harness.html`);
  await page.waitForFunction(() => window.harness !== undefined, null, { timeout: 30_000 });
}
