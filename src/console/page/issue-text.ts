// How the page words one validation issue of an edit, for the card and the edit form alike.

/** A validation issue as a person reads it: the field's label, then what is wrong with it. */
export function issueText(
  issue: { readonly path: string; readonly message: string },
  labels: Readonly<Record<string, string>> | undefined,
): string {
  const key = issue.path.replace(/^\//, '').split('/')[0] ?? '';
  const label = key !== '' && labels !== undefined && Object.hasOwn(labels, key) ? labels[key] : key;
  return label ? `${label}: ${issue.message}` : issue.message;
}
