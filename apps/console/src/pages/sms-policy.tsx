// The account's SMS destination policy on the Messages page: which countries it texts, premium and fraud-flagged
// ranges refused, and its daily and per-call caps. Owners and admins change it; everyone else reads it.
import { useState } from 'preact/hooks';
import { ApiError, v2 } from '../api.js';
import { FormErrorNotice, TextInput } from '../components/inputs.js';
import { LoadState, useLoad } from '../components/ui.js';
import { can, Session } from '../session.js';

export interface SmsPolicy {
  allowed_countries: string[] | null;
  default_allowed_countries: string[];
  max_per_day: number;
  max_per_day_limit: number;
  max_per_call: number;
  max_per_call_limit: number;
  sent_last_24_hours: number;
  blocked_prefixes: string[];
  high_risk_prefixes: string[];
  updated_at: string | null;
}

/** The countries typed in the form (commas or spaces between, any case) as the API takes them; empty: null. */
export function countriesOf(text: string): string[] | null {
  const codes = text
    .split(/[\s,]+/)
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  return codes.length ? [...new Set(codes)] : null;
}

export function SmsPolicyCard({ session }: { session: Session }) {
  const policy = useLoad(() => v2.get<SmsPolicy>('/messages/policy'), []);
  return (
    <LoadState loaded={policy}>
      {(p) => <SmsPolicyForm session={session} policy={p} onSaved={policy.reload} />}
    </LoadState>
  );
}

function SmsPolicyForm({
  session,
  policy,
  onSaved,
}: {
  session: Session;
  policy: SmsPolicy;
  onSaved: () => void;
}) {
  const mayChange = can.manageTeam(session);
  const [d, setD] = useState({
    countries: policy.allowed_countries?.join(', ') ?? '',
    perDay: policy.max_per_day === policy.max_per_day_limit ? '' : String(policy.max_per_day),
    perCall: policy.max_per_call === policy.max_per_call_limit ? '' : String(policy.max_per_call),
  });
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setSaved(false);
    try {
      await v2.patch('/messages/policy', {
        allowed_countries: countriesOf(d.countries),
        max_per_day: d.perDay.trim() ? Number(d.perDay) : null,
        max_per_call: d.perCall.trim() ? Number(d.perCall) : null,
      });
      setSaved(true);
      onSaved();
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'ERROR', String(err)));
    }
  };
  const applied = policy.allowed_countries ?? policy.default_allowed_countries;
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="sms-policy-h">
      <h3 id="sms-policy-h">Where your messages may go</h3>
      <p class="muted small" data-testid="sms-policy-summary">
        Texts go to {applied.length ? applied.join(', ') : 'no country'}
        {policy.allowed_countries === null
          ? ' (the default: your numbers’ countries and the platform’s)'
          : ''}
        . At most {policy.max_per_day} a day ({policy.sent_last_24_hours} in the last 24 hours) and{' '}
        {policy.max_per_call} per call. Premium-rate and satellite numbers (
        {policy.blocked_prefixes.join(', ')}) are never texted; ranges known for SMS fraud (
        {policy.high_risk_prefixes.join(', ')}) only when you list their country here.
      </p>
      <FormErrorNotice error={error} />
      <fieldset disabled={!mayChange} style="border:0;padding:0;margin:0">
        <TextInput
          label="Allowed countries"
          name="allowed_countries"
          error={error}
          hint={`Two-letter country codes separated by commas, e.g. IN, AE; empty: the default (${policy.default_allowed_countries.join(', ') || 'none'})`}
          value={d.countries}
          onChange={(v) => setD({ ...d, countries: v })}
        />
        <div class="row">
          <TextInput
            label="Most messages per day"
            name="max_per_day"
            type="number"
            error={error}
            hint={`Any 24 hours; empty: the platform’s ${policy.max_per_day_limit}`}
            value={d.perDay}
            onChange={(v) => setD({ ...d, perDay: v })}
          />
          <TextInput
            label="Most messages per call"
            name="max_per_call"
            type="number"
            error={error}
            hint={`By an agent during one call; empty: ${policy.max_per_call_limit}`}
            value={d.perCall}
            onChange={(v) => setD({ ...d, perCall: v })}
          />
        </div>
        {mayChange ? (
          <button type="submit">Save message policy</button>
        ) : (
          <p class="muted small">Owners and admins change where messages may go.</p>
        )}{' '}
        <span role="status" class="ok">
          {saved ? 'Saved' : ''}
        </span>
      </fieldset>
    </form>
  );
}
