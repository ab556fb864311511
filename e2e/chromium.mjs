// Debian's Chromium (never a downloaded browser) and the flags it needs on these machines: one
// list for the end-to-end tests (playwright.config.ts), the how-to recorder (howto/record.ts) and
// the benchmark (scripts/bench.mjs). CHROMIUM_PATH overrides the binary.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
