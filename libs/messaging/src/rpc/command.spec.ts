// @Command handlers over real NATS: boundary validation of DTO data, and the caller parameter decorators.
import { Controller, INestApplicationContext } from '@nestjs/common';
// A test-only edge, kept out of the project graph so a public DTO change leaves the messaging lib's dependents
// (the voice service) unaffected; the root type check still compiles this against the full command map.
// nx-ignore-next-line
import { CallDto, StartCallCommand } from '@vap/api';
import { DataSource } from 'typeorm';
import { AppError, ByIdRequest, ErrorCode, PartnerContext, Subjects } from '@vap/messages';
import { freePort } from '@vap/testing';
import { Caller, Command, Data, PartnerId } from './command.decorators';
import { RpcClient } from './rpc-client.service';
import { MessagingTestKit } from '../testing/messaging-test-kit';

jest.setTimeout(30_000);

const PARTNER: PartnerContext = {
  id: '6f1c2a4e-0b7d-4c1e-9a55-0d7f4c1f2b11',
  status: 'approved',
  voiceTier: 'standard',
  concurrencyLimit: 5,
  balancePaise: 100_000,
  pricePerMinutePaise: null,
  version: 1,
};
const AGENT_ID = '3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11';
/** A port nothing listens on: a database server that is down. */
let closedPort = 0;

/** What the handlers saw, so a test can tell that a refused command never reached its handler. */
const seen: { subject: string; data: unknown; partner?: PartnerContext; partnerId?: string }[] = [];

@Controller()
class ProbeHandlers {
  @Command(Subjects.calls.callStart)
  start(@Data() command: StartCallCommand, @Caller() partner: PartnerContext) {
    seen.push({ subject: Subjects.calls.callStart, data: command, partner });
    const call = { call_id: 'c-1', agent_id: command.agent_id, to_number: command.to_number } as CallDto;
    return { call, replayed: command instanceof StartCallCommand };
  }

  @Command(Subjects.calls.callGet)
  get(@Data() data: ByIdRequest, @PartnerId() partnerId: string) {
    seen.push({ subject: Subjects.calls.callGet, data, partnerId });
    return { call_id: data.id } as CallDto;
  }

  @Command(Subjects.webhooks.endpointList)
  endpoints(@PartnerId() partnerId: string) {
    seen.push({ subject: Subjects.webhooks.endpointList, data: null, partnerId });
    return { endpoints: [] };
  }

  /** Reads a database whose server is down (nothing listens on its port). */
  @Command(Subjects.calls.callList)
  async list(@PartnerId() _partnerId: string): Promise<never> {
    const down = new DataSource({ type: 'postgres', url: `postgres://postgres@127.0.0.1:${closedPort}/x` });
    await down.initialize();
    throw new Error('expected the database to be down');
  }

  @Command(Subjects.agents.agentVoiceList)
  voices(@Caller({ optional: true }) partner?: PartnerContext) {
    return { voices: [], tier: partner?.voiceTier ?? 'none' } as never;
  }
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected the command to be refused');
}

describe('@Command handlers (NatsRpcServer + RpcClient)', () => {
  let kit: MessagingTestKit;
  let client: RpcClient;
  let server: INestApplicationContext;

  beforeAll(async () => {
    closedPort = await freePort();
    kit = await MessagingTestKit.create('vap_msg_command');
    server = await kit.startApp({ serviceName: 'calls', rpcServer: true, controllers: [ProbeHandlers] });
    const caller = await kit.startApp({ serviceName: 'campaigns', requestTimeoutMs: 3000 });
    client = caller.get(RpcClient);
  });

  beforeEach(() => {
    seen.length = 0;
  });

  afterAll(async () => {
    await kit?.stopApp(server);
    await kit?.dispose();
  });

  it('validates an internal command against its DTO as the gateway does: 400 and the handler never runs', async () => {
    const bad = { agent_id: 'not-a-uuid', to_number: '12345', surprise: true } as unknown as StartCallCommand;
    const err = await refusal(client.request(Subjects.calls.callStart, PARTNER, bad));
    expect(err).toBeInstanceOf(AppError);
    expect({ code: err.code, status: err.status }).toEqual({ code: ErrorCode.VALIDATION_ERROR, status: 400 });
    expect(err.toPayload().details?.map((d) => d.field)).toEqual(
      expect.arrayContaining(['agent_id', 'to_number', 'surprise']),
    );
    expect(err.message).toMatch(/^Invalid request: /);
    expect(seen).toEqual([]);
  });

  it('passes a valid command to its handler as an instance of the DTO', async () => {
    const command = { agent_id: AGENT_ID, to_number: '+919876543210', idempotency_key: 'k-1' };
    const reply = await client.request(Subjects.calls.callStart, PARTNER, command);
    expect(reply).toEqual({
      call: { call_id: 'c-1', agent_id: AGENT_ID, to_number: '+919876543210' },
      replayed: true,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0].partner).toEqual(PARTNER);
  });

  it('leaves data typed as a plain interface as sent', async () => {
    const data = { id: 'c-9', extra: 'kept' } as ByIdRequest;
    await expect(client.request(Subjects.calls.callGet, PARTNER.id, data)).resolves.toEqual({
      call_id: 'c-9',
    });
    expect(seen[0]).toMatchObject({ data: { id: 'c-9', extra: 'kept' }, partnerId: PARTNER.id });
  });

  it.each([
    ['calls', Subjects.calls.callGet],
    ['webhooks', Subjects.webhooks.endpointList],
  ] as const)('refuses a %s command without a partner with 400', async (_service, subject) => {
    const err = await refusal(client.request(subject, null, { id: 'c-1' }));
    expect({ code: err.code, status: err.status, message: err.message }).toEqual({
      code: ErrorCode.VALIDATION_ERROR,
      status: 400,
      message: 'This command needs a partner',
    });
    expect(seen).toEqual([]);
  });

  it('refuses a command that needs the partner snapshot when it has only the id, or another partner', async () => {
    const command = { agent_id: AGENT_ID, to_number: '+919876543210' };
    for (const caller of [PARTNER.id, null]) {
      const err = await refusal(client.request(Subjects.calls.callStart, caller, command));
      expect({ code: err.code, status: err.status }).toEqual({
        code: ErrorCode.VALIDATION_ERROR,
        status: 400,
      });
    }
    expect(seen).toEqual([]);
  });

  it("answers a handler whose database is down with 502 INTERNAL_ERROR, without the driver's words", async () => {
    const err = await refusal(client.request(Subjects.calls.callList, PARTNER.id, {} as never));
    expect({ code: err.code, status: err.status }).toEqual({ code: ErrorCode.INTERNAL_ERROR, status: 502 });
    expect(err.message).toBe('A service the platform depends on is unavailable; retry');
  });

  it('gives an optional caller as undefined when the command carries no snapshot', async () => {
    await expect(client.request(Subjects.agents.agentVoiceList, null, {})).resolves.toMatchObject({
      tier: 'none',
    });
    await expect(client.request(Subjects.agents.agentVoiceList, PARTNER, {})).resolves.toMatchObject({
      tier: 'standard',
    });
  });
});
