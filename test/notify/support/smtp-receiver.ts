import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One mail as the SMTP server received it, parsed, with the envelope it came in. */
export interface ReceivedMail {
  readonly envelope: { readonly from: string; readonly to: readonly string[] };
  readonly mail: ParsedMail;
  /** The raw message, headers and MIME parts as sent. */
  readonly raw: string;
}

export interface SmtpReceiver {
  readonly host: string;
  readonly port: number;
  readonly mails: ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 (`smtp-server`) that keeps every mail; `refuse` rejects matching recipients. */
export async function startSmtpReceiver(
  refuse: (address: string) => boolean = () => false,
): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse(address.address)) {
        const error = new Error(`no mailbox here for ${address.address}`) as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (mail) => {
            const from = session.envelope.mailFrom;
            mails.push({
              envelope: {
                from: from === false ? '' : from.address,
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              mail,
              raw,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
