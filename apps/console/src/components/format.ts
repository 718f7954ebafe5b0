// How the pages write values the API answers: dates, amounts, snake_case words and bodies of requests.

/** A timestamp in the reader's locale; '—' when there is none, the text itself when it is not a date. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** An amount in rupees, two decimals, a true minus sign for a debit; '—' when there is none. */
export function inr(amount: number | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  return `${amount < 0 ? '−' : ''}₹${Math.abs(amount).toFixed(2)}`;
}

/** Words for the API's snake_case values ("in_progress" -> "in progress"). */
export const words = (value: string) => value.replace(/_/g, ' ');

/** A body as text: JSON indented, anything else as it came. */
export function prettyBody(body: string | null): string {
  if (body === null || body === '') return '';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
