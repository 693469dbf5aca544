import type { BundleView } from '../../confirm/bundles/bundle-view.js';
import type { CanDecideOptions } from '../../confirm/types.js';
import type { Confirmation } from '../../confirmation.js';
import { payloadLabels } from '../../console/payload-labels.js';
import { bundleRejectedText } from '../../messages/bundle-words.js';
import { gradeOf } from '../../messages/grade-words.js';
import type { Locale } from '../../messages/index.js';
import { isRecord } from '../../util/is-record.js';
import type { ApprovalMessages } from './approval-messages.js';
import { bundleMessage } from './bundle-blocks.js';
import type { ButtonClick, FormSubmit } from './interaction.js';
import { showsWholePayload } from './message-blocks.js';
import type { MessageLocator } from './message-locator.js';
import {
  editedPayload,
  editModal,
  fieldBlock,
  type ModalMeta,
  REASON_BLOCK,
  rejectModal,
} from './modal-views.js';
import type { People, SlackPerson } from './person.js';
import type { SlackApi } from './slack-api.js';
import type { SlackRegistry } from './slack-registry.js';
import { type SlackWords, slackWords } from './slack-words.js';

/** What the decisions are made with. */
export interface DecisionSettings {
  readonly registry: () => SlackRegistry;
  readonly people: People;
  readonly messages: ApprovalMessages;
  readonly locator: MessageLocator;
  readonly api: SlackApi;
  readonly locale: () => Locale;
}

/** The answer to an edit modal's submission: errors to show in it, or what to do once it closed. */
export type EditAnswer =
  | { readonly errors: Readonly<Record<string, string>> }
  | { readonly afterwards: () => Promise<void> };

/**
 * What a click or a modal in Slack asks of the registry. The Slack user is mapped to a person by the
 * app first (nobody: nothing is decided, and they are told so, to themselves only); then every
 * decision is a `registry.confirm`, `registry.reject` or (Undo) `registry.cancel` with that person, so the one check list
 * decides. The one thing Slack itself must answer is whether its card showed the whole payload: an
 * Approve or Edit of one that did not is refused here, decided from the stored record (never from the
 * button), whatever button arrives. A modal opens only when `canDecide` (the same list, asked dry) says
 * the decision could pass. After each attempt the message is drawn again from the store.
 */
export class SlackDecisions {
  readonly #s: DecisionSettings;

  constructor(settings: DecisionSettings) {
    this.#s = settings;
  }

