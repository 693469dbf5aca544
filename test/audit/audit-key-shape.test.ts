import { generateKeyPairSync } from 'node:crypto';
import { type AuditKey, ToolRegistry } from 'graded-tools';
import { describe, expect, expectTypeOf, it } from 'vitest';

// `AuditKey` is declared by shape (so the types need no @types/node): Node's KeyObject fits it, and an
// object that only looks like one is refused as a key, never trusted.
describe('the audit key, declared by shape', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');

  it('takes Node’s KeyObject and PEM text, as before', async () => {
    expectTypeOf(privateKey).toExtend<AuditKey>();
    const registry = new ToolRegistry();
    const signedHead = await registry.audit.signHead(privateKey);
    expect(registry.audit.verifyHead(signedHead, publicKey)).toBe(true);
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(registry.audit.verifyHead(signedHead, pem)).toBe(true);
  });

  it('refuses a look-alike object: signHead throws, a head is not verified by it', async () => {
    const registry = new ToolRegistry();
    const signedHead = await registry.audit.signHead(privateKey);
    const fakePrivate = { type: 'private', asymmetricKeyType: 'ed25519' } as const;
    const fakePublic = { type: 'public', asymmetricKeyType: 'ed25519' } as const;
    await expect(registry.audit.signHead(fakePrivate)).rejects.toThrow(TypeError);
    expect(registry.audit.verifyHead(signedHead, fakePublic)).toBe(false);
    expect(await registry.audit.verify({ signedHead, publicKey: fakePublic })).toMatchObject({ ok: false });
  });
});
