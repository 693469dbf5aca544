// The lifecycle every Chromium suite of the console shares, registered once: one browser per file, a
// fresh store and console app per test, and every browser context the test opened closed after it.
import type { ConfirmationStore } from 'graded-tools/store';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { launchBrowser, PATIENT_POLLS } from './browser.js';
import { type ConsoleApp, startConsoleApp } from './console-app.js';

/** A store for one test, with a way to change a stored payload behind the registry's back. */
export interface TestStore {
  readonly store: ConfirmationStore;
  /** Overwrites the stored payload of `id` (another process, or a bad actor with database access). */
  tamperPayload(id: string, payload: unknown): Promise<void>;
  close(): Promise<void>;
}

/** What a test reaches through the harness; valid inside a test (after the hooks ran). */
export interface Harness {
  readonly browser: Browser;
  readonly store: TestStore;
  readonly app: ConsoleApp;
  /** A new browser context, closed after the test. */
  newContext(options?: Parameters<Browser['newContext']>[0]): Promise<BrowserContext>;
}

/** Registers the hooks in the current `describe` and returns the harness they fill in. */
export function consoleHarness(
  openStore: () => Promise<TestStore>,
  appOptions: { readonly basePath?: string } = {},
): Harness {
  let browser: Browser | undefined;
  let store: TestStore | undefined;
  let app: ConsoleApp | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    vi.setConfig(PATIENT_POLLS);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    store = await openStore();
    app = await startConsoleApp({ store: store.store, ...appOptions });
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    await app?.close();
    await store?.close();
  });
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the harness has no ${what} outside a test`);
    return value;
  };
  return {
    get browser() {
      return ready(browser, 'browser');
    },
    get store() {
      return ready(store, 'store');
    },
    get app() {
      return ready(app, 'app');
    },
    async newContext(options) {
      const context = await ready(browser, 'browser').newContext(options);
      contexts.push(context);
      return context;
    },
  };
}
