import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@vap/messages';
import { CarrierBAdapter } from './carrier-b/carrier-b.adapter';
import { TelephonyConfig } from '../config/telephony.config';
import { CarrierBCredentials } from '../telephony/connections/credentials-store.service';

/**
 * The partner's Sandbox connection: a carrier_b account at the platform's carrier simulator
 * (SANDBOX_CARRIER_URL). Its calls take the carrier_b code path end to end (placement, signed callbacks,
 * media stream, reconciliation); only the connection's name and the account differ. The account is the
 * platform's own, from settings, never stored per partner nor shown.
 */
@Injectable()
export class SandboxLineCarrier extends CarrierBAdapter {
  override readonly provider = 'sandbox' as const;
  // Property injection: the subclass keeps CarrierBAdapter's constructor.
  @Inject(TelephonyConfig) private readonly telephony!: TelephonyConfig;

  /**
   * Asks the simulator for an inbound call from `from` to `to`: it delivers carrier_b's signed inbound
   * webhook to `voiceUrl` (the connection's inbound route) before it answers, then plays whatever the
   * platform's markup asks for. Resolves with the call's CallSid.
   */
  async startInbound(input: { from: string; to: string; voiceUrl: string }): Promise<string> {
    const creds = await this.openCredentials();
    const res = await this.send(creds, {
      method: 'POST',
      path: '/SimulatedInboundCalls.json',
      form: new URLSearchParams({ From: input.from, To: input.to, Url: input.voiceUrl }),
    });
    return this.placedId(res, 'sid');
  }

  /**
   * Asks the simulator for an inbound SMS from `from` to `to`: it delivers carrier_b's signed inbound-SMS
   * webhook to `smsUrl` before it answers. Resolves with the message's MessageSid.
   */
  async startInboundMessage(input: {
    from: string;
    to: string;
    body: string;
    smsUrl: string;
  }): Promise<string> {
    const creds = await this.openCredentials();
    const res = await this.send(creds, {
      method: 'POST',
      path: '/SimulatedInboundMessages.json',
      form: new URLSearchParams({ From: input.from, To: input.to, Body: input.body, Url: input.smsUrl }),
    });
    return this.placedId(res, 'sid');
  }

  protected override async loadCredentials(): Promise<CarrierBCredentials> {
    const token = this.telephony.SANDBOX_AUTH_TOKEN;
    if (!token) throw AppError.downstream('sandbox is not configured on this platform (SANDBOX_AUTH_TOKEN)');
    return { account_sid: this.telephony.SANDBOX_ACCOUNT_SID, auth_token: token };
  }
}
