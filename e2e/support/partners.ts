import { randomBytes } from 'node:crypto';
import { adminApi, Envelope } from './api';

export interface CreatePartnerInput {
  name?: string;
  balance_inr?: number;
  concurrency_limit?: number;
  status?: 'pending' | 'approved' | 'suspended';
  [field: string]: unknown;
}

/** The operator API's view of a partner (fields the tests commonly read; the rest is kept). */
export interface Partner {
  id: string;
  name: string;
  status: string;
  balance_inr: number;
  concurrency_limit: number;
  [field: string]: unknown;
}

export interface CreatedPartner {
  partner: Partner;
  /** The partner's first API key (rg_live_...), shown once by the API. */
  apiKey: string;
}

/**
 * Creates a partner of its own for a test through `POST /admin/v1/partners` and returns it with its API
 * key. The name is unique unless given; `baseUrl` names a platform of the test's own.
 */
export async function createPartner(
  overrides: CreatePartnerInput = {},
  baseUrl?: string,
): Promise<CreatedPartner> {
  const body = { name: `e2e partner ${randomBytes(4).toString('hex')}`, ...overrides };
  const res = await adminApi<Envelope<{ partner: Partner; api_key: string }>>('/partners', {
    method: 'POST',
    baseUrl,
    body,
  });
  if (res.status !== 201 && res.status !== 200) {
    throw new Error(`POST /admin/v1/partners answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
  if (!res.body || res.body.success !== true) {
    throw new Error(`POST /admin/v1/partners did not succeed: ${JSON.stringify(res.body)}`);
  }
  return { partner: res.body.data.partner, apiKey: res.body.data.api_key };
}
