// What the Chromium suites of one approver's day share: a SQLite file per test, the inbox opened as a
// signed-in person at a width and in a language, an approval made straight through the registry,
// axe-core's findings and, with CONSOLE_SCREENSHOTS=<dir>, the views saved there as PNGs to look at.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { ConsolePerson } from 'graded-tools/console';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { Page } from 'playwright-core';
import { afterAll, expect } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';
import type { Harness, TestStore } from './harness.js';

/** A fresh SQLite file per test, in a folder removed after the file's tests (`name` prefixes both). */
export function sqliteStores(name: string): () => Promise<TestStore> {
  const dir = tempDir(`graded-tools-console-${name}-`);
  afterAll(() => dir.remove());
  let files = 0;
  return async () => {
    const store = createSqliteStore({ path: join(dir.path, `${name}-${++files}.db`) });
    return {
      store,
      tamperPayload: async () => {
        throw new Error('not used here');
      },
      close: async () => store.close(),
    };
  };
}

const shots = process.env.CONSOLE_SCREENSHOTS;
/** Saves what `page` shows when CONSOLE_SCREENSHOTS names a directory. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (shots === undefined || shots === '') return;
  mkdirSync(shots, { recursive: true });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

/** axe-core's violations on `page` (WCAG 2.x A and AA rules and best practices), as "rule: target" lines. */
export async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

/** The inbox as a person sees it, and approvals made for others straight through the registry. */
export function approverPages(h: Harness) {
  return {
    /** The inbox signed in as `person`, live, at `width` (a phone's height under 500 px) in `locale`. */
    async openInbox(person: ConsolePerson, view: { locale?: string; width?: number } = {}): Promise<Page> {
      const context = await h.newContext({
        locale: view.locale ?? 'en-US',
        viewport: {
          width: view.width ?? 1280,
          height: view.width !== undefined && view.width < 500 ? 844 : 800,
        },
      });
      await h.app.signIn(context, person);
      const page = await context.newPage();
      await page.goto(`${h.app.url}/`);
      await page.locator('.live[data-live="on"]').waitFor();
      return page;
    },
    /** `person` approves `id` through the registry, which answers `code` (held, or short of a quorum). */
    async approveAs(
      id: string,
      person: ConsolePerson,
      code: 'SCHEDULED' | 'AWAITING_APPROVALS',
    ): Promise<void> {
      const found = await h.app.registry.confirmations.get(id);
      if (!found.ok) throw new Error(found.error);
      const result = await h.app.registry.confirm(id, {
        approvedBy: person.id,
        ...(person.flags === undefined ? {} : { flags: person.flags }),
        digest: found.confirmation.digest,
      });
      expect(result).toMatchObject({ ok: false, code });
    },
  };
}
