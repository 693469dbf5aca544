/**
 * The wire shapes of passkey approvals, written once in the core: what a browser's WebAuthn ceremony
 * returns (in `@simplewebauthn`'s JSON form, base64url throughout) and what the registry answers. The
 * core never imports a WebAuthn library; `graded-tools/passkeys` implements `PasskeyVerifier` on one.
 */

/** A transport a credential says it can be reached over (`'internal'`, `'usb'`, `'hybrid'` …). */
export type PasskeyTransport = string;

/** A registered passkey, as the registry keeps and lists it. */
export interface PasskeyCredentialInfo {
  /** The credential id, base64url. */
  readonly id: string;
  /** Whose passkey it is (the approver's user id). */
  readonly approver: string;
  /** The credential's public key, base64url of its COSE form. */
  readonly publicKey: string;
  /** The signature counter last seen (0 for an authenticator that does not count). */
  readonly counter: number;
  readonly transports: readonly PasskeyTransport[];
  /** ISO time of the registration. */
  readonly createdAt: string;
  readonly label?: string;
}

/** `navigator.credentials.create`'s options, as JSON (`PublicKeyCredentialCreationOptionsJSON`). */
export interface PasskeyCreationOptionsJSON {
  readonly rp: { readonly name: string; readonly id?: string };
  readonly user: { readonly id: string; readonly name: string; readonly displayName: string };
  readonly challenge: string;
  readonly pubKeyCredParams: readonly { readonly alg: number; readonly type: 'public-key' }[];
  readonly timeout?: number;
  readonly excludeCredentials?: readonly {
    readonly id: string;
    readonly type: 'public-key';
    readonly transports?: readonly string[];
  }[];
  readonly authenticatorSelection?: {
    readonly authenticatorAttachment?: string;
    readonly requireResidentKey?: boolean;
    readonly residentKey?: string;
    readonly userVerification?: string;
  };
  readonly hints?: readonly string[];
  readonly attestation?: string;
  readonly attestationFormats?: readonly string[];
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/** `navigator.credentials.get`'s options, as JSON (`PublicKeyCredentialRequestOptionsJSON`). */
export interface PasskeyRequestOptionsJSON {
  readonly challenge: string;
  readonly timeout?: number;
  readonly rpId?: string;
  readonly allowCredentials?: readonly {
    readonly id: string;
    readonly type: 'public-key';
    readonly transports?: readonly string[];
  }[];
  readonly userVerification?: string;
  readonly hints?: readonly string[];
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/** What the browser's registration ceremony returns (`RegistrationResponseJSON`). */
export interface PasskeyRegistrationResponse {
  readonly id: string;
  readonly rawId: string;
  readonly response: {
    readonly clientDataJSON: string;
    readonly attestationObject: string;
    readonly authenticatorData?: string;
    readonly transports?: readonly string[];
    readonly publicKeyAlgorithm?: number;
    readonly publicKey?: string;
  };
  readonly authenticatorAttachment?: string;
  readonly clientExtensionResults: Readonly<Record<string, unknown>>;
  readonly type: 'public-key';
}

/** What the browser's approval ceremony returns (`AuthenticationResponseJSON`): the assertion. */
export interface PasskeyAssertion {
  readonly id: string;
  readonly rawId: string;
  readonly response: {
    readonly clientDataJSON: string;
    readonly authenticatorData: string;
    readonly signature: string;
    readonly userHandle?: string;
  };
  readonly authenticatorAttachment?: string;
  readonly clientExtensionResults: Readonly<Record<string, unknown>>;
  readonly type: 'public-key';
}

/**
 * An approval's proof as the audit log keeps it (base64url each): enough to check offline, from the
 * log alone, that the approver's key signed this decision.
 */
export interface PasskeyProof {
  readonly credentialId: string;
  readonly authenticatorData: string;
  readonly clientDataJSON: string;
  readonly signature: string;
  readonly userHandle?: string;
}

/** `registry.passkeys.registrationOptions`'s options. */
export interface PasskeyRegistrationOptionsRequest {
  /** The approver's user id (what `approvedBy` will say). */
  readonly approver: string;
  /** The name the authenticator shows; default `approver`. */
  readonly displayName?: string | undefined;
}

/** `registry.passkeys.register`'s options. */
export interface PasskeyRegisterRequest {
  readonly approver: string;
  /** What `navigator.credentials.create` gave (`startRegistration` of `@simplewebauthn/browser`). */
  readonly response: PasskeyRegistrationResponse;
  /** A name for the person's list ("work laptop"); at most 100 characters. */
  readonly label?: string | undefined;
}

/** `registry.passkeys.remove`'s options. */
export interface PasskeyRemoveRequest {
  readonly approver: string;
  readonly credentialId: string;
  /** Who removes it (recorded in the audit entry). */
  readonly by: string;
}

/** `registry.passkeys.challenge`'s options: one decision, as the person is about to make it. */
export type PasskeyChallengeRequest =
  | {
      readonly confirmationId: string;
      readonly bundleId?: undefined;
      readonly approver: string;
      /** The digest the person is shown. */
      readonly digest: string;
    }
  | {
      readonly bundleId: string;
      readonly confirmationId?: undefined;
      readonly approver: string;
      /** The bundle digest the person is shown. */
      readonly digest: string;
    };

/** Why a passkey call answered no. */
export type PasskeyFailureCode =
  | 'PASSKEY_REQUIRED'
  | 'PASSKEY_INVALID'
  | 'NOT_FOUND'
  | 'CONFIRMATION_NOT_FOUND'
  | 'ALREADY_DECIDED'
  | 'EXPIRED'
  | 'PAYLOAD_CHANGED'
  | 'INVALID_OPTION'
  | 'STORE_FAILED'
  | 'AUDIT_FAILED';

/** A passkey call that answered no: `code` to switch on, `error` to read. */
export interface PasskeyFailure {
  readonly ok: false;
  readonly code: PasskeyFailureCode;
  readonly error: string;
}

export type PasskeyRegistrationOptionsResult =
  | { readonly ok: true; readonly options: PasskeyCreationOptionsJSON }
  | PasskeyFailure;
export type PasskeyRegisterResult =
  | { readonly ok: true; readonly credential: PasskeyCredentialInfo }
  | PasskeyFailure;
export type PasskeyListResult =
  | { readonly ok: true; readonly credentials: readonly PasskeyCredentialInfo[] }
  | PasskeyFailure;
export type PasskeyRemoveResult = { readonly ok: true } | PasskeyFailure;
export type PasskeyChallengeResult =
  | { readonly ok: true; readonly options: PasskeyRequestOptionsJSON }
  | PasskeyFailure;
