// Following a call or a browser session while it runs: the platform pushes each change over server-sent events
// (`event: snapshot` with the resource as GET answers it, `event: end` once it is final). When the push cannot be
// had, the page falls back to asking again every 10 s: a live view is never replaced by an error page, and a
// failed refresh keeps what is on screen.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.js';

/** How often the page asks again when the push is unavailable. */
export const FALLBACK_RELOAD_MS = 10_000;
/** Errors of the push (each a lost connection the browser retries) before the page falls back to reloading. */
export const MAX_PUSH_ERRORS = 3;

export type LiveMode = 'loading' | 'push' | 'reload' | 'final';

export interface Live<T> {
  data: T | null;
  /** The first load's error, when nothing could be shown (a page of its own: not found, forbidden). */
  error: ApiError | null;
  mode: LiveMode;
  /** A non-blocking notice: why the page is not live by push, or why the last refresh failed. */
  notice: string | null;
}

const asApiError = (e: unknown) => (e instanceof ApiError ? e : new ApiError(0, 'ERROR', String(e)));

/** A snapshot's data: the resource itself, or the API's envelope around it. */
function parseSnapshot<T>(text: string): T | null {
  try {
    const parsed = JSON.parse(text) as { success?: boolean; data?: T } | T;
    if (parsed && typeof parsed === 'object' && 'success' in parsed && 'data' in parsed)
      return (parsed as { data: T }).data;
    return parsed as T;
  } catch {
    return null;
  }
}

/**
 * Loads a resource with `load`, then, until `isFinal` says it is over, follows it over `liveUrl`'s events (or,
 * when they fail, by loading it again every 10 s).
 */
export function useLive<T>(
  key: string,
  load: () => Promise<T>,
  liveUrl: string,
  isFinal: (data: T) => boolean,
): Live<T> {
  const [state, setState] = useState<Live<T>>({ data: null, error: null, mode: 'loading', notice: null });
  const finalRef = useRef(isFinal);
  finalRef.current = isFinal;
  useEffect(() => {
    let stopped = false;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ data: null, error: null, mode: 'loading', notice: null });

    const reloadLater = () => {
      timer = setTimeout(async () => {
        try {
          const data = await load();
          if (stopped) return;
          const final = finalRef.current(data);
          setState({
            data,
            error: null,
            mode: final ? 'final' : 'reload',
            notice: final ? null : 'Live updates are unavailable: this page refreshes every 10 seconds.',
          });
          if (!final) reloadLater();
        } catch (e) {
          if (stopped) return;
          // Keeps what is on screen; tries again.
          setState((s) => ({
            ...s,
            notice: `The last refresh failed (${asApiError(e).message}); trying again in 10 seconds.`,
          }));
          reloadLater();
        }
      }, FALLBACK_RELOAD_MS);
    };

    const fallBack = () => {
      source?.close();
      source = null;
      if (stopped) return;
      setState((s) => ({
        ...s,
        mode: 'reload',
        notice: 'Live updates are unavailable: this page refreshes every 10 seconds.',
      }));
      reloadLater();
    };

    const follow = () => {
      let errors = 0;
      try {
        source = new EventSource(liveUrl);
      } catch {
        return fallBack();
      }
      setState((s) => ({ ...s, mode: 'push', notice: null }));
      source.addEventListener('snapshot', (event) => {
        const data = parseSnapshot<T>((event as MessageEvent<string>).data);
        if (data === null || stopped) return;
        errors = 0;
        setState({ data, error: null, mode: 'push', notice: null });
      });
      source.addEventListener('end', () => {
        source?.close();
        source = null;
        if (!stopped) setState((s) => ({ ...s, mode: 'final', notice: null }));
      });
      source.addEventListener('error', () => {
        if (stopped || !source) return;
        errors += 1;
        // CLOSED: the platform refused the stream (the browser will not retry); else it retries by itself.
        if (source.readyState === EventSource.CLOSED || errors >= MAX_PUSH_ERRORS) fallBack();
        else setState((s) => ({ ...s, notice: 'Live updates were interrupted; reconnecting…' }));
      });
    };

    load().then(
      (data) => {
        if (stopped) return;
        const final = finalRef.current(data);
        setState({ data, error: null, mode: final ? 'final' : 'push', notice: null });
        if (!final) follow();
      },
      (e: unknown) => {
        if (!stopped) setState({ data: null, error: asApiError(e), mode: 'final', notice: null });
      },
    );
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(timer);
    };
  }, [key]);
  return state;
}
