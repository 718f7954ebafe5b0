// Small building blocks every page uses: a labelled field with its inline error, an error notice, a loader
// hook and a table.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.js';

let ids = 0;
/** A stable id for a label's `for`. */
export function useId(prefix: string): string {
  const ref = useRef<string>();
  if (!ref.current) ref.current = `${prefix}-${++ids}`;
  return ref.current;
}

export interface FieldProps {
  label: string;
  name: string;
  error?: ApiError | null;
  hint?: string;
  children: (props: {
    id: string;
    name: string;
    'aria-invalid': boolean;
    'aria-describedby'?: string;
  }) => ComponentChildren;
}

/** A label, the control (given its id and error state), a hint and the API's message for this field. */
export function Field({ label, name, error, hint, children }: FieldProps) {
  const id = useId(name.replace(/\W/g, '-'));
  const message = error?.fieldMessage(name);
  const describedBy = [hint ? `${id}-hint` : '', message ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children({
        id,
        name,
        'aria-invalid': Boolean(message),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {hint && (
        <small id={`${id}-hint`} class="muted">
          {hint}
        </small>
      )}
      {message && (
        <div id={`${id}-error`} class="error" role="alert">
          {message}
        </div>
      )}
    </div>
  );
}

/** An API error as the user should read it; field errors are shown at their fields, listed here too. */
export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const e = error instanceof ApiError ? error : new ApiError(0, 'ERROR', String(error));
  return (
    <div class="card error" role="alert">
      <strong>{e.message}</strong>
      {e.details.length > 0 && (
        <ul>
          {e.details.map((d) => (
            <li key={d.field}>
              {d.field}: {d.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export interface Loaded<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs `load` when `deps` change (and on reload), keeping the last answer or error. A reload that fails keeps the
 * data it would have replaced beside its error, so a refreshed view does not go blank; new deps start afresh.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: ApiError | null; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const reloading = useRef(false);
  useEffect(() => {
    let live = true;
    const keep = reloading.current;
    reloading.current = false;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error: unknown) =>
        live &&
        setState((s) => ({
          data: keep ? s.data : null,
          error: error instanceof ApiError ? error : new ApiError(0, 'ERROR', String(error)),
          loading: false,
        })),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => {
    reloading.current = true;
    setTick((t) => t + 1);
  }, []);
  return { ...state, reload };
}

/**
 * Reloads `loads` every `ms` while `active` and the page is in view: for views of what is still changing (a
 * balance, today's charges). Hidden tabs ask nothing.
 */
export function useRefreshEvery(ms: number, active: boolean, loads: Loaded<unknown>[]): void {
  const latest = useRef(loads);
  latest.current = loads;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      for (const loaded of latest.current) if (!loaded.loading) loaded.reload();
    }, ms);
    return () => clearInterval(timer);
  }, [ms, active]);
}

/** What a load shows while it runs or when it failed; children once it has data. */
export function LoadState<T>({
  loaded,
  children,
}: {
  loaded: Loaded<T>;
  children: (data: T) => ComponentChildren;
}) {
  if (loaded.data === null) {
    return loaded.error ? <ErrorNotice error={loaded.error} /> : <p class="muted">Loading…</p>;
  }
  // A failed refresh: its error, above what was last loaded.
  return (
    <>
      {loaded.error && <ErrorNotice error={loaded.error} />}
      {children(loaded.data)}
    </>
  );
}

/** Copies text to the clipboard, telling the user whether it worked. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        class="secondary"
        onClick={() =>
          navigator.clipboard.writeText(text).then(
            () => setDone('Copied'),
            () => setDone('Copy failed: select the text and copy it'),
          )
        }
      >
        {label}
      </button>{' '}
      <span role="status" class="muted">
        {done ?? ''}
      </span>
    </>
  );
}

/** Cursor paging under a list: back to the first page, and on to the next while there is one. */
export function Pager({
  cursor,
  next,
  onPage,
}: {
  cursor: string | undefined;
  next: string | null;
  onPage: (cursor: string | undefined) => void;
}) {
  return (
    <div class="pager">
      {cursor && (
        <button class="secondary" onClick={() => onPage(undefined)}>
          First page
        </button>
      )}{' '}
      {next && (
        <button class="secondary" onClick={() => onPage(next)}>
          Next page
        </button>
      )}
    </div>
  );
}

/**
 * Runs a change the user asked for: clears the last error, shows this one's through setError, and on success
 * calls `after` (a reload). True when it worked.
 */
export async function runAction(
  setError: (error: ApiError | null) => void,
  change: () => Promise<unknown>,
  after: () => void,
): Promise<boolean> {
  setError(null);
  try {
    await change();
  } catch (err) {
    setError(err instanceof ApiError ? err : new ApiError(0, 'ERROR', String(err)));
    return false;
  }
  after();
  return true;
}
