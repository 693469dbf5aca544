// A virtual authenticator through the DevTools protocol's WebAuthn domain: a real ceremony in
// Chromium with no device and no mock of the page's code.
import type { Page } from 'playwright-core';

/**
 * A virtual platform authenticator on `page` (CTAP2, internal, resident keys, user verification that
 * always succeeds): what a laptop's fingerprint reader would be. Its credentials live as long as it.
 */
export async function addVirtualAuthenticator(page: Page): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}
