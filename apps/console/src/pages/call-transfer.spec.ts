import { CallTransfer, transferFacts } from './call-transfer';

const iso = (value: string | null) => (value ? value.slice(11, 19) : '—');

describe('transferFacts', () => {
  it('shows nothing for a call that was not transferred', () => {
    expect(transferFacts(null, iso)).toEqual([]);
    expect(transferFacts(undefined, iso)).toEqual([]);
  });

  it('shows a warm transfer: outcome, times, and each leg with its carrier id and state', () => {
    const transfer: CallTransfer = {
      transfer_type: 'warm',
      to_number: '+919811112222',
      reason: 'the caller asked for a human',
      outcome: 'bridged',
      requested_at: '2026-01-02T10:00:01.000Z',
      answered_at: '2026-01-02T10:00:09.000Z',
      bridged_at: '2026-01-02T10:00:20.000Z',
      legs: [
        {
          role: 'caller',
          carrier_call_id: 'CA1',
          from_number: '+14155550100',
          to_number: '+14155550111',
          status: 'bridged',
          started_at: '2026-01-02T09:59:00.000Z',
          answered_at: '2026-01-02T09:59:00.000Z',
          ended_at: null,
        },
        {
          role: 'human',
          carrier_call_id: 'CA2',
          from_number: '+14155550100',
          to_number: '+919811112222',
          status: 'bridged',
          started_at: '2026-01-02T10:00:02.000Z',
          answered_at: '2026-01-02T10:00:09.000Z',
          ended_at: null,
        },
      ],
    };
    expect(transferFacts(transfer, iso)).toEqual([
      ['Transfer', 'warm to +919811112222: bridged'],
      ['Transfer reason', 'the caller asked for a human'],
      ['Transfer requested', '10:00:01'],
      ['Human answered', '10:00:09'],
      ['Bridged', '10:00:20'],
      ['Caller leg', 'CA1 · +14155550100 → +14155550111 · bridged · answered 09:59:00'],
      ['Human leg', 'CA2 · +14155550100 → +919811112222 · bridged · answered 10:00:09'],
    ]);
  });

  it('shows a transfer under way, and one the human did not answer', () => {
    const base: CallTransfer = {
      transfer_type: 'warm',
      to_number: '+919811112222',
      reason: 'x',
      outcome: null,
      requested_at: '2026-01-02T10:00:01.000Z',
      answered_at: null,
      bridged_at: null,
      legs: [
        {
          role: 'human',
          carrier_call_id: null,
          from_number: '+1',
          to_number: '+2',
          status: 'no_answer',
          started_at: null,
          answered_at: null,
          ended_at: '2026-01-02T10:00:21.000Z',
        },
      ],
    };
    expect(transferFacts(base, iso)[0]).toEqual(['Transfer', 'warm to +919811112222: under way']);
    const facts = transferFacts({ ...base, outcome: 'no_answer' }, iso);
    expect(facts[0]).toEqual(['Transfer', 'warm to +919811112222: no answer']);
    expect(facts).toContainEqual(['Human leg', 'no carrier id · +1 → +2 · no answer · ended 10:00:21']);
    expect(facts.map((f) => f[0])).not.toContain('Bridged');
  });
});
