import { describeThrown } from './describe-thrown.js';

/**
 * Options read once, into a plain object of their own enumerable properties: each getter runs once
 * here, so a method that reads them again later (once per step, say) reads the same values. A getter
 * or proxy that throws is a problem to answer, not a crash.
 */
export function ownOptions(options: unknown): { readonly options: object } | { readonly problem: string } {
  if (options === undefined || options === null) return { options: {} };
  if (typeof options !== 'object')
    return { problem: `the options must be an object (got ${typeof options})` };
  try {
    return { options: { ...options } };
  } catch (error) {
    return { problem: `the options could not be read: ${describeThrown(error).slice(0, 200)}` };
  }
}
