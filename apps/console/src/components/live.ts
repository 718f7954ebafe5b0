// Following a call or a browser session while it runs: the platform pushes each change over server-sent events
// (`event: snapshot` with the resource as GET answers it, `event: end` once it is final). When the push cannot be
// had, the page falls back to asking again every 10 s: a live view is never replaced by an error page, and a
// failed refresh keeps what is on screen.
import { useEffect, useRef, useState } from 'preact/hooks';
import { FALLBACK_RELOAD_MS, Live, liveSteps, parseSnapshot, pushGivesUp } from './live-state.js';

export type { Live, LiveMode } from './live-state.js';

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
  const [state, setState] = useState<Live<T>>(liveSteps.loading);
  const finalRef = useRef(isFinal);
  finalRef.current = isFinal;
  useEffect(() => {
    let stopped = false;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState(liveSteps.loading());

    const reloadLater = () => {
      timer = setTimeout(async () => {
        try {
          const data = await load();
          if (stopped) return;
          const final = finalRef.current(data);
          setState(liveSteps.reloaded(data, final));
          if (!final) reloadLater();
        } catch (e) {
          if (stopped) return;
          // Keeps what is on screen; tries again.
          setState((s) => liveSteps.refreshFailed(s, e));
          reloadLater();
        }
      }, FALLBACK_RELOAD_MS);
    };

    const fallBack = () => {
      source?.close();
      source = null;
      if (stopped) return;
      setState(liveSteps.fellBack);
      reloadLater();
    };

    const follow = () => {
      let errors = 0;
      try {
        source = new EventSource(liveUrl);
      } catch {
        return fallBack();
      }
      setState(liveSteps.following);
      source.addEventListener('snapshot', (event) => {
        const data = parseSnapshot<T>((event as MessageEvent<string>).data);
        if (data === null || stopped) return;
        errors = 0;
        setState(liveSteps.pushed(data));
      });
      source.addEventListener('end', () => {
        source?.close();
        source = null;
        if (!stopped) setState(liveSteps.ended);
      });
      source.addEventListener('error', () => {
        if (stopped || !source) return;
        errors += 1;
        // CLOSED: the platform refused the stream (the browser will not retry); else it retries by itself.
        if (pushGivesUp(errors, source.readyState === EventSource.CLOSED)) fallBack();
        else setState(liveSteps.interrupted);
      });
    };

    load().then(
      (data) => {
        if (stopped) return;
        const final = finalRef.current(data);
        setState(liveSteps.loaded(data, final));
        if (!final) follow();
      },
      (e: unknown) => {
        if (!stopped) setState(liveSteps.loadFailed<T>(e));
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
