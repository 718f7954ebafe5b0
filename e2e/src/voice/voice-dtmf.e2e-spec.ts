// Touch tones (DTMF) end to end through the gateway: the agent's DTMF settings through the public API, and the
// agent's menu key on carrier_a, which the far end gets through the carrier's REST DTMF request on the answered leg.
// Everything is offline: speech engines and the rule-based language model, which presses the menu option the
// agent's prompt names. The conversation's handling of keys both ways (the callee's entries, a key over the
// agent, keys in-band on carrier_b, send_dtmf not offered) is the voice service's DTMF integration spec.
import { LiveCall, VoiceWorld } from './voice-fixtures';

type Line = { role: string; content: string };
const lines = (entries: Line[]) => entries.map((e) => [e.role, e.content]);

describe('DTMF through the fake carriers', () => {
  let world: VoiceWorld;

  beforeAll(async () => {
    world = await VoiceWorld.start({ name: 'voice_dtmf', providers: { llm: false } });
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  async function hangUp(call: LiveCall): Promise<void> {
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
  }

  it('stores, answers and validates the agent fields', async () => {
    const agent = await world.agent({ dtmf: { enabled: true, max_digits: 6 }, send_dtmf_enabled: true });
    expect(agent.dtmf).toEqual({ enabled: true, max_digits: 6, terminator: '#', timeout_ms: 3000 });
    expect(agent.send_dtmf_enabled).toBe(true);
    const updated = await world.api(`/agent/${agent.id}`, {
      method: 'PUT',
      body: { dtmf: { terminator: null, timeout_ms: 5000 } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.dtmf).toEqual({
      enabled: true,
      max_digits: 6,
      terminator: null,
      timeout_ms: 5000,
    });
    const plain = await world.agent();
    expect(plain.dtmf).toEqual({ enabled: false, max_digits: null, terminator: '#', timeout_ms: 3000 });
    expect(plain.send_dtmf_enabled).toBe(false);
    for (const dtmf of [
      { max_digits: 0 },
      { max_digits: 33 },
      { terminator: '5' },
      { timeout_ms: 100 },
      { enabled: 'yes' },
      'all',
    ]) {
      const res = await world.api(`/agent/${agent.id}`, { method: 'PUT', body: { dtmf } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const bad = await world.api(`/agent/${agent.id}`, { method: 'PUT', body: { send_dtmf_enabled: 'on' } });
    expect(bad.status).toBe(400);
  });

  it('carrier_a: the agent presses a menu key through the carrier REST API, on the answered leg', async () => {
    const agent = await world.agent({
      prompt: 'You are Maya, calling Acme to reach the sales team about a bulk order.',
      intro_message: null,
      send_dtmf_enabled: true,
    });
    const call = await world.dial('carrier_a', agent.id);
    await call.media.pause(500);
    await call.media.say('Welcome to Acme. For billing, press 1. For sales, press 2.');
    const sent = await world.fake.waitForDigits(call.carrierId, 30_000);
    expect(sent).toEqual({ provider: 'carrier_a', id: call.carrierId, digits: '2', leg: 'aleg' });
    const request = world.fake.requests.find((r) => r.path.endsWith(`/Call/${call.carrierId}/DTMF/`));
    expect(request).toMatchObject({ method: 'POST', authorization: expect.stringMatching(/^Basic /) });
    await call.media.pause(1000);
    // Through the carrier, not in the stream's audio.
    expect(call.media.agentKeys).toBe('');
    await hangUp(call);
    const done = await world.finished(call.callId);
    expect(lines(done.session.transcript)).toEqual([
      ['user', 'Welcome to Acme. For billing, press 1. For sales, press 2.'],
      ['bot', '[keypad] 2'],
    ]);
  });
});
