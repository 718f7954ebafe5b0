// Creating a test run as the gateway's POST /test-runs sends it: the answer is the run as created (queued, every
// attempt queued) even though the runner, woken by the same commit, claims the attempts at once; then the runner
// plays them, and a session the calls service refuses errors the attempt with the reason and completes the run.
import { CreateTestScenarioDto, TestRunDto, TestScenarioDto } from '@vap/api';
import { AppError, ErrorCode, Subjects } from '@vap/messages';
import { waitFor } from '@vap/testing';
import { useIntegrationApp } from '@vap/testing/integration';
import { CampaignsUnderTest, TestPartner } from '../testing/campaigns-integration';

describe('create a test run', () => {
  const it_ = useIntegrationApp(() => CampaignsUnderTest.start({ env: { TEST_RUN_POLL_MS: '60000' } }));
  const sessionsAsked: string[] = [];

  beforeAll(() => {
    it_.app.peers.answer(Subjects.calls.testSessionCreate, (req) => {
      sessionsAsked.push(req.agent_id);
      throw new AppError(ErrorCode.FORBIDDEN, 'Account is not active');
    });
  });

  afterEach(() => {
    expect(it_.app.peers.unanswered).toEqual([]);
  });

  const scenario = (partner: TestPartner): Promise<TestScenarioDto> =>
    it_.app.send(Subjects.campaigns.testScenarioCreate, partner.id, {
      name: 'Books a table',
      mode: 'scripted',
      lines: [{ text: 'I would like to book a table.' }],
      assertions: [{ kind: 'transcript_contains', text: 'table', role: 'agent' }],
    } as CreateTestScenarioDto);

  const run = (partner: TestPartner, runId: string): Promise<TestRunDto> =>
    it_.app.send(Subjects.campaigns.testRunGet, partner.id, { id: runId });

  it('answers every run queued though the runner claims it at once, then errors attempts whose session is refused', async () => {
    // Runs created together, on several accounts (an account runs at most three at once): the runner is woken by
    // each commit and races each answer's read. The poll is a minute, so only the wake can start an attempt.
    const partners = await Promise.all(Array.from({ length: 8 }, () => it_.partner()));
    const scenarios = await Promise.all(partners.map((p) => scenario(p)));
    const created = await Promise.all(
      partners.flatMap((partner, i) =>
        [1, 2, 3].map(() =>
          it_.app.send(Subjects.campaigns.testRunCreate, partner.context, {
            agent_id: partner.agentId,
            scenario_ids: [scenarios[i].scenario_id],
            repetitions: 2,
          }),
        ),
      ),
    );
    for (const answer of created) {
      expect(answer).toMatchObject({
        status: 'queued',
        total: 2,
        passed: 0,
        failed: 0,
        errored: 0,
        pass_rate: null,
      });
      expect(answer.results[0].attempts.map((a) => a.status)).toEqual(['queued', 'queued']);
    }

    // The runner played every attempt: calls refused each session, so each errored with the reason.
    const owners = created.map((answer, i) => ({ answer, partner: partners[Math.floor(i / 3)] }));
    for (const { answer, partner } of owners) {
      const done = await waitFor(
        async () => {
          const now = await run(partner, answer.run_id);
          return now.status === 'completed' ? now : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 50, description: `test run ${answer.run_id} to complete` },
      );
      expect(done).toMatchObject({ total: 2, passed: 0, failed: 0, errored: 2, pass_rate: 0 });
      for (const attempt of done.results[0].attempts) {
        expect(attempt.status).toBe('error');
        expect(attempt.error).toBe('the session could not be opened: Account is not active');
      }
    }
    expect(sessionsAsked).toHaveLength(created.length * 2);
  });
});
