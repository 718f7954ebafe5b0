import { randomBytes } from 'node:crypto';
import { postSignedForm, rfc2822 } from '@vap/carrier-sim';
import { rebased, SandboxCarrierConfig } from '../config/sandbox-carrier.config';
import { Log } from '../calls/simulated-calls';

/** A recipient number ending in these digits is not reachable: the message ends undelivered (30003). */
export const UNDELIVERABLE_SUFFIX = '13';
/** carrier_b's error code for an unreachable destination handset. */
const UNREACHABLE_ERROR = '30003';
/** Messages whose delivery is being reported at once; beyond it a send is refused (429), as a carrier's MPS limit. */
const MAX_IN_FLIGHT = 1000;

/** carrier_b's Message resource, as `POST Messages.json` answers it (API version 2010-04-01). */
export interface CarrierBMessageResource {
  sid: string;
  account_sid: string;
  to: string;
  from: string;
  body: string;
  status: 'queued' | 'sent' | 'delivered' | 'undelivered' | 'received';
  num_segments: string;
  direction: 'outbound-api' | 'inbound';
  date_created: string;
  error_code: number | null;
  api_version: '2010-04-01';
  uri: string;
}

export class MessageRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The carrier's SMS: a sent message is reported sent, then delivered (undelivered to a number ending in 13) on
 * its StatusCallback, signed like every callback of this carrier; an inbound SMS is delivered to the number's
 * message URL. Nothing is kept after its last report: the platform's history is the visible inbox.
 */
export class SimulatedMessages {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly config: SandboxCarrierConfig,
    private readonly log: Log,
  ) {}

  send(input: {
    to: string;
    from: string;
    body: string;
    statusCallback: string | null;
  }): CarrierBMessageResource {
    if (this.running.size >= MAX_IN_FLIGHT)
      throw new MessageRefusal(429, 20429, 'Too many messages in flight');
    const resource = this.resource(newMessageSid(), input, 'outbound-api', 'queued');
    if (input.statusCallback) {
      const url = input.statusCallback;
      const job = this.report(resource, url)
        .catch((err: Error) =>
          this.log('warn', `message ${resource.sid}: status callback failed: ${err.message}`),
        )
        .finally(() => this.running.delete(job));
      this.running.add(job);
    }
    return resource;
  }

  /** An SMS from `from` to the platform's number `to`: resolves once the number's message URL has taken it. */
  async receive(input: {
    to: string;
    from: string;
    body: string;
    url: string;
  }): Promise<CarrierBMessageResource> {
    const resource = this.resource(newMessageSid(), input, 'inbound', 'received');
    const reply = await postSignedForm({
      url: input.url,
      target: this.target(input.url),
      authToken: this.config.SANDBOX_AUTH_TOKEN,
      fields: {
        MessageSid: resource.sid,
        SmsSid: resource.sid,
        SmsMessageSid: resource.sid,
        AccountSid: resource.account_sid,
        From: input.from,
        To: input.to,
        Body: input.body,
        NumSegments: resource.num_segments,
        NumMedia: '0',
        SmsStatus: 'received',
        ApiVersion: '2010-04-01',
      },
      attempts: 3,
    });
    if (reply.status !== 200) {
      throw new MessageRefusal(502, 11200, `The message URL answered HTTP ${reply.status}`);
    }
    return resource;
  }

  /** Waits for the reports in progress, so a stopping process does not cut them off. */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  private async report(resource: CarrierBMessageResource, url: string): Promise<void> {
    const unreachable = resource.to.endsWith(UNDELIVERABLE_SUFFIX);
    const steps: [CarrierBMessageResource['status'], string | null][] = [
      ['sent', null],
      unreachable ? ['undelivered', UNREACHABLE_ERROR] : ['delivered', null],
    ];
    for (const [status, errorCode] of steps) {
      await new Promise((resolve) => setTimeout(resolve, this.config.SANDBOX_STEP_MS));
      resource.status = status;
      const fields: Record<string, string> = {
        MessageSid: resource.sid,
        SmsSid: resource.sid,
        AccountSid: resource.account_sid,
        From: resource.from,
        To: resource.to,
        MessageStatus: status,
        SmsStatus: status,
        ApiVersion: '2010-04-01',
      };
      if (errorCode) fields.ErrorCode = errorCode;
      await postSignedForm({
        url,
        target: this.target(url),
        authToken: this.config.SANDBOX_AUTH_TOKEN,
        fields,
        attempts: 3,
      });
    }
  }

  private resource(
    sid: string,
    input: { to: string; from: string; body: string },
    direction: CarrierBMessageResource['direction'],
    status: CarrierBMessageResource['status'],
  ): CarrierBMessageResource {
    const account = this.config.SANDBOX_ACCOUNT_SID;
    return {
      sid,
      account_sid: account,
      to: input.to,
      from: input.from,
      body: input.body,
      status,
      num_segments: String(Math.max(1, Math.ceil(input.body.length / 153))),
      direction,
      date_created: rfc2822(new Date()),
      error_code: null,
      api_version: '2010-04-01',
      uri: `/2010-04-01/Accounts/${account}/Messages/${sid}.json`,
    };
  }

  private target(url: string): string {
    return rebased(url, this.config.callbackBase, this.config.SANDBOX_CALLBACK_URL);
  }
}

function newMessageSid(): string {
  return `SM${randomBytes(16).toString('hex')}`;
}