  async click(click: ButtonClick): Promise<void> {
    const person = await this.#s.people.of(click.user);
    if (person === undefined) return this.#s.messages.tell(click.channel, click.user, this.#words.notLinked);
    const { id, digest } = click.value;
    if (click.channel !== undefined && click.messageTs !== undefined)
      this.#s.locator.remember(id, { channel: click.channel, ts: click.messageTs });
    const to = { channel: click.channel, user: click.user };
    if (click.action === 'approve') return this.#approve(id, person, { digest, payload: undefined, to });
    if (click.action === 'cancel') return this.#undo(id, person, to);
    const kind = click.action === 'reject' ? 'reject' : 'confirm';
    if (kind === 'confirm' && !(await this.#shownWhole(id, to))) return;
    // "Reject all" on a bundle's card asks about the step a rejection decides: its first pending one.
    const bundled = kind === 'reject' ? await this.#bundleOf(id) : undefined;
    const asks = bundled?.steps.find((step) => step.status === 'pending')?.id ?? id;
    const record = await this.#decidable(asks, kind, person, to);
    if (record === undefined || click.triggerId === undefined) return;
    const meta: ModalMeta = {
      id,
      digest,
      ...(click.channel === undefined ? {} : { channel: click.channel }),
      ...(click.messageTs === undefined ? {} : { ts: click.messageTs }),
    };
    const view = click.action === 'reject' ? this.#rejectView(record, meta) : this.#editView(record, meta);
    if (view === undefined)
      return this.#s.messages.tell(click.channel, click.user, this.#words.tooLongToEdit);
    await this.#s.api.openView({ triggerId: click.triggerId, view });
  }

  /** The reject modal submitted: the registry rejects, with the reason given. */
  async submitReject(submit: FormSubmit): Promise<void> {
    const { meta, user } = submit;
    const person = await this.#s.people.of(user);
    if (person === undefined) return this.#s.messages.tell(meta.channel, user, this.#words.notLinked);
    this.#rememberPlace(meta);
    const reason = submit.values[REASON_BLOCK];
    const bundled = await this.#bundleOf(meta.id);
    if (bundled !== undefined && this.#s.registry().rejectBundle !== undefined)
      return this.#rejectBundle(bundled, person, { reason, channel: meta.channel, user });
    const rejected = await this.#s.registry().reject(meta.id, {
      rejectedBy: person.id,
      ...(reason === undefined || reason.trim() === '' ? {} : { reason }),
      locale: this.#s.locale(),
    });
    if (!rejected.ok) await this.#s.messages.tell(meta.channel, user, this.#words.notDone(rejected.error));
    await this.#s.messages.refresh(meta.id);
  }

  /**
   * The edit modal submitted: the edit is checked by `confirmations.checkEdit` while Slack waits, so a
   * refused one is shown in the modal; an accepted one is confirmed with that payload once it closed.
   */
  async submitEdit(submit: FormSubmit): Promise<EditAnswer> {
    const { meta, user } = submit;
    const fields = meta.fields ?? [];
    const first = fieldBlock(0);
    const person = await this.#s.people.of(user);
    if (person === undefined || fields.length === 0) return { errors: { [first]: this.#words.notLinked } };
    const registry = this.#s.registry();
    const read = await registry.confirmations.get(meta.id, { locale: this.#s.locale() });
    if (!read.ok) return { errors: { [first]: read.error } };
    const original = read.confirmation.payload;
    if (!isRecord(original)) return { errors: { [first]: this.#words.tooLongToEdit } };
    const payload = editedPayload(original, fields, submit.values);
    const checked = await registry.confirmations.checkEdit(meta.id, payload, { locale: this.#s.locale() });
    if (!checked.ok) return { errors: fieldErrors(fields, checked.error, checked.issues) };
    this.#rememberPlace(meta);
    const to = { channel: meta.channel, user };
    const edited = checked.changed.length === 0 ? undefined : payload;
    return { afterwards: () => this.#approve(meta.id, person, { digest: meta.digest, payload: edited, to }) };
  }

  async #approve(
    id: string,
    person: SlackPerson,
    asked: { digest: string; payload: unknown; to: { channel: string | undefined; user: string } },
  ): Promise<void> {
    const bundled = await this.#bundleOf(id);
    if (bundled !== undefined) return this.#approveBundle(bundled, person, asked);
    if (!(await this.#shownWhole(id, asked.to))) return;
    const result = await this.#s.registry().confirm(id, {
      approvedBy: person.id,
      digest: asked.digest,
      ...(asked.payload === undefined ? {} : { payload: asked.payload }),
      ...(person.flags === undefined ? {} : { flags: person.flags }),
      ...(person.scope === undefined ? {} : { scope: person.scope }),
      locale: this.#s.locale(),
    });
    const { channel, user } = asked.to;
    // A short approval is told as the registry words it; a failed delivery, and a held send's time
    // and its Undo, show on the message.
    if (!result.ok && result.code === 'AWAITING_APPROVALS')
      await this.#s.messages.tell(channel, user, result.error);
    else if (!result.ok && result.code !== 'DELIVERY_FAILED' && result.code !== 'SCHEDULED')
      await this.#s.messages.tell(channel, user, this.#words.notDone(result.error));
    await this.#s.messages.refresh(id);
  }

  /** The bundle `id` is a step of, as stored now; `undefined` for a confirmation of its own. */
  async #bundleOf(id: string): Promise<BundleView | undefined> {
    const { confirmations } = this.#s.registry();
    const read = await confirmations.get(id, { locale: this.#s.locale() });
    if (!read.ok || read.confirmation.bundle === undefined) return undefined;
    const bundle = await confirmations.bundle(read.confirmation.bundle.id, { locale: this.#s.locale() });
    return bundle.ok ? bundle.bundle : undefined;
  }

  /**
   * "Approve all N steps" on a bundle's card: only when the card, drawn from the bundle as stored, shows
   * every step whole; then `confirmBundle` with the bundle digest the card carried, as this person.
   */
  async #approveBundle(
    bundle: BundleView,
    person: SlackPerson,
    asked: { digest: string; to: { channel: string | undefined; user: string } },
  ): Promise<void> {
    const registry = this.#s.registry();
    const locale = this.#s.locale();
    const { channel, user } = asked.to;
    const first = bundle.steps[0]?.id ?? bundle.id;
    const drawn = bundleMessage({
      bundle,
      tool: (name) => registry.confirmations.tool(name),
      locale,
      nameOf: (id) => id,
    });
    if (!drawn.isWhole || registry.confirmBundle === undefined) {
      await this.#s.messages.tell(
        channel,
        user,
        this.#words.notApprovableHere(this.#s.messages.consoleLink(first)),
      );
      await this.#s.messages.refresh(first);
      return;
    }
    const result = await registry.confirmBundle(bundle.id, {
      approvedBy: person.id,
      digest: asked.digest,
      ...(person.flags === undefined ? {} : { flags: person.flags }),
      ...(person.scope === undefined ? {} : { scope: person.scope }),
      locale,
    });
    if (!result.ok) await this.#s.messages.tell(channel, user, this.#words.notDone(result.error));
    await this.#s.messages.refresh(first);
  }

  /**
   * "Reject all" on a bundle's card: `rejectBundle` as this person, which stops every step not gone out
   * (a held one too); the person is told what it stopped and what had already gone.
   */
  async #rejectBundle(
    bundle: BundleView,
    person: SlackPerson,
    asked: { reason: string | undefined; channel: string | undefined; user: string },
  ): Promise<void> {
    const locale = this.#s.locale();
    const result = await this.#s.registry().rejectBundle?.(bundle.id, {
      rejectedBy: person.id,
      ...(asked.reason === undefined || asked.reason.trim() === '' ? {} : { reason: asked.reason }),
      locale,
    });
    if (result === undefined) return;
    const said = result.ok ? bundleRejectedText(result, locale) : this.#words.notDone(result.error);
    await this.#s.messages.tell(asked.channel, asked.user, said);
    await this.#s.messages.refresh(bundle.steps[0]?.id ?? bundle.id);
  }

  /**
   * Undo on a held send: `registry.cancel` as this person, with no `authorize` — so the check list lets
   * only someone who approved it take it back (and not once it is being sent).
   */
  async #undo(
    id: string,
    person: SlackPerson,
    to: { channel: string | undefined; user: string },
  ): Promise<void> {
    const result = await this.#s.registry().cancel(id, { by: person.id, locale: this.#s.locale() });
    if (!result.ok) await this.#s.messages.tell(to.channel, to.user, this.#words.notDone(result.error));
    await this.#s.messages.refresh(id);
  }

  /**
   * Whether the card of `id` shows its whole payload, from the record as stored (the digest a confirm
   * pins is that record's, or the confirm is refused). When not, the person is told where to decide,
   * the card is drawn again (a stale one loses its Approve), and nothing is decided.
   */
  async #shownWhole(id: string, to: { channel: string | undefined; user: string }): Promise<boolean> {
    const registry = this.#s.registry();
    const locale = this.#s.locale();
    const read = await registry.confirmations.get(id, { locale });
    if (!read.ok) return true; // the confirm itself answers a missing or unreadable one
    const tool = registry.confirmations.tool(read.confirmation.tool);
    if (showsWholePayload({ confirmation: read.confirmation, tool, locale })) return true;
    await this.#s.messages.tell(
      to.channel,
      to.user,
      this.#words.notApprovableHere(this.#s.messages.consoleLink(id)),
    );
    await this.#s.messages.refresh(id);
    return false;
  }

  /** The record, when the check list asked dry says this person's decision could pass; else they are told why. */
  async #decidable(
    id: string,
    kind: CanDecideOptions['kind'],
    person: SlackPerson,
    to: { channel: string | undefined; user: string },
  ): Promise<Confirmation | undefined> {
    const { confirmations } = this.#s.registry();
    const locale = this.#s.locale();
    const read = await confirmations.get(id, { locale });
    if (!read.ok) {
      await this.#s.messages.tell(to.channel, to.user, this.#words.notDone(read.error));
      return undefined;
    }
    const may = await confirmations.canDecide(read.confirmation, {
      kind,
      person: { id: person.id, flags: person.flags, scope: person.scope },
      locale,
    });
    if (may.ok) return read.confirmation;
    await this.#s.messages.tell(to.channel, to.user, this.#words.notDone(may.error));
    await this.#s.messages.refresh(id);
    return undefined;
  }

  #rejectView(record: Confirmation, meta: ModalMeta) {
    const tool = this.#s.registry().confirmations.tool(record.tool);
    return rejectModal(meta, tool?.title ?? record.tool, slackWords(this.#s.locale(), gradeOf(record, tool)));
  }

  #editView(record: Confirmation, meta: ModalMeta) {
    const tool = this.#s.registry().confirmations.tool(record.tool);
    if (tool === undefined || !isRecord(record.payload)) return undefined;
    return editModal({
      meta,
      payload: record.payload,
      editable: tool.editable,
      labels: payloadLabels(tool.payloadSchema, this.#s.locale()),
      words: slackWords(this.#s.locale(), gradeOf(record, tool)),
    });
  }

  #rememberPlace(meta: ModalMeta): void {
    if (meta.channel !== undefined && meta.ts !== undefined)
      this.#s.locator.remember(meta.id, { channel: meta.channel, ts: meta.ts });
  }

  get #words(): SlackWords {
    return slackWords(this.#s.locale());
  }
}

/** A refused edit's problems by input: each issue at its field, the rest at the first field. */
function fieldErrors(
  fields: readonly string[],
  error: string,
  issues: readonly { readonly path: string; readonly message: string }[] | undefined,
): Record<string, string> {
  const errors: Record<string, string> = {};
  const add = (block: string, text: string) => {
    errors[block] = (errors[block] === undefined ? text : `${errors[block]}; ${text}`).slice(0, 500);
  };
  for (const issue of issues ?? []) {
    const field = issue.path.split('/')[1]?.replaceAll('~1', '/').replaceAll('~0', '~');
    const index = field === undefined ? -1 : fields.indexOf(field);
    add(fieldBlock(Math.max(0, index)), issue.message);
  }
  if (Object.keys(errors).length === 0) add(fieldBlock(0), error);
  return errors;
}
