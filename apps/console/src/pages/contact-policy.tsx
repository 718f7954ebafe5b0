// The contact policy: the do-not-call list (add, look up, remove, CSV export) and the account's calling window
// and frequency caps.
import { useState } from 'preact/hooks';
import { ApiError, v2 } from '../api.js';
import { ErrorNotice, Field, LoadState, useLoad, Pager, runAction } from '../components/ui.js';
import { can, Session } from '../session.js';
import { formatDate } from '../components/format.js';

interface DncEntry {
  id: string;
  kind: string;
  number: string | null;
  prefix: string | null;
  reason: string;
  source: string;
  note: string | null;
  created_at: string;
}

interface Settings {
  calling_window: { days: string[]; start: string; end: string; timezone: string } | null;
  windows_apply_to_single_calls: boolean;
  max_attempts_per_day: number | null;
  max_attempts_per_7_days: number | null;
}

const REASONS = ['opt_out', 'complaint', 'legal', 'manual'];

export function ContactPolicyPage({ session }: { session: Session }) {
  return (
    <>
      <h2>Do-not-call list and contact policy</h2>
      <PolicySettings session={session} />
      <DoNotCall session={session} />
    </>
  );
}

function PolicySettings({ session }: { session: Session }) {
  const settings = useLoad(() => v2.get<Settings>('/contact-policy/settings'), []);
  return (
    <LoadState loaded={settings}>
      {(s) => <SettingsForm session={session} settings={s} onSaved={settings.reload} />}
    </LoadState>
  );
}

function SettingsForm({
  session,
  settings,
  onSaved,
}: {
  session: Session;
  settings: Settings;
  onSaved: () => void;
}) {
  const [text, setText] = useState(JSON.stringify(settings.calling_window, null, 2));
  const [perDay, setPerDay] = useState(settings.max_attempts_per_day?.toString() ?? '');
  const [per7, setPer7] = useState(settings.max_attempts_per_7_days?.toString() ?? '');
  const [single, setSingle] = useState(settings.windows_apply_to_single_calls);
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setSaved(false);
    let window: unknown;
    try {
      window = text.trim() ? JSON.parse(text) : null;
    } catch {
      return setError(
        new ApiError(400, 'VALIDATION_ERROR', 'Not valid JSON', [
          { field: 'calling_window', message: 'calling_window must be JSON or empty' },
        ]),
      );
    }
    try {
      await v2.patch('/contact-policy/settings', {
        calling_window: window,
        windows_apply_to_single_calls: single,
        max_attempts_per_day: perDay ? Number(perDay) : null,
        max_attempts_per_7_days: per7 ? Number(per7) : null,
      });
      setSaved(true);
      onSaved();
    } catch (err) {
      setError(err as ApiError);
    }
  };
  return (
    <form class="card" onSubmit={submit}>
      <h3>Calling window and frequency caps</h3>
      <ErrorNotice error={error} />
      <fieldset disabled={!can.write(session)} style="border:0;padding:0;margin:0">
        <Field
          label="Calling window (JSON)"
          name="calling_window"
          error={error}
          hint='e.g. {"days":["mon","tue"],"start":"09:00","end":"18:00","timezone":"Asia/Kolkata"}; empty: none'
        >
          {(p) => <textarea {...p} value={text} onInput={(e) => setText(e.currentTarget.value)} />}
        </Field>
        <Field
          label="Apply the window to single calls too"
          name="windows_apply_to_single_calls"
          error={error}
        >
          {(p) => (
            <input
              {...p}
              type="checkbox"
              checked={single}
              onChange={(e) => setSingle(e.currentTarget.checked)}
            />
          )}
        </Field>
        <Field label="Most calls to one number per day" name="max_attempts_per_day" error={error}>
          {(p) => (
            <input
              {...p}
              type="number"
              min={1}
              value={perDay}
              onInput={(e) => setPerDay(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Most calls to one number per 7 days" name="max_attempts_per_7_days" error={error}>
          {(p) => (
            <input
              {...p}
              type="number"
              min={1}
              value={per7}
              onInput={(e) => setPer7(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit">Save settings</button>{' '}
        <span role="status" class="ok">
          {saved ? 'Saved' : ''}
        </span>
      </fieldset>
    </form>
  );
}

function DoNotCall({ session }: { session: Session }) {
  const [cursor, setCursor] = useState<string | undefined>();
  const list = useLoad(
    () => v2.get<{ entries: DncEntry[]; next_cursor: string | null }>('/do-not-call', { cursor, limit: 50 }),
    [cursor],
  );
  const [form, setForm] = useState({ kind: 'number', number: '', reason: 'opt_out', note: '' });
  const [error, setError] = useState<ApiError | null>(null);
  const act = (fn: () => Promise<unknown>) => runAction(setError, fn, list.reload);
  const value = form.number.trim();
  const isPrefix = form.kind === 'prefix';
  return (
    <section class="card" aria-labelledby="dnc-h">
      <h3 id="dnc-h">Do-not-call list</h3>
      <ErrorNotice error={error} />
      {can.write(session) && (
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void act(() =>
              v2.post('/do-not-call', {
                ...(isPrefix ? { prefix: value } : { number: value }),
                reason: form.reason,
                ...(form.note ? { note: form.note } : {}),
              }),
            );
          }}
        >
          <Field label="Kind" name="kind" error={error}>
            {(p) => (
              <select
                {...p}
                value={form.kind}
                onChange={(e) => setForm({ ...form, kind: e.currentTarget.value })}
              >
                <option value="number">number</option>
                <option value="prefix">prefix</option>
              </select>
            )}
          </Field>
          <Field
            label={isPrefix ? 'Prefix' : 'Number'}
            name={isPrefix ? 'prefix' : 'number'}
            error={error}
            hint={isPrefix ? 'e.g. +1900' : 'E.164, e.g. +14155550100'}
          >
            {(p) => (
              <input
                {...p}
                required
                value={form.number}
                onInput={(e) => setForm({ ...form, number: e.currentTarget.value })}
              />
            )}
          </Field>
          <Field label="Reason" name="reason" error={error}>
            {(p) => (
              <select
                {...p}
                value={form.reason}
                onChange={(e) => setForm({ ...form, reason: e.currentTarget.value })}
              >
                {REASONS.map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Note" name="note" error={error}>
            {(p) => (
              <input
                {...p}
                value={form.note}
                onInput={(e) => setForm({ ...form, note: e.currentTarget.value })}
              />
            )}
          </Field>
          <button type="submit">Add</button>
        </form>
      )}
      <LoadState loaded={list}>
        {(page) => (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">Number or prefix</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Source</th>
                  <th scope="col">Added</th>
                  {can.write(session) && <th scope="col">Remove</th>}
                </tr>
              </thead>
              <tbody>
                {page.entries.map((d) => (
                  <tr key={d.id}>
                    <td>{d.number ?? `${d.prefix}…`}</td>
                    <td>{d.reason}</td>
                    <td>{d.source}</td>
                    <td>{formatDate(d.created_at)}</td>
                    {can.write(session) && (
                      <td>
                        <button
                          class="secondary"
                          aria-label={`Remove ${d.number ?? d.prefix}`}
                          onClick={() => act(() => v2.del(`/do-not-call/${d.id}`))}
                        >
                          Remove
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
                {page.entries.length === 0 && (
                  <tr>
                    <td colSpan={5} class="muted">
                      The list is empty.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
            <Pager cursor={cursor} next={page.next_cursor} onPage={setCursor} />
          </>
        )}
      </LoadState>
    </section>
  );
}
