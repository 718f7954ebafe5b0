import { BillingUsageQueryDto } from '@vap/api';
import { createValidationPipe } from '@vap/messaging';

/** The query as the gateway's pipe reads it off a request's query string. */
const read = (raw: Record<string, string>) =>
  createValidationPipe().transform(raw, {
    type: 'query',
    metatype: BillingUsageQueryDto,
  }) as Promise<BillingUsageQueryDto>;

const range = { from: '2026-01-01T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' };

describe('GET /billing/usage query', () => {
  it('groups by day when group_by is absent', async () => {
    await expect(read(range)).resolves.toMatchObject({ ...range, group_by: 'day' });
  });

  it('takes a named grouping and refuses an unknown one', async () => {
    await expect(read({ ...range, group_by: 'agent' })).resolves.toMatchObject({ group_by: 'agent' });
    await expect(read({ ...range, group_by: 'hour' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('group_by must be one of day, agent, campaign, project'),
    });
  });
});
