// The agent's send_sms tool on a live carrier_b call: the fake carrier answers into the media stream, the model is
// the fake OpenAI-compatible server scripted below. The message goes out on the call's own number and connection,
// to the person on the call only (the agent's sms_allowed_recipients is caller), and is in the message history
// with the call and agent it came from.
import { waitFor } from '@vap/testing';
import { ChatCompletionRequest, ChatScript, lastUserText } from '../../support/fake-media';
import { VoiceWorld } from './voice-fixtures';

const INTRO = 'Hello, this is Maya from Acme.';
const ASK = 'Can you text me the address?';
const ASK_OTHER = 'Text my wife at plus one four one five.';
const ADDRESS = 'Acme, 1 Main Street, Springfield.';
const SENT = 'I have texted it to you.';
const NOT_SENT = 'I can only text you on this number.';
const OTHER_NUMBER = '+14155550999';

const lastMessage = (request: ChatCompletionRequest) => request.messages[request.messages.length - 1];

/** The model: texts the address when asked (to another number when asked so), then says how it went. */
const script: ChatScript = (request) => {
  const last = lastMessage(request);
  if (last?.role === 'tool') {
    return { text: (last.content ?? '').startsWith('The message was sent') ? SENT : NOT_SENT };
  }
  const said = lastUserText(request);
  if (said === ASK) return { toolCalls: [{ name: 'send_sms', arguments: { body: ADDRESS } }] };
  if (said === ASK_OTHER)
    return { toolCalls: [{ name: 'send_sms', arguments: { to: OTHER_NUMBER, body: ADDRESS } }] };
  return { text: 'Anything else?' };
};

describe('send_sms during a call', () => {
  let world: VoiceWorld;

  beforeAll(async () => {
    world = await VoiceWorld.start({ name: 'voice_sms', providers: { llm: true } });
    world.ai.script(script);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  it('texts the person on the call from the call’s number, refuses another number, and records both', async () => {
    const agent = await world.agent({ sms_enabled: true });
    expect(agent).toMatchObject({ sms_enabled: true, sms_allowed_recipients: 'caller' });
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();

    await call.media.say(ASK);
    await call.media.waitForHeard(SENT);
    await call.media.waitUntilAgentSilent();
    const sms = await world.fake.waitForMessage(call.placed.to);
    expect(sms).toMatchObject({ provider: 'carrier_b', from: call.placed.from, body: ADDRESS });

    await call.media.say(ASK_OTHER);
    await call.media.waitForHeard(NOT_SENT);
    await call.media.waitUntilAgentSilent();
    expect(world.fake.messages.some((m) => m.to === OTHER_NUMBER)).toBe(false);

    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    const done = await world.finished(call.callId);
    expect(done.session.tool_calls).toEqual([
      expect.objectContaining({
        name: 'send_sms',
        kind: 'builtin',
        arguments: { body: ADDRESS },
        outcome: 'success',
      }),
      expect.objectContaining({
        name: 'send_sms',
        kind: 'builtin',
        arguments: { to: OTHER_NUMBER, body: ADDRESS },
        outcome: 'failed',
      }),
    ]);

    const history = await world.api(`/messages?to=${encodeURIComponent(call.placed.to)}`);
    expect(history.status).toBe(200);
    expect(history.body.data.messages).toEqual([
      expect.objectContaining({
        direction: 'outbound',
        to: call.placed.to,
        from: call.placed.from,
        body: ADDRESS,
        carrier: 'carrier_b',
        call_id: call.callId,
        agent_id: agent.id,
      }),
    ]);
    const id = history.body.data.messages[0].id as string;
    await waitFor(
      async () => ((await world.api(`/messages/${id}`)).body.data.status === 'sent' ? true : undefined),
      { timeoutMs: 20_000, description: 'the message sent' },
    );
  });

  it('offers no send_sms to an agent without it', async () => {
    const agent = await world.agent({ prompt: 'You are Maya from Acme, no-sms test.' });
    expect(agent.sms_enabled).toBe(false);
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.say('Hello?');
    await call.media.waitForHeard('Anything else?');
    const chats = world.ai.chats.filter((c) => c.messages.some((m) => m.content?.includes('no-sms test')));
    expect(chats.length).toBeGreaterThan(0);
    for (const chat of chats) expect(chat.tools.map((t) => t.function.name)).not.toContain('send_sms');
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
  });
});
