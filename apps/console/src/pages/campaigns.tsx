// Campaigns: progress of each, a new campaign from a CSV of contacts (the per-row report shown), and start,
// pause and resume.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, request, v2 } from '../api.js';
import { ErrorNotice, Field, LoadState, useLoad, runAction } from '../components/ui.js';
import { can, Session } from '../session.js';
import { formatDate } from '../components/format.js';

interface Campaign {
  campaign_id: string;
  name: string;
  agent_name: string;
  status: string;
  pause_reason: string | null;
  waiting_reason: string | null;
  total_contacts: number;
  completed_count: number;
  failed_count: number;
  skipped_count: number;
  concurrency_limit: number;
  created_at: string;
}

interface UploadReport {
  accepted: number;
  rejected: number;
  total_contacts: number;
  rows: { row: number; status: string; reason: string | null }[];
}

const RUNNING = new Set(['running', 'scheduled']);

export function CampaignsPage({ session }: { session: Session }) {
  const list = useLoad(
    () => v2.get<{ campaigns: Campaign[]; next_cursor: string | null }>('/campaigns', { limit: 50 }),
    [],
  );
  const [error, setError] = useState<ApiError | null>(null);
  // Progress moves while a campaign runs: the list is asked again every 3 s then.
  const running = list.data?.campaigns.some((c) => RUNNING.has(c.status));
  useEffect(() => {
    if (!running) return;
    const t = setTimeout(list.reload, 3000);
    return () => clearTimeout(t);
  }, [running, list.data]);
  const act = (c: Campaign, verb: 'start' | 'pause' | 'resume') =>
    runAction(setError, () => v2.post(`/campaigns/${c.campaign_id}/${verb}`), list.reload);
  return (
    <>
      <h2>Campaigns</h2>
      <ErrorNotice error={error} />
      {can.write(session) && <NewCampaign onCreated={list.reload} />}
      <LoadState loaded={list}>
        {(page) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Agent</th>
                <th scope="col">Status</th>
                <th scope="col">Progress</th>
                <th scope="col">Created</th>
                {can.write(session) && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {page.campaigns.map((c) => {
                const done = c.completed_count + c.failed_count + c.skipped_count;
                return (
                  <tr key={c.campaign_id}>
                    <td>{c.name}</td>
                    <td>{c.agent_name}</td>
                    <td>
                      <span class="badge">{c.status}</span> {c.pause_reason ?? c.waiting_reason ?? ''}
                    </td>
                    <td>
                      <progress
                        max={Math.max(1, c.total_contacts)}
                        value={done}
                        aria-label={`${c.name} progress`}
                      />{' '}
                      {done} / {c.total_contacts} ({c.completed_count} completed, {c.failed_count} failed,{' '}
                      {c.skipped_count} skipped)
                    </td>
                    <td>{formatDate(c.created_at)}</td>
                    {can.write(session) && (
                      <td>
                        {c.status === 'draft' && <button onClick={() => act(c, 'start')}>Start</button>}
                        {RUNNING.has(c.status) && (
                          <button class="secondary" onClick={() => act(c, 'pause')}>
                            Pause
                          </button>
                        )}
                        {c.status === 'paused' && <button onClick={() => act(c, 'resume')}>Resume</button>}
                      </td>
                    )}
                  </tr>
                );
              })}
              {page.campaigns.length === 0 && (
                <tr>
                  <td colSpan={6} class="muted">
                    No campaigns yet.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        )}
      </LoadState>
    </>
  );
}

function NewCampaign({ onCreated }: { onCreated: () => void }) {
  const agents = useLoad(
    () => v2.get<{ agents: { id: string; agent_name: string }[] }>('/agent', { limit: 100 }),
    [],
  );
  const [form, setForm] = useState({ name: '', agent_id: '', concurrency_limit: '1' });
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [report, setReport] = useState<UploadReport | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setReport(null);
    setBusy(true);
    try {
      const created = await v2.post<{ campaign_id: string }>('/campaigns', {
        name: form.name,
        agent_id: form.agent_id,
        concurrency_limit: Number(form.concurrency_limit),
      });
      if (file) {
        setReport(
          await request<UploadReport>('POST', `/v2/campaigns/${created.campaign_id}/contacts`, {
            raw: await file.text(),
            contentType: 'text/csv',
          }),
        );
      }
      setForm({ name: '', agent_id: '', concurrency_limit: '1' });
      onCreated();
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={submit}>
      <h3>New campaign</h3>
      <ErrorNotice error={error} />
      <div class="row">
        <Field label="Name" name="name" error={error}>
          {(p) => (
            <input
              {...p}
              required
              value={form.name}
              onInput={(e) => setForm({ ...form, name: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label="Agent" name="agent_id" error={error}>
          {(p) => (
            <select
              {...p}
              required
              value={form.agent_id}
              onChange={(e) => setForm({ ...form, agent_id: e.currentTarget.value })}
            >
              <option value="">Choose an agent…</option>
              {(agents.data?.agents ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.agent_name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Calls at once" name="concurrency_limit" error={error}>
          {(p) => (
            <input
              {...p}
              type="number"
              min={1}
              value={form.concurrency_limit}
              onInput={(e) => setForm({ ...form, concurrency_limit: e.currentTarget.value })}
            />
          )}
        </Field>
      </div>
      <Field
        label="Contacts (CSV)"
        name="contacts"
        hint="A header row with phone_number, optional external_id; other columns become call variables"
      >
        {(p) => (
          <input
            {...p}
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
          />
        )}
      </Field>
      <button type="submit" disabled={busy}>
        {busy ? 'Creating…' : 'Create campaign'}
      </button>
      {report && (
        <div role="status">
          <p>
            {report.accepted} contacts accepted, {report.rejected} rejected ({report.total_contacts} in the
            campaign).
          </p>
          {report.rejected > 0 && (
            <ul>
              {report.rows
                .filter((r) => r.status === 'rejected')
                .slice(0, 50)
                .map((r) => (
                  <li key={r.row}>
                    Row {r.row}: {r.reason}
                  </li>
                ))}
            </ul>
          )}
        </div>
      )}
    </form>
  );
}
