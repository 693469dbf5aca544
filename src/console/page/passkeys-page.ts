// The person's Passkeys page: the passkeys registered to them (name, when added, the credential id),
// Remove on each, and "Add a passkey", which runs the browser's registration ceremony with the
// server's options and registers what it answers. Every outcome is said in the role="status" line.
import { passkeyWords } from '../../messages/passkey-words.js';
import type { Api, PasskeyListed } from './api.js';
import { describeDecision, formatTime } from './decision-words.js';
import { el } from './dom.js';
import type { Strings } from './i18n.js';
import { createPasskey } from './webauthn.js';

export interface PasskeysOptions {
  readonly api: Api;
  readonly t: Strings;
  readonly locale: string;
}

/** Mounts the Passkeys page in `root`. */
export function mountPasskeys(root: HTMLElement, { api, t, locale }: PasskeysOptions): void {
  const w = passkeyWords(t.lang).page;
  const outcome = el('p', { role: 'status', class: 'outcome', 'aria-live': 'polite' });
  const list = el('ul', { class: 'passkey-list', 'aria-labelledby': 'passkeys-list-title' });
  const none = el('p', { class: 'empty', hidden: true }, w.none);
  const label = el('input', {
    type: 'text',
    id: 'passkey-label',
    name: 'label',
    autocomplete: 'off',
    maxlength: '100',
    placeholder: w.labelHint,
  });
  const add = el('button', { type: 'button', class: 'primary add-passkey' }, w.add);
  const buttons: HTMLButtonElement[] = [add];
  let busy = false;

  const say = (text: string, code: string, bad: boolean) => {
    outcome.textContent = text;
    outcome.dataset.outcome = code;
    outcome.classList.toggle('bad', bad);
  };
  const failure = (failed: { ok: false; code: string; error: string }) =>
    say(describeDecision(failed, 'confirm', t), failed.code, true);
  const setBusy = (value: boolean) => {
    busy = value;
    root.setAttribute('aria-busy', String(value));
    for (const button of buttons) button.disabled = value;
  };

  const item = (credential: PasskeyListed) => {
    const remove = el('button', { type: 'button', class: 'danger remove-passkey' }, w.remove);
    remove.setAttribute('aria-label', `${w.remove}: ${credential.label ?? credential.id}`);
    buttons.push(remove);
    remove.addEventListener('click', async () => {
      if (busy) return;
      setBusy(true);
      const removed = await api.removePasskey(credential.id);
      setBusy(false);
      if (!removed.ok) return failure(removed);
      say(w.removed, 'removed', false);
      await load();
      add.focus();
    });
    return el(
      'li',
      { class: 'passkey', 'data-id': credential.id },
      el('strong', { class: 'passkey-name' }, credential.label ?? w.heading),
      el(
        'dl',
        { class: 'fields' },
        el('dt', {}, w.createdAt),
        el(
          'dd',
          {},
          el('time', { datetime: credential.createdAt }, formatTime(credential.createdAt, locale)),
        ),
        el('dt', {}, w.credentialId),
        el('dd', {}, el('code', { class: 'credential-id' }, credential.id)),
      ),
      remove,
    );
  };

  const load = async () => {
    const listed = await api.passkeys();
    if (!listed.ok) return failure(listed);
    buttons.splice(1);
    list.replaceChildren(...listed.credentials.map(item));
    none.hidden = listed.credentials.length > 0;
  };

  add.addEventListener('click', async () => {
    if (busy) return;
    setBusy(true);
    say(t.working, 'working', false);
    const options = await api.passkeyOptions();
    if (!options.ok) {
      setBusy(false);
      return failure(options);
    }
    const made = await createPasskey(options.options);
    if (!made.ok) {
      setBusy(false);
      const words =
        made.code === 'PASSKEY_EXISTS'
          ? w.exists
          : made.code === 'PASSKEY_UNSUPPORTED'
            ? passkeyWords(t.lang).unsupported
            : w.notAdded;
      return say(words, made.code, true);
    }
    const added = await api.addPasskey(made.value, label.value);
    setBusy(false);
    if (!added.ok) return failure(added);
    label.value = '';
    say(w.added(added.credential.label ?? ''), 'added', false);
    await load();
  });

  root.replaceChildren(
    el(
      'section',
      { class: 'passkeys', 'aria-labelledby': 'passkeys-title' },
      el('h1', { id: 'passkeys-title' }, w.heading),
      el('p', { class: 'intro' }, w.intro),
      el('h2', { id: 'passkeys-list-title' }, w.list),
      list,
      none,
      el('div', { class: 'add' }, el('label', { for: 'passkey-label' }, w.label), label, add),
      outcome,
    ),
  );
  void load();
}
