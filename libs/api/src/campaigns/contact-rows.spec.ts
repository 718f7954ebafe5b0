import { AppError } from '@vap/messages';
import { CONTACT_VARIABLES_MAX_BYTES } from './campaign-limits';
import { candidateFromJson, contactInputOf, contactRowsFromCsv } from './contact-rows';

/** A CSV upload's rows, judged as the gateway judges them. */
const candidatesFromCsv = (csv: string) =>
  contactRowsFromCsv(csv).map((row, i) => candidateFromJson(row, i + 1));

describe('contact rows', () => {
  it('accepts an E.164 number with variables and an external id', () => {
    expect(
      candidateFromJson({ phone_number: ' +919876543210 ', variables: { a: 1 }, external_id: 'c-1' }, 1),
    ).toEqual({
      row: 1,
      phoneNumber: '+919876543210',
      variables: { a: 1 },
      externalId: 'c-1',
      timezone: null,
      reason: null,
    });
  });

  it("keeps a contact's IANA time zone and rejects one that is not a zone", () => {
    expect(candidateFromJson({ phone_number: '+18005550100', timezone: 'America/Chicago' }, 1)).toMatchObject(
      {
        timezone: 'America/Chicago',
        reason: null,
      },
    );
    expect(candidateFromJson({ phone_number: '+18005550100', timezone: 'Mars/Base' }, 2).reason).toBe(
      'invalid_timezone',
    );
    expect(candidateFromJson({ phone_number: '+18005550100', timezone: 42 }, 3).reason).toBe(
      'invalid_timezone',
    );
  });

  it('reports what is wrong with a row', () => {
    expect(candidateFromJson({ phone_number: '98765' }, 1).reason).toBe('invalid_number');
    expect(candidateFromJson({}, 2).reason).toBe('invalid_number');
    expect(candidateFromJson('x', 3).reason).toBe('invalid_number');
    expect(candidateFromJson({ phone_number: '+919876543210', variables: [1] }, 4).reason).toBe(
      'invalid_variables',
    );
    expect(candidateFromJson({ phone_number: '+919876543210', external_id: 7 }, 5).reason).toBe(
      'invalid_external_id',
    );
  });

  it('reads CSV columns: phone_number, external_id, the rest as variables', () => {
    const rows = candidatesFromCsv(
      'phone_number,customer_name,external_id\n+919876543210,Asha,c-1\nabc,Ravi,\n',
    );
    expect(rows).toEqual([
      {
        row: 1,
        phoneNumber: '+919876543210',
        variables: { customer_name: 'Asha' },
        externalId: 'c-1',
        timezone: null,
        reason: null,
      },
      {
        row: 2,
        phoneNumber: 'abc',
        variables: {},
        externalId: null,
        timezone: null,
        reason: 'invalid_number',
      },
    ]);
  });

  it('reads a timezone column as the contact zone, not a variable', () => {
    const [row] = candidatesFromCsv('phone_number,timezone,customer_name\n+18005550100, Asia/Tokyo ,Asha\n');
    expect(row).toMatchObject({ timezone: 'Asia/Tokyo', variables: { customer_name: 'Asha' }, reason: null });
  });

  it('refuses a CSV without a phone_number header, without rows or with more than 10,000', () => {
    expect(() => candidatesFromCsv('name\nAsha\n')).toThrow(AppError);
    expect(() => candidatesFromCsv('phone_number\n')).toThrow(AppError);
    const rows = (n: number) => `phone_number\n${'+919876543210\n'.repeat(n)}`;
    expect(() => contactRowsFromCsv(rows(10_001))).toThrow(/at most 10000/);
    expect(contactRowsFromCsv(rows(10_000))).toHaveLength(10_000);
  });

  it('rejects variables past their byte bound, so that a contact always fits in one message', () => {
    const variables = (bytes: number) => ({ notes: 'é'.repeat((bytes - '{"notes":""}'.length) / 2) });
    expect(Buffer.byteLength(JSON.stringify(variables(CONTACT_VARIABLES_MAX_BYTES)))).toBe(
      CONTACT_VARIABLES_MAX_BYTES,
    );
    const at = { phone_number: '+919876543210', variables: variables(CONTACT_VARIABLES_MAX_BYTES) };
    const over = { phone_number: '+919876543210', variables: variables(CONTACT_VARIABLES_MAX_BYTES + 2) };
    expect(candidateFromJson(at, 1).reason).toBeNull();
    expect(candidateFromJson(over, 2).reason).toBe('invalid_variables');
  });

  it('sends a valid row as the JSON row it was judged by', () => {
    const [judged] = candidatesFromCsv(
      'phone_number,external_id,timezone,customer_name\n +18005550100 ,c-9, America/Chicago ,"Asha, ""A"""\n',
    );
    expect(contactInputOf(judged)).toEqual({
      phone_number: '+18005550100',
      variables: { customer_name: 'Asha, "A"' },
      external_id: 'c-9',
      timezone: 'America/Chicago',
    });
    expect(candidateFromJson(contactInputOf(judged), 1)).toEqual(judged);
    const bare = candidateFromJson({ phone_number: '+919876543210' }, 2);
    expect(contactInputOf(bare)).toEqual({ phone_number: '+919876543210', variables: {} });
    expect(candidateFromJson(contactInputOf(bare), 2)).toEqual(bare);
  });
});
