import { CampaignId, ExtractionSetId, PhoneNumberId, isUuid, prefixedId, UUID_SOURCE } from '.';

const UUID = '6d0b3f0c-6a0e-4a8e-9a55-0d7f4c1f2b11';

describe('isUuid', () => {
  it.each([
    UUID,
    UUID.toUpperCase(),
    '00000000-0000-0000-0000-000000000000',
    // Any version and variant: Postgres stores them all.
    '11111111-1111-1111-1111-111111111111',
  ])('accepts %s', (id) => expect(isUuid(id)).toBe(true));

  it.each([
    'not-a-uuid',
    '',
    `${UUID}0`,
    ` ${UUID}`,
    `${UUID}\n`,
    UUID.replace(/-/g, ''),
    '6d0b3f0c-6a0e-4a8e-9a55-0d7f4c1f2b1g',
    `cmp_${UUID}`,
    undefined,
    null,
    42,
    { id: UUID },
  ])('refuses %p', (id) => expect(isUuid(id)).toBe(false));

  it('exports the rule as source text for patterns built on it', () => {
    expect(new RegExp(`^x${UUID_SOURCE}$`).test(`x${UUID}`)).toBe(true);
  });
});

describe('prefixedId', () => {
  it('formats, recognises and parses its ids', () => {
    const id = CampaignId.format(UUID);
    expect(id).toBe(`cmp_${UUID}`);
    expect(CampaignId.is(id)).toBe(true);
    expect(CampaignId.pattern.test(id)).toBe(true);
    expect(CampaignId.parse(id)).toBe(UUID);
    expect(CampaignId.prefix).toBe('cmp_');
  });

  it.each([
    UUID,
    `cmp_${UUID.toUpperCase()}`,
    `CMP_${UUID}`,
    `cmp_${UUID}x`,
    `xcmp_${UUID}`,
    `pn_${UUID}`,
    'cmp_',
    'cmp_not-a-uuid',
    undefined,
    7,
  ])('refuses %p', (value) => {
    expect(CampaignId.is(value)).toBe(false);
    expect(CampaignId.parse(value)).toBeNull();
    if (typeof value === 'string') expect(CampaignId.pattern.test(value)).toBe(false);
  });

  it('keeps each prefix to its own ids', () => {
    expect(PhoneNumberId.is(`pn_${UUID}`)).toBe(true);
    expect(ExtractionSetId.is(`pn_${UUID}`)).toBe(false);
    expect(ExtractionSetId.parse(`exs_${UUID}`)).toBe(UUID);
  });

  it('refuses a prefix that is not letters and an underscore', () => {
    expect(() => prefixedId('a.b_')).toThrow();
    expect(() => prefixedId('cmp')).toThrow();
  });
});
