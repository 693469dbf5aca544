// Live updates: the server's event stream (`P/api/events`) says which confirmation changed; the view
// fetches it again. EventSource reconnects by itself (the server sends `retry: 3000`).

/** Listens for `change` events; `onState` says whether the stream is connected. */
export function listen(
  url: string,
  onNotice: (notice: { id?: string }) => void,
  onState: (connected: boolean) => void,
): () => void {
  if (typeof EventSource === 'undefined') return () => {};
  const source = new EventSource(url);
  source.addEventListener('open', () => onState(true));
  source.addEventListener('error', () => onState(false));
  source.addEventListener('change', (event) => {
    let notice: { id?: string } = {};
    try {
      const data: unknown = JSON.parse((event as MessageEvent<string>).data);
      if (typeof data === 'object' && data !== null && typeof (data as { id?: unknown }).id === 'string') {
        notice = { id: (data as { id: string }).id };
      }
    } catch {
      // A notice we cannot read still means "something changed".
    }
    onNotice(notice);
  });
  return () => source.close();
}
