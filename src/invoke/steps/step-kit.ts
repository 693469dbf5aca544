import type { CallAnswers } from '../answers.js';
import type { InvokeSettings } from '../invoke-settings.js';

/** What every step may use: the registry's settings, and the one way to answer a call. */
export interface StepKit {
  readonly settings: InvokeSettings;
  readonly answers: CallAnswers;
}
