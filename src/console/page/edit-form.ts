// The detail page's edit form: one input per `editable` field, and a Preview that asks the server to
// check the edit. Only a previewed edit can be confirmed: the form says which state it is in, and the
// card shows the previewed payload and its digest — so Confirm sends exactly what the card shows.
import type { Api, Card } from './api.js';
import { asText, el } from './dom.js';
import type { Strings } from './i18n.js';
import { issueText } from './issue-text.js';

/**
 * Where the edit stands: nothing changed (the card shows the stored payload), changed but not
 * previewed, refused by the preview, or previewed — the payload, digest and canonical JSON the
 * server checked, which the card now shows and Confirm sends.
 */
export type EditState =
  | { readonly kind: 'none' }
  | { readonly kind: 'unpreviewed' }
  | { readonly kind: 'invalid' }
  | {
      readonly kind: 'previewed';
      readonly payload: unknown;
      readonly digest: string;
      readonly canonicalJson: string;
      readonly changed: readonly string[];
    };

export interface EditForm {
  readonly element: HTMLElement;
  state(): EditState;
}

/**
 * The form for `card`'s editable fields (strings as text, anything else as JSON); `onChange` is
 * called whenever its state changes (typing, a preview's answer, a discard).
 */
export function createEditForm(card: Card, api: Api, t: Strings, onChange: () => void): EditForm {
  const original = (typeof card.payload === 'object' && card.payload !== null ? card.payload : {}) as Record<
    string,
    unknown
  >;
  let state: EditState = { kind: 'none' };
  const setState = (next: EditState) => {
    const was = state.kind;
    state = next;
    if (was !== next.kind || next.kind === 'previewed') onChange();
  };
  const inputs = new Map<string, { input: HTMLTextAreaElement; json: boolean }>();
  const rows = card.editable.map((field) => {
    const value = original[field];
    const json = typeof value !== 'string';
    const text = json ? (value === undefined ? '' : JSON.stringify(value, null, 2)) : value;
    const id = `edit-${field}`;
    const input = el('textarea', {
      id,
      name: field,
      rows: String(Math.min(8, Math.max(2, text.split('\n').length + 1))),
    });
    input.value = text;
    inputs.set(field, { input, json });
    const label = Object.hasOwn(card.labels, field) ? (card.labels[field] ?? field) : field;
    return el('div', { class: 'field' }, el('label', { for: id }, label), input);
  });

  const current = (): Record<string, unknown> => {
    const edited: Record<string, unknown> = { ...original };
    for (const [field, { input, json }] of inputs) {
      if (!json) edited[field] = input.value;
      else if (input.value.trim() === '') delete edited[field];
      else {
        try {
          edited[field] = JSON.parse(input.value);
        } catch {
          edited[field] = input.value;
        }
      }
    }
    return edited;
  };
  const isChanged = () => {
    const edited = current();
    return card.editable.some((field) => asText(edited[field]) !== asText(original[field]));
  };

  const result = el('div', { class: 'preview', role: 'status', 'aria-live': 'polite' });
  const preview = el('button', { type: 'button', class: 'secondary' }, t.preview);
  const discard = el('button', { type: 'button', class: 'secondary' }, t.discard);
  // Each preview is numbered: an answer to an older one (the person typed on) is dropped.
  let asked = 0;
  preview.addEventListener('click', async () => {
    if (preview.disabled) return;
    if (!isChanged()) {
      result.replaceChildren(el('p', {}, t.noChange));
      setState({ kind: 'none' });
      return;
    }
    preview.disabled = true;
    const mine = ++asked;
    const answer = await api.preview(card.id, current());
    preview.disabled = false;
    if (mine !== asked) return;
    if (!answer.ok) {
      const issues = (answer.issues ?? []).map((issue) => el('li', {}, issueText(issue, card.labels)));
      result.replaceChildren(
        el('p', { class: 'bad' }, t.previewFailed, ' ', t.notDone[answer.code] ?? t.notDoneOther),
        el('ul', {}, ...issues),
      );
      setState({ kind: 'invalid' });
      return;
    }
    const changed = answer.changed.map((field) =>
      Object.hasOwn(card.labels, field) ? (card.labels[field] ?? field) : field,
    );
    result.replaceChildren(
      el('p', {}, answer.changed.length === 0 ? t.noChange : t.changedFields(changed.join(', '))),
      el('p', {}, t.previewDigest(''), el('code', { class: 'digest' }, answer.digest)),
    );
    setState(
      answer.changed.length === 0
        ? { kind: 'none' }
        : {
            kind: 'previewed',
            payload: answer.payload ?? current(),
            digest: answer.digest,
            canonicalJson: answer.canonicalJson,
            changed: answer.changed,
          },
    );
  });
  discard.addEventListener('click', () => {
    asked++;
    for (const [field, { input, json }] of inputs) {
      const value = original[field];
      input.value = json ? (value === undefined ? '' : JSON.stringify(value, null, 2)) : String(value);
    }
    result.replaceChildren();
    setState({ kind: 'none' });
  });
  for (const { input } of inputs.values())
    input.addEventListener('input', () => {
      asked++;
      result.replaceChildren();
      setState(isChanged() ? { kind: 'unpreviewed' } : { kind: 'none' });
    });

  const form = el(
    'form',
    { class: 'edit', 'aria-labelledby': 'edit-title' },
    el('h2', { id: 'edit-title' }, t.edit),
    el('p', { class: 'hint' }, t.editHint),
    // Approvals are of one payload: an edit asks everyone again.
    (card.quorum?.approvedBy.length ?? 0) > 0 && el('p', { class: 'hint' }, t.editRestartsApprovals),
    ...rows,
    el('div', { class: 'buttons' }, preview, discard),
    result,
  );
  form.addEventListener('submit', (event) => event.preventDefault());
  return { element: form, state: () => state };
}
