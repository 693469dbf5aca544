// graded-tools/notify: the channels that tell approvers. Each takes the notices the registry makes.

export type {
  ApprovalLinkAnswer,
  EmailMessage,
  EmailNotifierOptions,
  EmailRecipients,
  EmailTransport,
} from './email-notifier.js';
export { emailNotifier } from './email-notifier.js';
export type { HttpChannelOptions } from './http-attempt.js';
export type {
  ApprovalNotice,
  NoticeKind,
  Notifier,
  NotifyAttempt,
  NotifyResult,
  NotifySendOptions,
} from './notifier.js';
export type { SlackNotifierOptions } from './slack-notifier.js';
export { slackNotifier } from './slack-notifier.js';
export type { WebhookBody, WebhookNotifierOptions } from './webhook-notifier.js';
export { webhookNotifier } from './webhook-notifier.js';
