// Telephony: the account's carrier connections (GET /telephony-connections) with their numbers and health, and
// a Test button that reads the carrier account with the stored credentials (no call is placed). Credentials are
// set through the API (PUT /config/telephony/<carrier>); the console never shows a secret.
import { useState } from 'preact/hooks';
import { ApiError, v2 } from '../api.js';
import { formatDate, words } from '../components/format.js';
import { ErrorNotice, LoadState, useLoad } from '../components/ui.js';
import { can, Session } from '../session.js';

interface Connection {
  id: string;
  provider: string;
  label: string | null;
  account_id_masked: string | null;
  from_number: string | null;
  numbers: { id: string; number: string; is_from_number: boolean }[];
  numbers_total: number;
  health: {
    last_success: { at: string; operation: string } | null;
    last_failure: { at: string; operation: string; status: number | null; reason: string } | null;
    last_callback: { at: string } | null;
  };
}

interface TestResult {
  result: 'ok' | 'failed';
  reason: string | null;
  carrier_status: number | null;
  latency_ms: number;
  message: string;
}

const PROVIDER_NAMES: Record<string, string> = {
  sandbox: 'Sandbox',
  carrier_a: 'carrier_a',
  carrier_b: 'carrier_b',
};

function Health({ c }: { c: Connection }) {
  const { last_success: ok, last_failure: failed, last_callback: callback } = c.health;
  return (
    <div class="small">
      <div>Last REST call: {ok ? `${formatDate(ok.at)} (${ok.operation})` : '—'}</div>
      <div>
        Last failure:{' '}
        {failed
          ? `${formatDate(failed.at)} (${failed.operation}: ${failed.status ?? 'no answer'}, ${words(failed.reason)})`
          : '—'}
      </div>
      <div>Last callback: {callback ? formatDate(callback.at) : '—'}</div>
    </div>
  );
}

function TestButton({ c, onTested }: { c: Connection; onTested: () => void }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TestResult | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const name = PROVIDER_NAMES[c.provider] ?? c.provider;
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(await v2.post<TestResult>(`/telephony-connections/${encodeURIComponent(c.id)}/test`, {}));
      onTested();
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'ERROR', String(err)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <button
        type="button"
        class="secondary"
        disabled={busy}
        aria-label={`Test the ${name} connection`}
        onClick={run}
      >
        {busy ? 'Testing…' : 'Test'}
      </button>
      <div role="status" class={result?.result === 'ok' ? 'ok small' : 'error small'}>
        {result && `${result.result === 'ok' ? 'OK' : 'Failed'}: ${result.message} (${result.latency_ms} ms)`}
      </div>
      <ErrorNotice error={error} />
    </div>
  );
}

export function TelephonyPage({ session }: { session: Session }) {
  const connections = useLoad(
    () => v2.get<{ telephony_connections: Connection[] }>('/telephony-connections'),
    [],
  );
  const write = can.write(session);
  return (
    <>
      <h2>Telephony</h2>
      <p class="muted">
        The carrier connections your calls run on, their numbers and what the platform last saw of each
        carrier. Add or replace a carrier’s credentials with the API (
        <code>PUT /config/telephony/carrier_a</code> or <code>carrier_b</code>); a test reads the carrier
        account and places no call.
      </p>
      <LoadState loaded={connections}>
        {(l) => (
          <table>
            <caption class="sr-only">Carrier connections</caption>
            <thead>
              <tr>
                <th scope="col">Connection</th>
                <th scope="col">Account</th>
                <th scope="col">Numbers</th>
                <th scope="col">Health</th>
                {write && <th scope="col">Test</th>}
              </tr>
            </thead>
            <tbody>
              {l.telephony_connections.map((c) => (
                <tr key={c.id}>
                  <td>
                    {PROVIDER_NAMES[c.provider] ?? c.provider}
                    {c.label && <div class="muted small">{c.label}</div>}
                  </td>
                  <td>{c.account_id_masked ? <code>{c.account_id_masked}</code> : '—'}</td>
                  <td>
                    {c.numbers.map((n) => (
                      <div key={n.id}>
                        {n.number}
                        {n.is_from_number && <span class="muted small"> (from-number)</span>}
                      </div>
                    ))}
                    {c.numbers_total > c.numbers.length && (
                      <div class="muted small">and {c.numbers_total - c.numbers.length} more</div>
                    )}
                  </td>
                  <td>
                    <Health c={c} />
                  </td>
                  {write && (
                    <td>
                      <TestButton c={c} onTested={connections.reload} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </LoadState>
    </>
  );
}
