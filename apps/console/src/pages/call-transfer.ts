// A call's transfer to a human as the call page shows it: how it went (type, number, outcome), its times, and
// each leg with the carrier's id and state. GET /calls/{id} `transfer`.

export interface TransferLeg {
  role: string;
  carrier_call_id: string | null;
  from_number: string;
  to_number: string;
  status: string;
  started_at: string | null;
  answered_at: string | null;
  ended_at: string | null;
}

export interface CallTransfer {
  transfer_type: string;
  to_number: string;
  reason: string;
  outcome: string | null;
  requested_at: string;
  answered_at: string | null;
  bridged_at: string | null;
  legs: TransferLeg[];
}

const words = (value: string) => value.replace(/_/g, ' ');

/** The facts rows of a transfer (none when the call was not transferred); `when` writes a time. */
export function transferFacts(
  transfer: CallTransfer | null | undefined,
  when: (iso: string | null) => string,
): [string, string][] {
  if (!transfer) return [];
  const rows: [string, string][] = [
    [
      'Transfer',
      `${transfer.transfer_type} to ${transfer.to_number}: ${transfer.outcome ? words(transfer.outcome) : 'under way'}`,
    ],
    ['Transfer reason', transfer.reason],
    ['Transfer requested', when(transfer.requested_at)],
  ];
  if (transfer.answered_at) rows.push(['Human answered', when(transfer.answered_at)]);
  if (transfer.bridged_at) rows.push(['Bridged', when(transfer.bridged_at)]);
  for (const leg of transfer.legs) {
    const times = [
      leg.answered_at ? `answered ${when(leg.answered_at)}` : null,
      leg.ended_at ? `ended ${when(leg.ended_at)}` : null,
    ].filter((t): t is string => t !== null);
    rows.push([
      `${leg.role === 'caller' ? 'Caller' : 'Human'} leg`,
      [
        leg.carrier_call_id ?? 'no carrier id',
        `${leg.from_number} → ${leg.to_number}`,
        words(leg.status),
        ...times,
      ].join(' · '),
    ]);
  }
  return rows;
}
