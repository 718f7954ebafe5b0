import { createHmac } from 'node:crypto';
import type { CallDirection } from '@vap/messages';

/** Headers of a lifecycle hook request (the signing scheme of every request the platform signs). */
export const LIFECYCLE_HOOK_HEADERS = {
  /** `pre_call` or `post_call`. */
  event: 'X-Vap-Event',
  /** The hook's id. */
  hookId: 'X-Vap-Hook-Id',
  /** Unix time in milliseconds when the request was sent. */
  timestamp: 'X-Vap-Timestamp',
  /** `v1=<hex HMAC-SHA256 of "<X-Vap-Timestamp>.<raw body>">`, keyed with the hook's secret. */
  signature: 'X-Vap-Signature',
} as const;

/** Body of the pre_call request. */
export interface PreCallHookRequestBody {
  event: 'pre_call';
  hook_id: string;
  call: {
    call_id: string;
    session_id: string;
    direction: CallDirection;
    from_number: string;
    to_number: string;
    agent_id: string;
    campaign_id: string | null;
    client_reference_id: string | null;
    variables: Record<string, unknown>;
  };
}

/** The pre_call answer (2xx, JSON). Every field is optional: `{}` lets the call go on unchanged. */
export interface PreCallHookAnswer {
  action?: 'continue' | 'block';
  variables?: Record<string, unknown>;
  reason?: string;
}

/** Body of the post_call request: the completed session, as session.completed reports it. */
export interface PostCallHookRequestBody {
  event: 'post_call';
  hook_id: string;
  session: Record<string, unknown>;
}

/** The signature of a hook request: `v1=` + hex HMAC-SHA256 over `<timestamp>.<raw body>`. */
export function lifecycleHookSignature(secret: string, timestampMs: string, rawBody: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestampMs}.${rawBody}`, 'utf8').digest('hex')}`;
}
