import type { ErrorCode } from '../result.js';

/** What a message may mention. Every value is already safe to show (see `safeName`). */
export interface MessageParams {
  readonly tool?: string;
  readonly scope?: string | undefined;
  readonly detail?: string;
  readonly ms?: number;
  readonly available?: readonly string[];
  /** A confirmation's status (`ALREADY_DECIDED` says what it is instead). */
  readonly status?: string;
  /** A count limit, e.g. the most calls an adapter runs in one turn. */
  readonly limit?: number;
  /** When something starts again (ISO 8601): a limit's reset. */
  readonly until?: string;
  /** Where a value was read (tool names), for a destination nobody vouched for. */
  readonly from?: string;
}

/** One message per code, in one language. */
export type MessageCatalog = { readonly [K in ErrorCode]: (p: MessageParams) => string };

/** The locales with a catalog. */
export type Locale = 'en' | 'zh-CN';
