/** An absolute URL inside free text, up to the first space, quote or angle bracket. */
const URL_IN_TEXT = /\b[a-z][a-z\d+.-]*:\/\/[^\s"'<>`]+/gi;

/**
 * `text` with every URL's secrets masked: the `user:password@` part and the value of each query
 * parameter become `***`. Error texts quote URLs (Node's `fetch` does, nodemailer names its SMTP URL),
 * and an error text ends up in events, logs and the confirmation's history, where a password must not.
 */
export function redactUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (url) =>
    url.replace(/^([^:]+:\/\/)[^/?#]*@/, '$1***@').replace(/([?&][^=&#]*)=[^&#]*/g, '$1=***'),
  );
}
