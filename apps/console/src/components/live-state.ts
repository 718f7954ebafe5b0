// What a live page shows as its resource changes: each step of following it (the first load, a pushed snapshot,
// the end, a lost push, a refresh) as a function from the state before to the state after, so the hook that
// drives them (live.ts) only says when each happens.
import { ApiError } from '../api.js';

/** Errors of the push (each a lost connection the browser retries) before the page falls back to reloading. */
export const MAX_PUSH_ERRORS = 3;

/** How often the page asks again when the push is unavailable; the notices say it in seconds. */
export const FALLBACK_RELOAD_MS = 10_000;
export const FALLBACK_RELOAD_SECONDS = FALLBACK_RELOAD_MS / 1000;

export type LiveMode = 'loading' | 'push' | 'reload' | 'final';

export interface Live<T> {
  data: T | null;
  /** The first load's error, when nothing could be shown (a page of its own: not found, forbidden). */
  error: ApiError | null;
  mode: LiveMode;
  /** A non-blocking notice: why the page is not live by push, or why the last refresh failed. */
  notice: string | null;
}

const RELOADING = `Live updates are unavailable: this page refreshes every ${FALLBACK_RELOAD_SECONDS} seconds.`;

const asApiError = (e: unknown) => (e instanceof ApiError ? e : new ApiError(0, 'ERROR', String(e)));

/** A snapshot's data: the resource itself, or the API's envelope around it; null when it is not JSON. */
export function parseSnapshot<T>(text: string): T | null {
  try {
    const parsed = JSON.parse(text) as { success?: boolean; data?: T } | T;
    if (parsed && typeof parsed === 'object' && 'success' in parsed && 'data' in parsed)
      return (parsed as { data: T }).data;
    return parsed as T;
  } catch {
    return null;
  }
}

export const liveSteps = {
  /** Nothing loaded yet. */
  loading: <T>(): Live<T> => ({ data: null, error: null, mode: 'loading', notice: null }),
  /** The first load answered: final already, or to be followed by push. */
  loaded: <T>(data: T, final: boolean): Live<T> => ({
    data,
    error: null,
    mode: final ? 'final' : 'push',
    notice: null,
  }),
  /** The first load failed: the error is the page. */
  loadFailed: <T>(e: unknown): Live<T> => ({ data: null, error: asApiError(e), mode: 'final', notice: null }),
  /** The push is open (again). */
  following: <T>(s: Live<T>): Live<T> => ({ ...s, mode: 'push', notice: null }),
  /** A snapshot came by push. */
  pushed: <T>(data: T): Live<T> => ({ data, error: null, mode: 'push', notice: null }),
  /** The platform said the resource is final. */
  ended: <T>(s: Live<T>): Live<T> => ({ ...s, mode: 'final', notice: null }),
  /** The push was lost and the browser reconnects by itself. */
  interrupted: <T>(s: Live<T>): Live<T> => ({ ...s, notice: 'Live updates were interrupted; reconnecting…' }),
  /** No push to be had: what is on screen stays, refreshed every 10 s. */
  fellBack: <T>(s: Live<T>): Live<T> => ({ ...s, mode: 'reload', notice: RELOADING }),
  /** A refresh answered. */
  reloaded: <T>(data: T, final: boolean): Live<T> => ({
    data,
    error: null,
    mode: final ? 'final' : 'reload',
    notice: final ? null : RELOADING,
  }),
  /** A refresh failed: what is on screen stays. */
  refreshFailed: <T>(s: Live<T>, e: unknown): Live<T> => ({
    ...s,
    notice: `The last refresh failed (${asApiError(e).message}); trying again in ${FALLBACK_RELOAD_SECONDS} seconds.`,
  }),
};

/**
 * Whether a push error ends the push: the platform refused the stream (closed: the browser will not retry), or
 * it was lost too many times in a row.
 */
export const pushGivesUp = (errorsInARow: number, closed: boolean): boolean =>
  closed || errorsInARow >= MAX_PUSH_ERRORS;
