// Touch tones (DTMF) both ways on both carriers, end to end through the gateway: the fake carriers' streams
// report the callee's key presses as their protocol does (dtmf frames), and observe the agent's keys the way the
// far end would (carrier_a: its REST DTMF request; carrier_b: the tones in the stream's audio, heard by a
// Goertzel detector). Everything is offline: speech engines and the rule-based language model, whose
// documented rules acknowledge a keypad entry and press the menu option the agent's prompt names.
import { waitFor } from '@vap/testing';
import { LiveCall, Provider, VoiceWorld } from './voice-fixtures';

const INTRO = 'Hello, this is Maya from Acme.';

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

  describe.each(['carrier_b', 'carrier_a'] as const)('%s', (provider: Provider) => {
    it('the callee presses keys: each entry reaches the model as caller input, a fixed-length one included', async () => {
      const agent = await world.agent({ dtmf: { enabled: true, max_digits: 6, terminator: '#' } });
      const call = await world.dial(provider, agent.id);
      await call.media.waitForHeard(INTRO);
      await call.media.waitUntilAgentSilent();

      // Ended by the terminator, which is not one of the digits.
      await call.media.press('4711#');
      await call.media.waitForHeard('I have the number 4 7 1 1.');
      await call.media.waitUntilAgentSilent();
      // A fixed-length entry: the sixth key ends it, no terminator needed.
      await call.media.press('123456');
      await call.media.waitForHeard('I have the number 1 2 3 4 5 6.');
      await call.media.waitUntilAgentSilent();
      await hangUp(call);

      expect(call.media.sent('dtmf')).toHaveLength(11);
      const done = await world.finished(call.callId);
      expect(done.status).toBe('completed');
      expect(lines(done.session.transcript)).toEqual([
        ['bot', INTRO],
        ['user', '[keypad] 4711 #'],
        ['bot', 'Thank you. I have the number 4 7 1 1.'],
        ['user', '[keypad] 123456'],
        ['bot', 'Thank you. I have the number 1 2 3 4 5 6.'],
      ]);
    });

    it('a key pressed while the agent speaks interrupts it; keys are ignored when the agent does not take them', async () => {
      const agent = await world.agent({
        dtmf: { enabled: true, max_digits: 1 },
        intro_message:
          'Hello, this is Maya from Acme. I am calling about your recent order, which has several items in it.',
      });
      const call = await world.dial(provider, agent.id);
      // Pressed a second into the intro (its words are heard only once it has all played).
      await waitFor(() => call.media.playedAgentAudio.length > 50 || undefined, {
        description: 'a second of the intro',
      });
      await call.media.press('9');
      await call.media.waitForHeard('I have the number 9.');
      expect(call.media.clears).toBeGreaterThan(0);
      await call.media.waitUntilAgentSilent();
      await hangUp(call);
      const done = await world.finished(call.callId);
      const [intro, entry] = done.session.transcript;
      expect(intro).toMatchObject({ role: 'bot', interrupted: true });
      expect(call.media.heard.map((h) => h.text)).not.toContain(
        'Hello, this is Maya from Acme. I am calling about your recent order, which has several items in it.',
      );
      expect(entry).toMatchObject({ role: 'user', content: '[keypad] 9' });

      const deaf = await world.agent();
      const other = await world.dial(provider, deaf.id);
      await other.media.waitForHeard(INTRO);
      await other.media.waitUntilAgentSilent();
      await other.media.press('12#');
      await other.media.pause(4000);
      await hangUp(other);
      const ignored = await world.finished(other.callId);
      expect(lines(ignored.session.transcript)).toEqual([['bot', INTRO]]);
    });
  });

  it('carrier_b: the agent presses a menu key in-band; the far end hears the tones', async () => {
    const agent = await world.agent({
      prompt: 'You are Maya, calling Acme to reach the sales team about a bulk order.',
      intro_message: null,
      send_dtmf_enabled: true,
    });
    const call = await world.dial('carrier_b', agent.id);
    await call.media.pause(500);
    await call.media.say('Welcome to Acme. Press 1 for billing. Press 2 for sales.');
    await call.media.waitForAgentKeys('2');
    await call.media.waitUntilAgentSilent();
    // One key, played once: nothing else the agent said sounds like a key.
    expect(call.media.agentKeys).toBe('2');
    // The carrier has no REST request for keys: none was made.
    expect(world.fake.digitsSent.filter((d) => d.id === call.carrierId)).toEqual([]);
    await hangUp(call);
    const done = await world.finished(call.callId);
    expect(lines(done.session.transcript)).toEqual([
      ['user', 'Welcome to Acme. Press 1 for billing. Press 2 for sales.'],
      ['bot', '[keypad] 2'],
    ]);
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

  it('send_dtmf is not offered to an agent without it: a menu gets no keys', async () => {
    const agent = await world.agent({
      prompt: 'You are Maya, calling Acme to reach the sales team about a bulk order.',
      intro_message: null,
    });
    const call = await world.dial('carrier_a', agent.id);
    await call.media.pause(500);
    await call.media.say('Welcome to Acme. Press 2 for sales.');
    await call.media.waitForHeard(/./);
    await call.media.waitUntilAgentSilent();
    expect(world.fake.digitsSent.filter((d) => d.id === call.carrierId)).toEqual([]);
    expect(call.media.agentKeys).toBe('');
    await hangUp(call);
  });
});
