import { describeThrown } from '../util/describe-thrown.js';
import { isConfirmationIdShape } from './confirmation-id.js';
import { type ConfirmFlow, callStore, confirmationFailure } from './flow.js';
import { clampLimit } from './transitions.js';
import { CONFIRMATION_STATUSES, type ConfirmationsView } from './types.js';

/**
 * The registry's read-only window on its store: `get` and `list`, as results. It has no way to change
 * a confirmation, so it can be handed to a console or a report without handing out a decision.
 */
export function createConfirmationsView(flow: ConfirmFlow): ConfirmationsView {
  const view: ConfirmationsView = {
    async get(id, options = {}) {
      const locale = options.locale ?? flow.locale;
      try {
        if (!isConfirmationIdShape(id)) return confirmationFailure('CONFIRMATION_NOT_FOUND', {}, locale);
        const found = await callStore(() => flow.store.get(id));
        if (!found.ok) return confirmationFailure('STORE_FAILED', { detail: found.detail }, locale);
        if (found.value === undefined) return confirmationFailure('CONFIRMATION_NOT_FOUND', {}, locale);
        return { ok: true, confirmation: found.value };
      } catch (error) {
        return confirmationFailure('STORE_FAILED', { detail: describeThrown(error) }, locale);
      }
    },

    async list(filter = {}) {
      const locale = filter.locale ?? flow.locale;
      try {
        const { status, tool } = filter;
        if (status !== undefined && !CONFIRMATION_STATUSES.includes(status)) {
          return confirmationFailure(
            'INVALID_OPTION',
            { detail: `\`status\` must be one of ${CONFIRMATION_STATUSES.join(', ')}` },
            locale,
          );
        }
        if (tool !== undefined && typeof tool !== 'string') {
          return confirmationFailure('INVALID_OPTION', { detail: '`tool` must be a tool name' }, locale);
        }
        const listed = await callStore(() =>
          flow.store.list({
            ...(status === undefined ? {} : { status }),
            ...(tool === undefined ? {} : { tool }),
            limit: clampLimit(filter.limit),
            // What a person can still confirm: a pending one past its expiry is not, even before a sweep marks it.
            ...(status === 'pending' ? { expiresAfter: flow.now() } : {}),
          }),
        );
        if (!listed.ok) return confirmationFailure('STORE_FAILED', { detail: listed.detail }, locale);
        return { ok: true, confirmations: listed.value };
      } catch (error) {
        return confirmationFailure('STORE_FAILED', { detail: describeThrown(error) }, locale);
      }
    },
  };
  return Object.freeze(view);
}
