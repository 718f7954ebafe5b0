// The agent's send_sms under the SMS policy, against a real Postgres with the calls migrations: a caller's
// number on an inbound call is whatever the caller presented, so a premium or unlisted one is refused in words
// the model can pass on, and nothing is stored or sent.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PhoneNumberId } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { runMigrations } from '@vap/persistence';
import { SystemClock } from '@vap/runtime';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { Call } from '../calls/entities/call.entity';
import { CallsConfig } from '../config/calls.config';
import { callsDataSourceOptions } from '../database/data-source';
import { saveCall, saveConnection } from '../testing/call-rows';
import { DefaultLineService } from '../telephony/connections/default-line.service';
import { ContactPolicy } from '../telephony/contact-policy/contact-policy';
import { ContactPolicySettingsService } from '../telephony/contact-policy/contact-policy-settings.service';
import { PhoneNumber } from '../telephony/phone-numbers/entities/phone-number.entity';
import { AgentSms } from './agent-sms.service';
import { Message } from './entities/message.entity';
import { MessageSenderResolver } from './message-sender';
import { MessagesService } from './messages.service';
import { SmsPolicyService } from './sms-policy.service';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const OWN = '+919812300071';

describe('AgentSms under the SMS policy', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let agentSms: AgentSms;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_agent_sms');
    const config = Object.assign(new CallsConfig(), { DATABASE_URL: db.url });
    await runMigrations(callsDataSourceOptions(config));
    dataSource = await new DataSource(callsDataSourceOptions(config)).initialize();
    const outbox = new OutboxService();
    const lines = new DefaultLineService(dataSource);
    const messages = new MessagesService(
      dataSource,
      outbox,
      new MessageSenderResolver(dataSource, lines),
      new ContactPolicy(dataSource, new ContactPolicySettingsService(dataSource), new SystemClock()),
      new SmsPolicyService(dataSource, config, lines),
    );
    agentSms = new AgentSms(dataSource, messages);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  /** An inbound call on the account's carrier_b number from `caller`, its agent sending SMS. */
  async function inboundCallFrom(caller: string): Promise<Call> {
    const partnerId = randomUUID();
    const connectionId = await saveConnection(dataSource, partnerId, 'carrier_b');
    await dataSource.getRepository(PhoneNumber).insert({
      id: PhoneNumberId.format(randomUUID()),
      partnerId,
      number: OWN,
      connectionId,
      provider: 'carrier_b',
      isDefault: false,
      status: 'active',
      label: null,
      agentId: null,
      applicationId: null,
    });
    const call = await saveCall(dataSource, {
      partnerId,
      connectionId,
      provider: 'carrier_b',
      direction: 'inbound',
      fromNumber: caller,
      toNumber: OWN,
    });
    call.agentSettings = { ...call.agentSettings, smsEnabled: true, smsAllowedRecipients: 'caller' };
    await dataSource.getRepository(Call).save(call);
    return call;
  }

  const storedFor = (partnerId: string) => dataSource.getRepository(Message).countBy({ partnerId });

  it.each([
    ['a premium-rate number', '+19005551234', 'premium-rate or satellite'],
    ['a satellite number', '+882123456789', 'premium-rate or satellite'],
    ['a number of a country the account does not text', '+4915123456789', 'does not text'],
  ])('refuses to text a caller presenting %s, in words, storing nothing', async (_what, caller, words) => {
    const call = await inboundCallFrom(caller);
    const reply = await agentSms.execute(
      { callId: call.id, to: null, body: 'Your booking: table for two.' },
      null,
    );
    expect(reply).toEqual({ sent: false, messageId: null, to: null, reason: expect.stringContaining(words) });
    expect(await storedFor(call.partnerId)).toBe(0);
  });

  it('texts a caller of an allowed country', async () => {
    const call = await inboundCallFrom('+919876543210');
    const reply = await agentSms.execute(
      { callId: call.id, to: null, body: 'Your booking: table for two.' },
      null,
    );
    expect(reply).toMatchObject({ sent: true, to: '+919876543210' });
    expect(await storedFor(call.partnerId)).toBe(1);
  });
});
