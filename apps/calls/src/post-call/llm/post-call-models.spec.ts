import { randomBytes } from 'node:crypto';
import { connect, NatsConnection } from 'nats';
import { FakeChatServer } from '@vap/llm/testing';
import type { AnalysisAnswer } from '@vap/llm';
import {
  AgentSnapshot,
  AppError,
  ModelPlan,
  ModelPlanEntry,
  ModelPlanRequest,
  RpcReply,
  RpcRequest,
} from '@vap/messages';
import { NatsConnectionService, RpcClient } from '@vap/messaging';
import { CallsConfig } from '../../config/calls.config';
import type { Call } from '../../calls/entities/call.entity';
import type { LlmAdapter } from './llm-adapter';
import { PostCallModels } from './post-call-models';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const PLATFORM_KEY = 'gsk-platform-post-call-0001';
const ACCOUNT_KEY = 'sk-account-post-call-0002';
const ANSWER = JSON.stringify({ summary: 'Ann booked a visit.', score: 8, reasons: 'Booked.' });
const INPUT = {
  transcript: [{ role: 'user' as const, content: 'Book me in.', timestamp: 't' }],
  variables: {},
  summary: true,
  summaryInstructions: null,
  successRubric: 'A visit is booked',
};

/** The deployment's default model: answers from a script, counting what it was asked. */
function deploymentDefault(): LlmAdapter & { asked: number } {
  const fake = {
    model: 'deployment-default',
    asked: 0,
    extract: async () => ({}),
    analyze: async (): Promise<AnalysisAnswer> => {
      fake.asked++;
      return { summary: 'from the default', success: null };
    },
  };
  return fake;
}

