// Usage and billing: the balance, the ledger's transactions over a range (with a CSV download of exactly what
// is listed) and usage per day as a chart.
import { useState } from 'preact/hooks';
import { allPages, ApiError, v2 } from '../api.js';
import { DailyBars } from '../components/charts.js';
import { ErrorNotice, LoadState, useLoad, Pager, useRefreshEvery } from '../components/ui.js';
import { linkProps } from '../router.js';
import { DAY, everyDay, isoDay, Transaction, transactionsCsv, UsageBucket } from './ledger.js';
import { formatDate, inr } from '../components/format.js';

/** How often the page asks again while its range includes today: a call's charge lands when the call ends. */
const REFRESH_MS = 10_000;

interface Usage {
  buckets: UsageBucket[];
  totals: { minutes: number; calls: number; credits_inr: number; platform_speech_minutes: number };
}

export function BillingPage() {
  const [from, setFrom] = useState(isoDay(new Date(Date.now() - 29 * DAY)));
  const [to, setTo] = useState(isoDay(new Date()));
  const [error, setError] = useState<ApiError | null>(null);
  const range = {
    from: `${from}T00:00:00.000Z`,
    to: new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY).toISOString(),
  };
  const balance = useLoad(() => v2.get<{ balance_inr: number }>('/billing/balance'), []);
  const [cursor, setCursor] = useState<string | undefined>();
  const transactions = useLoad(
    () =>
      v2.get<{ transactions: Transaction[]; next_cursor: string | null }>('/billing/transactions', {
        ...range,
        cursor,
        limit: 25,
      }),
    [from, to, cursor],
  );
  const usage = useLoad(() => v2.get<Usage>('/billing/usage', { ...range, group_by: 'day' }), [from, to]);
  // The first page of a range that includes today follows new charges; an older page or range stays as read.
  const following = !cursor && to >= isoDay(new Date());
  useRefreshEvery(REFRESH_MS, following, [balance, transactions, usage]);
  const download = async () => {
    setError(null);
    try {
      const rows = await allPages<Transaction>(async (c) => {
        const page = await v2.get<{ transactions: Transaction[]; next_cursor: string | null }>(
          '/billing/transactions',
          { ...range, cursor: c, limit: 100 },
        );
        return { items: page.transactions, next: page.next_cursor };
      }, 10_000);
      const url = URL.createObjectURL(new Blob([transactionsCsv(rows)], { type: 'text/csv' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `transactions-${from}-to-${to}.csv`;
      a.click();
      URL.revokeObjectURL(url);
    } catch (err) {
      setError(err as ApiError);
    }
  };
  return (
    <>
      <h2>Usage and billing</h2>
      <ErrorNotice error={error} />
      <div class="card">
        <h3>Balance</h3>
        <LoadState loaded={balance}>
          {(b) => (
            <p style="font-size:24px;margin:0" data-testid="balance">
              {inr(b.balance_inr)}
            </p>
          )}
        </LoadState>
      </div>
      <form class="card row" onSubmit={(e) => e.preventDefault()} aria-label="Range">
        <div class="field">
          <label for="b-from">From</label>
          <input
            id="b-from"
            type="date"
            value={from}
            onChange={(e) => {
              setCursor(undefined);
              setFrom(e.currentTarget.value);
            }}
          />
        </div>
        <div class="field">
          <label for="b-to">To</label>
          <input
            id="b-to"
            type="date"
            value={to}
            onChange={(e) => {
              setCursor(undefined);
              setTo(e.currentTarget.value);
            }}
          />
        </div>
        <button type="button" class="secondary" onClick={download}>
          Download CSV
        </button>
      </form>
      <section class="card" aria-labelledby="usage-h">
        <h3 id="usage-h">Usage per day</h3>
        <LoadState loaded={usage}>
          {(u) => (
            <>
              <p>
                <strong>{u.totals.minutes}</strong> minutes · <strong>{u.totals.calls}</strong> calls ·{' '}
                <strong>{inr(u.totals.credits_inr)}</strong> charged
              </p>
              <p class="muted" data-testid="platform-speech-minutes">
                <strong>{u.totals.platform_speech_minutes}</strong> of those minutes ran on speech providers
                the platform paid for (its keys, not your own).
              </p>
              <DailyBars days={everyDay(from, to, u.buckets)} label="Credits" unit="INR" />
            </>
          )}
        </LoadState>
      </section>
      <section aria-labelledby="tx-h">
        <h3 id="tx-h">Transactions</h3>
        {following && <p class="muted">New charges appear here as calls end.</p>}
        <LoadState loaded={transactions}>
          {(page) => (
            <>
              <table>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Type</th>
                    <th scope="col">Description</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Balance after</th>
                  </tr>
                </thead>
                <tbody>
                  {page.transactions.map((t) => (
                    <tr key={t.id}>
                      <td>{formatDate(t.created_at)}</td>
                      <td>
                        <span class="badge">{t.type}</span>
                      </td>
                      <td>
                        {t.call_id ? (
                          <a {...linkProps(`/calls/${t.call_id}`)}>{t.description}</a>
                        ) : (
                          t.description
                        )}
                      </td>
                      <td>{inr(t.amount_inr)}</td>
                      <td>{inr(t.balance_after_inr)}</td>
                    </tr>
                  ))}
                  {page.transactions.length === 0 && (
                    <tr>
                      <td colSpan={5} class="muted">
                        No transactions in this range.
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
    </>
  );
}
