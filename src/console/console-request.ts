import type { Locale } from '../messages/index.js';
import type { ToolRegistry } from '../registry.js';
import { CardMaker } from './cards.js';
import { offeredActions } from './offered-actions.js';
import type { HostRule } from './request-guard.js';
import type { ApprovalsConsoleOptions, ConsolePerson } from './types.js';

/** What a console is set up with, checked once at creation. */
export interface ConsoleSettings {
  readonly registry: ToolRegistry<unknown>;
  readonly authenticate: ApprovalsConsoleOptions['authenticate'];
  readonly authorize: ApprovalsConsoleOptions['authorize'];
  /** The base path, normalised: `''` or `/approvals`. */
  readonly base: string;
  readonly locale: Locale | undefined;
  /** How often the console runs `registry.sweep()` (0: never). */
  readonly sweepIntervalMs: number;
  readonly staleAfterMs: number | undefined;
  /** `publicUrl` without a trailing `/`, or `undefined` (no approval links). */
  readonly publicUrl: string | undefined;
  /** The host the console answers on: publicUrl's, or `allowedHosts` (default loopback). */
  readonly hostRule: HostRule;
  /** The app's names for person ids (`displayName`), if it gave one. */
  readonly displayName: ((personId: string) => string | undefined) | undefined;
}

/** One request of a signed-in person, as every handler sees it. */
export interface PersonRequest {
  readonly settings: ConsoleSettings;
  readonly request: Request;
  readonly url: URL;
  readonly person: ConsolePerson;
  readonly locale: Locale;
  readonly cards: CardMaker;
}

/**
 * The cards one person sees: in their language, with the app's names, and the buttons they are
 * offered (through an approval link, `throughLink`: its approver's, confirm or reject only).
 */
export function personCards(
  settings: ConsoleSettings,
  person: ConsolePerson,
  locale: Locale,
  throughLink = false,
): CardMaker {
  return new CardMaker({
    view: settings.registry.confirmations,
    locale,
    displayName: settings.displayName,
    person,
    offer: (confirmation, bundleDigest) =>
      offeredActions(settings, person, confirmation, { locale, throughLink, bundleDigest }),
    titleOf: (tool) => settings.registry.get(tool)?.title,
    limits: async (confirmation) => {
      const rules = settings.registry.get(confirmation.tool)?.rules ?? [];
      if (!rules.some((rule) => rule.limit !== undefined)) return [];
      // As the asker's call: their actor and scope key the counts; read, never counted.
      const check = await settings.registry.check(confirmation.tool, confirmation.input, {
        ...(confirmation.actor === undefined ? {} : { actor: confirmation.actor }),
        ...(confirmation.scope === undefined ? {} : { scope: confirmation.scope }),
        caller: 'autonomous',
      });
      return check.limits;
    },
  });
}

/** A POST's or DELETE's JSON object body; a GET's is empty. */
export type RequestBody = Readonly<Record<string, unknown>>;
