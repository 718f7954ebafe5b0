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

/** The console speaks English: countries by their English names (Intl's region names, no table to keep). */
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** A country as a person reads it: its name and code ("India (IN)"), the code alone when it has no name. */
export function countryName(code: string): string {
  let name: string | undefined;
  try {
    name = regionNames.of(code);
  } catch {
    name = undefined; // not a region code at all
  }
  return name && name !== code ? `${name} (${code})` : code;
}

let codesByName: Map<string, string> | null = null;

/** The code of a country typed by its English name ("india": IN), for the error that tells which to write. */
function codeOfName(name: string): string | undefined {
  if (!codesByName) {
    codesByName = new Map();
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (const a of letters)
      for (const b of letters) {
        const found = regionNames.of(a + b);
        // ZZ is CLDR's "Unknown Region", not a country.
        if (found && found !== a + b && a + b !== 'ZZ') codesByName.set(found.toLowerCase(), a + b);
      }
  }
  return codesByName.get(name.trim().replace(/\s+/g, ' ').toLowerCase());
}

const CODES = /^[A-Za-z]{2}(\s+[A-Za-z]{2})*$/;

/**
 * The countries typed in the form (codes separated by commas or spaces, any case) as the API takes them
 * (empty: null), or what to fix: a country's name instead of its code, or anything else that is not a code.
 */
export function countriesOf(text: string): { codes: string[] | null } | { problem: string } {
  const parts = text
    .split(/[,;\n]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  const codes: string[] = [];
  for (const part of parts) {
    if (CODES.test(part)) {
      codes.push(...part.toUpperCase().split(/\s+/));
      continue;
    }
    const code = codeOfName(part);
    return {
      problem: code
        ? `“${part}” is a country’s name: write its code, ${code}`
        : `“${part}” is not a two-letter country code (e.g. IN for India, AE for the United Arab Emirates)`,
    };
  }
  return { codes: codes.length ? [...new Set(codes)] : null };
}

/** A cap as typed: empty is the platform's limit (null), else a whole number from 1 to the limit. */
function capOf(text: string, what: string, limit: number): { cap: number | null } | { problem: string } {
  const t = text.trim();
  if (!t) return { cap: null };
  const n = /^\d+$/.test(t) ? Number(t) : NaN;
  return n >= 1 && n <= limit
    ? { cap: n }
    : { problem: `${what} must be a whole number from 1 to ${limit}, or empty for ${limit}` };
}

/** What the form shows for a policy: the account's own list and caps, empty where the default applies. */
function draftOf(policy: SmsPolicy) {
  return {
    countries: policy.allowed_countries?.join(', ') ?? '',
    perDay: policy.max_per_day === policy.max_per_day_limit ? '' : String(policy.max_per_day),
    perCall: policy.max_per_call === policy.max_per_call_limit ? '' : String(policy.max_per_call),
  };
}

export function SmsPolicyCard({ session }: { session: Session }) {
  const policy = useLoad(() => v2.get<SmsPolicy>('/messages/policy'), []);
  return (
    <LoadState loaded={policy}>
      {(p) => <SmsPolicyForm session={session} policy={p} onSaved={policy.reload} />}
    </LoadState>
  );
}

/** The API's field messages start with a lower-case word (they follow the field's name in its summary). */
const sentence = (m: string) => m.charAt(0).toUpperCase() + m.slice(1);

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
  const [d, setD] = useState(() => draftOf(policy));
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const edit = (change: Partial<typeof d>) => {
    setD({ ...d, ...change });
    setSaved(false);
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    setSaved(false);
    // Checked here first, so each field says what to type in the form's terms rather than the API's.
    const countries = countriesOf(d.countries);
    const perDay = capOf(d.perDay, 'The daily cap', policy.max_per_day_limit);
    const perCall = capOf(d.perCall, 'The cap per call', policy.max_per_call_limit);
    const problems = [
      ...('problem' in countries ? [{ field: 'allowed_countries', message: countries.problem }] : []),
      ...('problem' in perDay ? [{ field: 'max_per_day', message: perDay.problem }] : []),
      ...('problem' in perCall ? [{ field: 'max_per_call', message: perCall.problem }] : []),
    ];
    if ('problem' in countries || 'problem' in perDay || 'problem' in perCall) {
      setError(new ApiError(400, 'VALIDATION_ERROR', 'Some fields need attention', problems));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const next = await v2.patch<SmsPolicy>('/messages/policy', {
        allowed_countries: countries.codes,
        max_per_day: perDay.cap,
        max_per_call: perCall.cap,
      });
      // The form shows what was stored (codes in capitals, sorted), as a reload would.
      setD(draftOf(next));
      setSaved(true);
      onSaved();
    } catch (err) {
      const failed = err instanceof ApiError ? err : new ApiError(0, 'ERROR', String(err));
      setError(
        new ApiError(
          failed.status,
          failed.code,
          failed.message,
          failed.details.map((f) => ({ ...f, message: sentence(f.message) })),
        ),
      );
    } finally {
      setBusy(false);
    }
  };
  const applied = policy.allowed_countries ?? policy.default_allowed_countries;
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="sms-policy-h">
      <h3 id="sms-policy-h">Where your messages may go</h3>
      <p class="muted small" data-testid="sms-policy-summary">
        Texts go to {applied.length ? applied.map(countryName).join(', ') : 'no country'}
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
          onChange={(v) => edit({ countries: v })}
        />
        <div class="row">
          <TextInput
            label="Most messages per day"
            name="max_per_day"
            type="number"
            error={error}
            hint={`In any 24 hours, 1 to ${policy.max_per_day_limit}; empty: the platform’s ${policy.max_per_day_limit}`}
            value={d.perDay}
            onChange={(v) => edit({ perDay: v })}
          />
          <TextInput
            label="Most messages per call"
            name="max_per_call"
            type="number"
            error={error}
            hint={`By an agent during one call, 1 to ${policy.max_per_call_limit}; empty: ${policy.max_per_call_limit}`}
            value={d.perCall}
            onChange={(v) => edit({ perCall: v })}
          />
        </div>
        {mayChange ? (
          <button type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save message policy'}
          </button>
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
