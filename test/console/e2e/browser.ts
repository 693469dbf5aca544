// The one way the console's end-to-end tests start a browser: Debian's Chromium through playwright-core,
// headless, with nothing in the background that could reach the network or slow a shared machine.
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Where the tests look for Chromium: CHROMIUM_PATH, else Debian's package (`.ci/run` installs it). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Waits on the page (`expect.poll`) give a noisy shared machine 20 s instead of vitest's 1 s: a poll
 * returns as soon as the DOM says so, so a healthy run is not slower.
 */
export const PATIENT_POLLS = { expect: { poll: { timeout: 20_000, interval: 50 } } } as const;

/** Launches Chromium once for a test file; close it in `afterAll`. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not at ${CHROMIUM_PATH}: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS, timeout: 60_000 });
}

/** Records every Content-Security-Policy violation of the context's pages, from before their first script. */
export async function recordCspViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const page = globalThis as unknown as {
      __csp: string[];
      addEventListener(type: string, listener: (event: { violatedDirective: string }) => void): void;
    };
    page.__csp = [];
    page.addEventListener('securitypolicyviolation', (event) => page.__csp.push(event.violatedDirective));
  });
}

/** The directives `page` violated so far (`recordCspViolations` must have been called on its context). */
export function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (globalThis as unknown as { __csp: string[] }).__csp);
}
