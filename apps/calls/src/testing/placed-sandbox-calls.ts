// A call started through calls.call.start on the fake sandbox carrier, and its progress as the sandbox carrier app
// reports it: carrier_b's status callbacks with the fields the sandbox carrier sends, delivered as the gateway
// forwards them. The specs of call outcomes play a sandbox outcome's callbacks through it.
import { CallStatusUpdatedData, CommandRequest, DomainEvents, PartnerContext } from '@vap/messages';
import { IntegrationApp } from '@vap/testing/integration';
import { CallsConfig } from '../config/calls.config';
import { CarrierRequest, FakeSandboxCarrier } from './fake-sandbox-carrier';
import { callWebhook } from './sandbox-webhooks';

export interface PlacedSandboxCall {
  callId: string;
  /** The placement the carrier was asked for (its form: To, From, TimeLimit, StatusCallback...). */
  placed: CarrierRequest;
  /** A status callback as the sandbox carrier sends it; the platform answers it 200. */
  progress(form: Record<string, string>): Promise<void>;
  /**
   * The carrier's final status callback, its record of the call (which a final callback is checked against)
   * saying the same.
   */
  end(status: string, form?: Record<string, string>): Promise<void>;
}

export async function placeSandboxCall(
  calls: IntegrationApp<CallsConfig>,
  carrier: FakeSandboxCarrier,
  partner: PartnerContext,
  request: CommandRequest<'calls.call.start'>,
): Promise<PlacedSandboxCall> {
  const { call } = await calls.send('calls.call.start', partner, request);
  const placed = carrier.requests.find(
    (r) => r.path === '/Calls.json' && r.form.get('To') === request.to_number,
  )!;
  let sequence = 0;
  const progress = async (form: Record<string, string>) => {
    const reply = await calls.send(
      'calls.callback.ingest',
      null,
      callWebhook(placed.form.get('StatusCallback')!, {
        CallSid: placed.sid!,
        From: placed.form.get('From')!,
        To: request.to_number,
        Direction: 'outbound-api',
        SequenceNumber: String(sequence++),
        Timestamp: new Date().toUTCString(),
        CallbackSource: 'call-progress-events',
        ...form,
      }),
    );
    expect(reply.status).toBe(200);
  };
  return {
    callId: call.call_id,
    placed,
    progress,
    end: async (status, form = {}) => {
      const duration = form.CallDuration ?? '0';
      carrier.known.set(placed.sid!, {
        to: request.to_number,
        from: placed.form.get('From')!,
        status,
        duration,
        date_created: new Date().toUTCString(),
      });
      await progress({ ...form, CallStatus: status, CallDuration: duration });
    },
  };
}

/** The call.status_updated data the call published, in order, once it published one of `status`. */
export async function statusUpdatesOf(
  calls: IntegrationApp<CallsConfig>,
  callId: string,
  status: string,
): Promise<CallStatusUpdatedData[]> {
  await calls.waitForEvent<CallStatusUpdatedData>(
    DomainEvents.callStatusUpdated,
    (e) => e.data.call_id === callId && e.data.status === status,
  );
  return (await calls.events(DomainEvents.callStatusUpdated))
    .map((e) => (e.event as { data: CallStatusUpdatedData }).data)
    .filter((data) => data.call_id === callId);
}
