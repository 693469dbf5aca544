// The detail page's edit form: one input per `editable` field, a preview that asks the server for the
// edited payload's digest and canonical JSON, and the edited payload for the card's Confirm button.
import type { Api, Card } from './api.js';
import { asText, el } from './dom.js';
import type { Strings } from './i18n.js';

export interface EditForm {
  readonly element: HTMLElement;
  /** The edited payload, or undefined while nothing differs from the shown one. */
  editedPayload(): unknown;
}

/** The form for `card`'s editable fields (strings as text, anything else as JSON). */
export function createEditForm(card: Card, api: Api, t: Strings): EditForm {
  const original = (typeof card.payload === 'object' && card.payload !== null ? card.payload : {}) as Record<
    string,
    unknown
  >;
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
    return el('div', { class: 'field' }, el('label', { for: id }, field), input);
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
  preview.addEventListener('click', async () => {
    if (preview.disabled) return;
    if (!isChanged()) {
      result.replaceChildren(el('p', {}, t.noChange));
      return;
    }
    preview.disabled = true;
    const answer = await api.preview(card.id, current());
    preview.disabled = false;
    if (!answer.ok) {
      const issues = (answer.issues ?? []).map((issue) =>
        el('li', {}, `${issue.path || '/'}: ${issue.message}`),
      );
      result.replaceChildren(
        // The message's first line; its list of issues is shown as a list.
        el('p', { class: 'bad' }, t.failedBecause(answer.code, answer.error.split('\n')[0] ?? '')),
        el('ul', {}, ...issues),
      );
      return;
    }
    result.replaceChildren(
      el('p', {}, t.changedFields(answer.changed.join(', '))),
      el('p', {}, t.previewDigest(''), el('code', { class: 'digest' }, answer.digest)),
      el('pre', { class: 'canonical' }, answer.canonicalJson),
    );
  });
  discard.addEventListener('click', () => {
    for (const [field, { input, json }] of inputs) {
      const value = original[field];
      input.value = json ? (value === undefined ? '' : JSON.stringify(value, null, 2)) : String(value);
    }
    result.replaceChildren();
  });
  for (const { input } of inputs.values()) input.addEventListener('input', () => result.replaceChildren());

  const form = el(
    'form',
    { class: 'edit', 'aria-labelledby': 'edit-title' },
    el('h2', { id: 'edit-title' }, t.edit),
    el('p', { class: 'hint' }, t.editHint),
    ...rows,
    el('div', { class: 'buttons' }, preview, discard),
    result,
  );
  form.addEventListener('submit', (event) => event.preventDefault());
  return { element: form, editedPayload: () => (isChanged() ? current() : undefined) };
}
