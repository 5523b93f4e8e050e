/**
 * How every browser test launches Chromium: Debian's build, never a downloaded one. Without the
 * background-networking flags Chromium keeps dialling Google hosts that this closed network
 * refuses. Playwright adds `--headless` and a fresh `--user-data-dir` per browser itself.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