describe('PostCallModels (real NATS, providers faked on their wire)', () => {
  const prefix = `postcallmodels_${randomBytes(4).toString('hex')}`;
  let nats: NatsConnectionService;
  let rpc: RpcClient;
  let agents: NatsConnection;
  let groq: FakeChatServer;
  let openai: FakeChatServer;
  /** What the fake agents service was asked, and how it answers next. */
  const asked: { partner: string | null; request: ModelPlanRequest }[] = [];
  let answer: (request: ModelPlanRequest) => RpcReply = () => ({ ok: true, data: { models: [] } });
  const config = Object.assign(new CallsConfig(), { LLM_TIMEOUT_MS: 2000 });

  beforeAll(async () => {
    const options = {
      serviceName: 'calls-spec',
      url: NATS_URL,
      subjectPrefix: prefix,
      requestTimeoutMs: 5000,
    };
    nats = new NatsConnectionService(options);
    await nats.onModuleInit();
    rpc = new RpcClient(nats, options);
    agents = await connect({ servers: NATS_URL });
    agents.subscribe(`${prefix}.agents.model.plan`, {
      callback: (_err, msg) => {
        const request = JSON.parse(new TextDecoder().decode(msg.data)) as RpcRequest<ModelPlanRequest>;
        asked.push({ partner: request.partnerId ?? null, request: request.data });
        msg.respond(new TextEncoder().encode(JSON.stringify(answer(request.data))));
      },
    });
    await agents.flush();
    groq = await FakeChatServer.start();
    openai = await FakeChatServer.start();
  });

  afterAll(async () => {
    await agents?.drain();
    await nats?.onApplicationShutdown();
    await groq?.close();
    await openai?.close();
  });

  beforeEach(() => {
    asked.length = 0;
    groq.clear();
    openai.clear();
  });

  const callOf = (agent: Partial<AgentSnapshot>) =>
    ({ id: 'call-post-1', partnerId: 'partner-post-1', agentSettings: agent }) as unknown as Call;
  const entry = (fields: Partial<ModelPlanEntry>): ModelPlanEntry => ({
    provider: 'groq',
    model: 'llama-3.1-8b-instant',
    speechToSpeech: false,
    ...fields,
  });
  const plan = (...models: ModelPlanEntry[]) =>
    (answer = () => ({ ok: true, data: { models } as ModelPlan }));

  it('asks the plan with the agent’s models, then falls from a failing model to the next, each with its key', async () => {
    plan(
      entry({
        temperature: 0.2,
        credential: { provider: 'groq', apiKey: PLATFORM_KEY, baseUrl: groq.baseUrl, paidBy: 'platform' },
      }),
      entry({
        provider: 'openai',
        model: 'gpt-4o-mini',
        credential: { provider: 'openai', apiKey: ACCOUNT_KEY, baseUrl: openai.baseUrl, paidBy: 'account' },
      }),
    );
    groq.script({ kind: 'error', status: 503, message: 'Service unavailable' });
    openai.script({ kind: 'reply', text: [ANSWER] });
    const fallback = { provider: 'openai' as const, model: 'gpt-4o-mini' };
    const models = new PostCallModels(rpc, config, deploymentDefault());
    const chain = models.chainFor(
      callOf({
        model: { provider: 'groq', model: 'llama-3.1-8b-instant', temperature: 0.2 },
        fallbackModels: [fallback],
      }),
    );
    const answered = await chain.ask((llm) => llm.analyze(INPUT));

    expect(asked).toEqual([
      {
        partner: 'partner-post-1',
        request: {
          callId: 'call-post-1',
          model: { provider: 'groq', model: 'llama-3.1-8b-instant', temperature: 0.2 },
          fallbackModels: [fallback],
        },
      },
    ]);
    expect(groq.requests.map((r) => [r.headers.authorization, r.body.model])).toEqual([
      [`Bearer ${PLATFORM_KEY}`, 'llama-3.1-8b-instant'],
    ]);
    expect(openai.requests.map((r) => [r.headers.authorization, r.body.model])).toEqual([
      [`Bearer ${ACCOUNT_KEY}`, 'gpt-4o-mini'],
    ]);
    expect(answered).toEqual({
      model: 'gpt-4o-mini',
      value: { summary: 'Ann booked a visit.', success: { score: 8, reasons: 'Booked.' } },
    });
    // Asked once per call, whatever the tasks: extraction and analysis share the plan.
    await chain.models();
    expect(asked).toHaveLength(1);
  });

  it('runs on the deployment default when the agent chose no model, without asking for a plan', async () => {
    const fallback = deploymentDefault();
    const answered = await new PostCallModels(rpc, config, fallback)
      .chainFor(callOf({ model: null }))
      .ask((llm) => llm.analyze(INPUT));
    expect(answered.model).toBe('deployment-default');
    expect(fallback.asked).toBe(1);
    expect(asked).toEqual([]);
  });

  it('runs on the deployment default when the plan is empty, unreachable, or only speech-to-speech', async () => {
    const agent = callOf({ model: { provider: 'groq', model: 'llama-3.1-8b-instant' } });
    const cases: (() => RpcReply)[] = [
      // The agent's key was deleted since: no model of the agent can run.
      () => ({ ok: true, data: { models: [] } }),
      () => ({ ok: false, error: AppError.downstream('agents is restarting').toPayload() }),
      () => ({
        ok: true,
        data: {
          models: [
            entry({
              provider: 'openai',
              model: 'gpt-4o-realtime-preview',
              speechToSpeech: true,
              credential: {
                provider: 'openai',
                apiKey: ACCOUNT_KEY,
                baseUrl: openai.baseUrl,
                paidBy: 'account',
              },
            }),
          ],
        },
      }),
    ];
    for (const reply of cases) {
      answer = reply;
      const fallback = deploymentDefault();
      const answered = await new PostCallModels(rpc, config, fallback)
        .chainFor(agent)
        .ask((llm) => llm.analyze(INPUT));
      expect(answered.model).toBe('deployment-default');
      expect(fallback.asked).toBe(1);
    }
    expect(asked).toHaveLength(cases.length);
    expect(openai.requests).toEqual([]);
  });

  it('gives the offline engine for an offline entry and throws the last model’s failure when all fail', async () => {
    plan(entry({ provider: 'offline', model: 'offline' }));
    const offline = await new PostCallModels(rpc, config, deploymentDefault())
      .chainFor(callOf({ model: { provider: 'offline', model: 'offline' } }))
      .models();
    expect(offline.map((m) => m.model)).toEqual(['offline-rules-v1']);

    plan(
      entry({
        credential: { provider: 'groq', apiKey: PLATFORM_KEY, baseUrl: groq.baseUrl, paidBy: 'platform' },
      }),
    );
    groq.script({ kind: 'error', status: 401, message: 'Invalid API Key' });
    const tried: string[] = [];
    await expect(
      new PostCallModels(rpc, config, deploymentDefault())
        .chainFor(callOf({ model: { provider: 'groq', model: 'llama-3.1-8b-instant' } }))
        .ask(
          (llm) => llm.analyze(INPUT),
          (model) => tried.push(model),
        ),
    ).rejects.toThrow(/401|key/i);
    expect(tried).toEqual(['llama-3.1-8b-instant']);
  });
});
