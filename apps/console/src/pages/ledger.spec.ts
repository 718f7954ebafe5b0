import { csvCell, everyDay, isoDay, Transaction, transactionsCsv } from './ledger';

describe('csvCell', () => {
  it('quotes every cell and doubles the quotes inside', () => {
    expect(csvCell('Call to "Maya"')).toBe('"Call to ""Maya"""');
    expect(csvCell(42.5)).toBe('"42.5"');
    expect(csvCell('a,b\nc')).toBe('"a,b\nc"');
  });

  it('writes nothing for no value and a list as one cell', () => {
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
    expect(csvCell(['deepgram', 'elevenlabs'])).toBe('"deepgram elevenlabs"');
    expect(csvCell([])).toBe('""');
  });

  it.each(['=1+2', '+91', '-5', '@SUM(A1)', '\tx', '\rx'])(
    'neutralises a leading formula character (%j) so a spreadsheet never runs it',
    (value) => {
      expect(csvCell(value)).toBe(`"'${value}"`);
    },
  );

  it('neutralises a debit given as a number too (its leading minus)', () => {
    expect(csvCell(-3)).toBe(`"'-3"`);
  });
});

describe('transactionsCsv', () => {
  const charge: Transaction = {
    id: 'txn_1',
    type: 'call_charge',
    amount_inr: -2.5,
    balance_after_inr: 97.5,
    description: 'Call, 60 s',
    created_at: '2026-03-01T09:30:00.000Z',
    call_id: 'call_1',
    billed_seconds: 60,
    platform_speech_providers: ['deepgram'],
  };

  it('writes the header and one line per transaction, with CRLF line ends', () => {
    const csv = transactionsCsv([charge, { ...charge, id: 'txn_2', type: 'top_up', amount_inr: 100 }]);
    const lines = csv.split('\r\n');
    expect(lines).toEqual([
      'created_at,id,type,description,amount_inr,balance_after_inr,call_id,browser_session_id,agent_id,billed_seconds,platform_speech_providers',
      `"2026-03-01T09:30:00.000Z","txn_1","call_charge","Call, 60 s","'-2.5","97.5","call_1","","","60","deepgram"`,
      `"2026-03-01T09:30:00.000Z","txn_2","top_up","Call, 60 s","100","97.5","call_1","","","60","deepgram"`,
      '',
    ]);
  });

  it('writes only the header for no transactions', () => {
    expect(transactionsCsv([])).toBe(
      'created_at,id,type,description,amount_inr,balance_after_inr,call_id,browser_session_id,agent_id,billed_seconds,platform_speech_providers\r\n',
    );
  });
});

describe('everyDay', () => {
  const bucket = (key: string | null, credits_inr: number) => ({ key, minutes: 1, calls: 1, credits_inr });

  it('gives every day of the range a bar, days without charges at zero', () => {
    expect(
      everyDay('2026-02-27', '2026-03-02', [bucket('2026-02-28', 4.5), bucket('2026-03-02', 1)]),
    ).toEqual([
      { day: '2026-02-27', value: 0 },
      { day: '2026-02-28', value: 4.5 },
      { day: '2026-03-01', value: 0 },
      { day: '2026-03-02', value: 1 },
    ]);
  });

  it('ignores the bucket without a day and days outside the range', () => {
    expect(everyDay('2026-03-01', '2026-03-01', [bucket(null, 9), bucket('2026-03-02', 3)])).toEqual([
      { day: '2026-03-01', value: 0 },
    ]);
  });

  it('gives an empty chart for a range that ends before it starts, and stops at 400 days', () => {
    expect(everyDay('2026-03-02', '2026-03-01', [])).toEqual([]);
    const long = everyDay('2020-01-01', '2026-01-01', []);
    expect(long).toHaveLength(400);
    expect(long[0].day).toBe('2020-01-01');
    expect(long[399].day).toBe(isoDay(new Date(Date.parse('2020-01-01T00:00:00.000Z') + 399 * 86_400_000)));
  });
});

describe('isoDay', () => {
  it("writes a date's UTC day", () => {
    expect(isoDay(new Date('2026-03-01T23:59:59.999Z'))).toBe('2026-03-01');
  });
});
