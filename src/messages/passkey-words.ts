// What every surface says about a confirmation that needs a passkey. It imports nothing, so the
// console's page bundles it as it is: the page and the server say the same sentence.

/** The words about passkey approvals, in one language. */
export interface PasskeyWords {
  /**
   * THE sentence every surface that cannot run the ceremony says instead of offering Approve (Slack,
   * email, webhooks, an approval link): "Approve in the console: a passkey is required."
   */
  readonly required: string;
  /** The console's deciding button on a card that needs a passkey. */
  readonly approve: string;
  /** The same, saying which approval of several this one will be: "Approve with passkey (1 of 2)". */
  approveCount(n: number, needed: number): string;
  /** A bundle's one decision, signed once over the bundle digest. */
  approveAll(steps: number): string;
  /** Said on the card before the click: the browser will ask for the passkey. */
  readonly before: string;
  /** The bulk dialog, per item that needs a passkey: it is left out of the bulk decision. */
  readonly bulk: string;
  /** The person cancelled the browser's prompt, or it timed out: nothing was approved. */
  readonly cancelled: string;
  /** The browser offers no WebAuthn (or not in this context). */
  readonly unsupported: string;
  /** The person has no passkey: where to add one. */
  readonly registerFirst: string;
  /** The Passkeys page. */
  readonly page: {
    readonly heading: string;
    readonly intro: string;
    readonly none: string;
    readonly add: string;
    readonly label: string;
    readonly labelHint: string;
    readonly remove: string;
    readonly added: (label: string) => string;
    readonly removed: string;
    /** The browser's prompt was cancelled or timed out: nothing was added. */
    readonly notAdded: string;
    /** This authenticator already holds a passkey of theirs (one of `excludeCredentials`). */
    readonly exists: string;
    readonly createdAt: string;
    readonly credentialId: string;
    readonly list: string;
    readonly link: string;
  };
  readonly lang: string;
}

const en: PasskeyWords = {
  required: 'Approve in the console: a passkey is required.',
  approve: 'Approve with passkey',
  approveCount: (n, needed) => `Approve with passkey (${n} of ${needed})`,
  approveAll: (steps) =>
    steps === 1 ? 'Approve the 1 step with passkey' : `Approve all ${steps} steps with passkey`,
  before: 'A passkey is required: your browser will ask for yours, and it signs exactly this payload.',
  bulk: 'Needs a passkey: approve it on its card.',
  cancelled: 'The passkey was not used: nothing was approved.',
  unsupported: 'This browser cannot use passkeys on this page: nothing was done.',
  registerFirst: 'You have no passkey yet: add one on the Passkeys page first.',
  page: {
    heading: 'Passkeys',
    intro:
      'A passkey signs the exact payload you approve, on your own device. Sends that require one can be approved only with it.',
    none: 'You have no passkey yet.',
    add: 'Add a passkey',
    label: 'Name (optional)',
    labelHint: 'Like “work laptop”',
    remove: 'Remove',
    added: (label) => (label === '' ? 'Passkey added.' : `Passkey “${label}” added.`),
    removed: 'Passkey removed.',
    notAdded: 'No passkey was added: the browser’s prompt was cancelled or timed out.',
    exists: 'This device already holds one of your passkeys: nothing was added.',
    createdAt: 'Added',
    credentialId: 'Credential',
    list: 'Your passkeys',
    link: 'Passkeys',
  },
  lang: 'en',
};

const zhCN: PasskeyWords = {
  required: '请在控制台批准：需要通行密钥。',
  approve: '使用通行密钥批准',
  approveCount: (n, needed) => `使用通行密钥批准（第 ${n}/${needed} 个）`,
  approveAll: (steps) => `使用通行密钥全部批准（共 ${steps} 步）`,
  before: '需要通行密钥：浏览器会请你使用你的通行密钥，它只对这份内容签名。',
  bulk: '需要通行密钥：请在它的卡片上批准。',
  cancelled: '未使用通行密钥：没有批准任何内容。',
  unsupported: '此浏览器无法在此页面使用通行密钥：未做任何操作。',
  registerFirst: '你还没有通行密钥：请先在“通行密钥”页面添加一个。',
  page: {
    heading: '通行密钥',
    intro: '通行密钥在你自己的设备上对你批准的内容签名。要求通行密钥的发送只能用它批准。',
    none: '你还没有通行密钥。',
    add: '添加通行密钥',
    label: '名称（可选）',
    labelHint: '例如“工作电脑”',
    remove: '移除',
    added: (label) => (label === '' ? '已添加通行密钥。' : `已添加通行密钥“${label}”。`),
    removed: '已移除通行密钥。',
    notAdded: '没有添加通行密钥：浏览器的提示已取消或超时。',
    exists: '此设备上已经有你的通行密钥：没有添加新的。',
    createdAt: '添加于',
    credentialId: '凭据',
    list: '你的通行密钥',
    link: '通行密钥',
  },
  lang: 'zh-CN',
};

/** The words about passkey approvals in `locale` (English for anything else). */
export function passkeyWords(locale: unknown): PasskeyWords {
  return locale === 'zh-CN' ? zhCN : en;
}

/** THE sentence of every surface that offers no Approve for a passkey confirmation, in `locale`. */
export function passkeyRequiredText(locale: unknown): string {
  return passkeyWords(locale).required;
}

/**
 * Whether a record (a confirmation, a notice's confirmation, a card) asks for a passkey: its
 * `requires.passkey` is `true`. Read defensively: a notice may be hand-made.
 */
export function requiresPasskey(record: { readonly requires?: unknown } | undefined): boolean {
  const requires = record?.requires;
  return (
    typeof requires === 'object' &&
    requires !== null &&
    (requires as { readonly passkey?: unknown }).passkey === true
  );
}
