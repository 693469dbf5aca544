import * as notify from 'graded-tools/notify';
import { describe, expect, it } from 'vitest';

describe('graded-tools/notify', () => {
  it('exports exactly these values (adding one is an API decision)', () => {
    expect(Object.keys(notify).sort()).toEqual(['emailNotifier', 'slackNotifier', 'webhookNotifier']);
  });

  it('names each channel', () => {
    const channels = [
      notify.webhookNotifier({
        url: 'https://hooks.example/a',
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      }),
      notify.slackNotifier({ webhookUrl: 'https://hooks.slack.com/services/T/B/X' }),
      notify.emailNotifier({
        transport: { sendMail: async () => ({}) },
        from: 'a@example.com',
        to: 'b@example.com',
      }),
    ];
    expect(channels.map((c) => c.channel)).toEqual(['webhook', 'slack', 'email']);
  });
});
