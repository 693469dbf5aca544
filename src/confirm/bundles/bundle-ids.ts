import { isConfirmationIdShape, newConfirmationId } from '../confirmation-id.js';

/** The most steps one bundle may hold: a person reads every one on one card before one click. */
export const MAX_BUNDLE_STEPS = 100;

/** A new bundle id: 128 random bits, base64url, like a confirmation id. */
export const newBundleId: () => string = newConfirmationId;

/**
 * A step's confirmation id: the bundle id and the step's place. Derived, so a bundle is read step by
 * step with the store's own `get` (no new index), and a plain confirmation id (22 characters) is never
 * a step's (24 or more). Knowing one step's id reveals the bundle's: both show the same card.
 */
export function stepId(bundleId: string, index: number): string {
  return `${bundleId}-${index}`;
}

/** True when `id` could be a bundle id (a step id is too long to be one). */
export function isBundleIdShape(id: unknown): id is string {
  return isConfirmationIdShape(id) && id.length <= 22;
}

const STEP_ID = /^([A-Za-z0-9_-]{22})-(\d{1,3})$/;

/** A step's id as its bundle's first step's (where a bundle's one message or card lives); others as they are. */
export function firstStepId(id: string): string {
  const match = STEP_ID.exec(id);
  return match === null ? id : stepId(match[1] ?? '', 0);
}
