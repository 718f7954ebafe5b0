import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { BrowserSessionDto, TestJudgeVerdictDto, TestTranscriptLineDto } from '@vap/api';
import { createChatModel, LanguageModel } from '@vap/llm';
import { AppError, ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { ClaimLoop } from '@vap/persistence';
import { CampaignsConfig } from '../config/campaigns.config';
import { PartnerSnapshots } from '../partners/partner-snapshots';
import { evaluateAssertions, ObservedCall } from './evaluation/assertions';
import { CallerLines, ScriptedLines, SimulatedLines } from './runner/caller-lines';
import { judgeCall } from './runner/judge';
import { CallReport, TestCall } from './runner/test-call';
import { AttemptResult } from './test-run-rows';
import { ClaimedAttempt, TEST_ATTEMPTS_CHANNEL, TestRunsRepository } from './test-runs.repository';

/** The Origin the test caller connects from; every test session allows only it. */
export const TEST_CALLER_ORIGIN = 'https://tests.voice-agent-platform.invalid';
/** A claim outlives this much silence from its runner (renewed every third of it). */
const LEASE_MS = 60_000;
/** An account whose calls are all busy: the attempt waits this long, as often as MAX_TRIES allows. */
const BUSY_RETRY_MS = 5_000;
const MAX_TRIES = 60;
/** How long the session's record may take to settle (end, recording, post-call processing) after the call. */
const SETTLE_MS = 60_000;
const SETTLE_POLL_MS = 500;

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Plays test attempts: each opens a browser session for the run's agent (through the calls service, as a
 * partner's server would), talks over it with a TestCall (the voice pipeline of real calls, offline speech both
 * ways: the agent answers with its own models and keys, as on a real call; the simulated caller and the judge
 * think with the deployment's default model), waits for the session's record, then evaluates the scenario's
 * assertions and judge on it. Up to TEST_RUN_CONCURRENCY at once in this replica, TEST_RUN_ACCOUNT_CONCURRENCY
 * per account across replicas.
 */
@Injectable()
export class TestRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('TestRunner');
  private readonly loop: ClaimLoop<ClaimedAttempt>;
  private readonly model: LanguageModel;

  constructor(
    private readonly config: CampaignsConfig,
    private readonly repo: TestRunsRepository,
    private readonly rpc: RpcClient,
    private readonly snapshots: PartnerSnapshots,
  ) {
    this.model = createChatModel(config);
    this.loop = new ClaimLoop({
      label: 'test attempts',
      channel: TEST_ATTEMPTS_CHANNEL,
      pollMs: config.TEST_RUN_POLL_MS,
      concurrency: config.TEST_RUN_CONCURRENCY,
      claim: (limit) => this.repo.claim(limit, config.TEST_RUN_ACCOUNT_CONCURRENCY, LEASE_MS),
      lease: { renewEveryMs: LEASE_MS / 3, renew: (item) => this.repo.renew(item.attempt, LEASE_MS) },
      run: (item, leaseLost) => this.play(item, leaseLost),
      log: this.logger,
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  private async play({ attempt, run }: ClaimedAttempt, leaseLost: AbortSignal): Promise<void> {
    const scenario = run.scenarios[attempt.scenario_index];
    const partner = await this.snapshots.get(attempt.partner_id);
    if (!partner)
      return this.repo.finish(attempt, 'error', null, 'the account is unknown to the test runner');
    let session: BrowserSessionDto & { connect_url: string };
    try {
      session = await this.rpc.request(Subjects.calls.testSessionCreate, partner, {
        agent_id: run.agent_id,
        allowed_origins: [TEST_CALLER_ORIGIN],
        variables: scenario.variables,
        metadata: { test_run_id: run.id, test_scenario_id: scenario.id, test_attempt: attempt.attempt },
      });
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.LIMIT_REACHED && attempt.tries < MAX_TRIES)
        return this.repo.requeue(attempt, BUSY_RETRY_MS);
      return this.repo.finish(attempt, 'error', null, `the session could not be opened: ${errorText(err)}`);
    }
    await this.repo.setSession(attempt, session.id);
    const signal = AbortSignal.any([leaseLost, AbortSignal.timeout(this.config.TEST_ATTEMPT_TIMEOUT_MS)]);
    const lines: CallerLines =
      scenario.mode === 'scripted'
        ? new ScriptedLines(scenario.lines)
        : new SimulatedLines(this.model, scenario);
    let report: CallReport | null = null;
    let callError: string | null = null;
    try {
      report = await new TestCall({
        connectUrl: session.connect_url,
        origin: TEST_CALLER_ORIGIN,
        timeScale: this.config.MEDIA_TIME_SCALE,
        lines,
        signal,
      }).run();
    } catch (err) {
      callError = errorText(err);
    }
    if (leaseLost.aborted) return;
    const record = await this.settled(partner.id, session.id, leaseLost);
    if (leaseLost.aborted) return;
    const observed = observedCall(record, report);
    const verdicts = evaluateAssertions(scenario.assertions, observed);
    let judge: TestJudgeVerdictDto | null = null;
    if (scenario.judge) {
      try {
        judge = await judgeCall(
          this.model,
          scenario.judge,
          observed.transcript,
          observed.variables,
          leaseLost,
        );
      } catch (err) {
        judge = {
          score: 0,
          pass_threshold: scenario.judge.pass_threshold,
          passed: false,
          reasons: `the judge could not score the call: ${errorText(err)}`,
          model: this.model.model,
        };
      }
    }
    const result: AttemptResult = {
      transcript: observed.transcript,
      tool_calls: observed.toolCalls,
      end_reason: observed.endReason,
      recording_url: record?.session.recording_url ?? null,
      verdicts,
      judge,
    };
    if (callError) return this.repo.finish(attempt, 'error', result, `the call failed: ${callError}`);
    const passed = verdicts.every((v) => v.passed) && (judge?.passed ?? true);
    await this.repo.finish(attempt, passed ? 'passed' : 'failed', result, null);
  }

  /** The session once it ended and its post-call processing finished (or as it stands after SETTLE_MS). */
  private async settled(
    partnerId: string,
    id: string,
    signal: AbortSignal,
  ): Promise<BrowserSessionDto | null> {
    const deadline = Date.now() + SETTLE_MS;
    let last: BrowserSessionDto | null = null;
    while (!signal.aborted) {
      try {
        last = await this.rpc.request(Subjects.calls.browserSessionGet, partnerId, { id });
        if (last.status !== 'pending' && last.status !== 'active' && last.session.processing_complete)
          return last;
      } catch (err) {
        this.logger.warn(`reading test session ${id} failed: ${errorText(err)}`);
      }
      if (Date.now() > deadline) return last;
      await sleep(SETTLE_POLL_MS);
    }
    return last;
  }
}

/** What the evaluation reads: the session's record, and the caller's ear where the record says nothing. */
export function observedCall(record: BrowserSessionDto | null, report: CallReport | null): ObservedCall {
  const session = record?.session;
  const recorded: TestTranscriptLineDto[] = (session?.transcript ?? []).map((t) => ({
    role: t.role === 'bot' ? 'agent' : 'caller',
    text: t.content,
    latency_ms: t.role === 'bot' ? (t.latency?.voice_to_voice_ms ?? null) : null,
    model:
      t.role === 'bot' && t.providers?.llm && t.providers.llm_model
        ? { provider: t.providers.llm, model: t.providers.llm_model }
        : null,
  }));
  const heard: TestTranscriptLineDto[] = (report?.conversation ?? []).map((l) => ({
    role: l.role,
    text: l.text,
    latency_ms: null,
    model: null,
  }));
  return {
    transcript: recorded.length ? recorded : heard,
    toolCalls: (session?.tool_calls ?? []).map((c) => ({
      name: c.name,
      arguments: c.arguments,
      outcome: c.outcome,
    })),
    endReason: record?.end_reason ?? null,
    extraction: session?.extraction?.values ?? {},
    variables: session?.variables ?? record?.variables ?? {},
    measuredLatenciesMs: report?.latenciesMs ?? [],
  };
}
