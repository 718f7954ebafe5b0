// Export pages of the do-not-call list in the running calls module, as the gateway asks for them: the
// partner's entries oldest first as CSV cells, the next page after the cursor; formulas in free text are
// guarded, and another partner's entries never appear.
import { randomUUID } from 'node:crypto';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

describe('export a page of the do-not-call list', () => {
  const calls = useIntegrationApp(() => startCalls());

  it("pages the partner's entries oldest first as CSV cells", async () => {
    const partnerId = randomUUID();
    const first = await calls.send('calls.do_not_call.create', partnerId, {
      number: '+919812460001',
      reason: 'opt_out',
      note: '=HYPERLINK("x")',
    });
    const second = await calls.send('calls.do_not_call.create', partnerId, {
      prefix: '+1900',
      reason: 'legal',
      source: 'registry',
    });
    await calls.send('calls.do_not_call.create', randomUUID(), { number: '+919812460003', reason: 'legal' });

    const page1 = await calls.send('calls.do_not_call.export_page', partnerId, { after: null, limit: 1 });
    expect(page1.rows).toEqual([
      ['+919812460001', '', 'opt_out', 'api', `'=HYPERLINK("x")`, first.created_at],
    ]);
    expect(page1.after).not.toBeNull();
    const page2 = await calls.send('calls.do_not_call.export_page', partnerId, {
      after: page1.after,
      limit: 1,
    });
    expect(page2).toEqual({ rows: [['', '+1900', 'legal', 'registry', '', second.created_at]], after: null });
  });
});
