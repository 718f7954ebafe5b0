import { RawCarrierEvent } from '../../progress/raw-carrier-event';
import { carrierACallRecord } from '../carrier-a/carrier-a-fields';
import { carrierBCallState } from '../carrier-b/carrier-b-fields';
import { claimsTerminal, reconciledEvent } from './reconciled-event';

const event = (over: Partial<RawCarrierEvent>): RawCarrierEvent => ({
  provider: 'carrier_b',
  kind: 'status',
  dedupeKey: 'status:busy',
  providerStatus: 'busy',
  providerEvent: 'call-progress-events',
  sequence: null,
  ended: true,
  occurredAt: new Date('2026-01-01T00:00:00Z'),
  durationSeconds: 0,
  billDurationSeconds: 0,
  ...over,
});

describe('carrier reconciliation of final callbacks', () => {
  it('checks only events that would end the call', () => {
    expect(claimsTerminal(event({}))).toBe(true);
    expect(claimsTerminal(event({ providerStatus: 'in-progress', ended: false }))).toBe(false);
    expect(claimsTerminal(event({ kind: 'recording' }))).toBe(false);
  });

  it('replaces the claimed status and times with the carrier’s record', () => {
    const applied = reconciledEvent(event({}), {
      live: false,
      providerStatus: 'completed',
      durationSeconds: 95,
      billDurationSeconds: null,
    });
    expect(applied).toMatchObject({
      providerStatus: 'completed',
      durationSeconds: 95,
      billDurationSeconds: 95,
      dedupeKey: 'status:busy',
      reconciliation: 'verified',
    });
  });

  it('drops how the callback says the call ended when the carrier’s record contradicts its status', () => {
    const claimed = event({
      provider: 'carrier_a',
      providerStatus: 'busy',
      hangupCause: 'User Busy',
      hangupSource: 'callee',
      errorMessage: 'busy',
    });
    const recorded = { live: false as const, durationSeconds: 20, billDurationSeconds: 20 };
    expect(
      reconciledEvent(claimed, { ...recorded, providerStatus: 'completed', hangupCause: 'Normal Hangup' }),
    ).toMatchObject({
      providerStatus: 'completed',
      hangupCause: 'Normal Hangup',
      hangupSource: null,
      errorMessage: null,
    });
    // A record without a cause of its own leaves none rather than the contradicted one.
    expect(reconciledEvent(claimed, { ...recorded, providerStatus: 'completed' })).toMatchObject({
      hangupCause: null,
      hangupSource: null,
    });
  });

  it('keeps how the callback says the call ended when the carrier’s record agrees', () => {
    const claimed = event({
      providerStatus: 'completed',
      hangupCause: 'NORMAL_CLEARING',
      hangupSource: 'callee',
    });
    expect(
      reconciledEvent(claimed, {
        live: false,
        providerStatus: 'completed',
        durationSeconds: 20,
        billDurationSeconds: 20,
      }),
    ).toMatchObject({ hangupCause: 'NORMAL_CLEARING', hangupSource: 'callee' });
  });

  it('reads carrier_b’s Call resource', () => {
    expect(carrierBCallState({ status: 'in-progress', duration: null })).toEqual({
      live: true,
      providerStatus: 'in-progress',
    });
    expect(carrierBCallState({ status: 'completed', duration: '42' })).toMatchObject({
      live: false,
      providerStatus: 'completed',
      durationSeconds: 42,
      billDurationSeconds: 42,
    });
    expect(() => carrierBCallState({ status: 'teleported' })).toThrow(/unknown call status/);
  });

  it('reads carrier_a’s call record, and refuses another call’s', () => {
    const call = { fromNumber: '+919812300001', toNumber: '+919812301002' };
    const record = {
      call_state: 'ANSWER',
      call_duration: 30,
      bill_duration: 60,
      from_number: '919812300001',
      to_number: '919812301002',
      hangup_cause_name: 'Normal Hangup',
    };
    expect(carrierACallRecord(record, call)).toEqual({
      live: false,
      providerStatus: 'completed',
      durationSeconds: 30,
      billDurationSeconds: 60,
      hangupCause: 'Normal Hangup',
    });
    expect(carrierACallRecord({ ...record, call_state: 'BUSY', call_duration: 0 }, call).providerStatus).toBe(
      'busy',
    );
    expect(() => carrierACallRecord({ ...record, to_number: '919800000000' }, call)).toThrow(/another call/);
  });
});
