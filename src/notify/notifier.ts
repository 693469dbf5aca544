// The channel contract lives in the core (the registry hands notices to channels); the notify
// subpath re-exports it beside the channels that implement it.
export type {
  ApprovalNotice,
  NoticeKind,
  Notifier,
  NotifyAttempt,
  NotifyResult,
  NotifySendOptions,
} from '../notice.js';
