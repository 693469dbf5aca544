import type { ConfirmationStatus } from 'graded-tools';
import {
  type ApprovalNotice,
  emailNotifier,
  type Notifier,
  type NotifyResult,
  webhookNotifier,
} from 'graded-tools/notify';
import nodemailer from 'nodemailer';
import { describe, expectTypeOf, it } from 'vitest';

describe('notify types', () => {
  it('takes any nodemailer transport the app makes', () => {
    emailNotifier({
      transport: nodemailer.createTransport({ host: 'smtp.example' }),
      from: 'a@x',
      to: 'b@x',
    });
    emailNotifier({
      transport: nodemailer.createTransport({ jsonTransport: true }),
      from: 'a@x',
      to: ['b@x'],
    });
    emailNotifier({
      transport: nodemailer.createTransport({ streamTransport: true }),
      from: 'a@x',
      to: (notice) => notice.recipient,
    });
    // @ts-expect-error a transport needs sendMail
    emailNotifier({ transport: {}, from: 'a@x', to: 'b@x' });
  });

  it('resolves a result and never needs a catch', () => {
    const channel: Notifier = webhookNotifier({
      url: 'https://h.example',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    });
    expectTypeOf(channel.send).returns.toEqualTypeOf<Promise<NotifyResult>>();
    expectTypeOf<ApprovalNotice['confirmation']['status']>().toEqualTypeOf<ConfirmationStatus>();
    expectTypeOf<ApprovalNotice['locale']>().toEqualTypeOf<'en' | 'zh-CN'>();
  });

  it('makes a custom channel name itself', () => {
    // @ts-expect-error a custom channel must name itself
    const nameless: Notifier = { send: async () => ({ ok: true }) };
    void nameless;
  });

  it('takes secrets as whsec_ strings or raw bytes, nothing else', () => {
    webhookNotifier({ url: 'https://h.example', secret: new Uint8Array(32) });
    // @ts-expect-error a number is no secret
    webhookNotifier({ url: 'https://h.example', secret: 42 });
  });
});
