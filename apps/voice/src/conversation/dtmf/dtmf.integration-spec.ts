// Touch tones both ways on a carrier_b call into the voice service: the sandbox carrier's phone reports the callee's
// key presses as dtmf frames and hears the agent's keys in the stream's audio (a Goertzel detector). Everything is
// offline: speech engines and the rule-based language model, whose documented rules acknowledge a keypad entry and
// press the menu option the agent's prompt names. carrier_a's REST route for the agent's keys is the e2e spec's.
import { AgentSnapshot, Subjects } from '@vap/messages';
import { SimulatedPhone } from '@vap/carrier-sim';
import { useIntegrationApp } from '@vap/testing/integration';
import { CarrierCall, CarrierCalls, PhoneRun } from '../../testing/carrier-calls';
import { startVoice } from '../../testing/voice-integration';

const INTRO = 'Hello, this is Maya from Acme.';
const MENU_AGENT: Partial<AgentSnapshot> = {
  prompt: 'You are Maya, calling Acme to reach the sales team about a bulk order.',
  introMessage: null,
};

describe('DTMF on a carrier_b call', () => {
  let calls: CarrierCalls;

  // Media at four times real time; lines are waited for as the voice service reports them played.
  const voice = useIntegrationApp(
    () => startVoice({ http: true, env: { MEDIA_TIME_SCALE: '4', DRAIN_DEADLINE_MS: '1000' } }),
    { timeout: 60_000 },
  );

  beforeAll(() => {
    calls = new CarrierCalls(voice);
  });

  /** The agent finished a turn (a line read, then a pause). */
  async function agentDone(phone: SimulatedPhone): Promise<void> {
    expect(await phone.listen(30_000)).not.toBeNull();
  }

  /** The callee hangs up; the call's transcript once the voice service reported the stream ended. */
  async function hangUp(call: CarrierCall, run: PhoneRun): Promise<[string, string][]> {
    await calls.hangUp(call, run);
    return calls
      .transcript(call.callId)
      .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))
      .map((l) => [l.role, l.content]);
  }

  it('the callee presses keys: each entry reaches the model as caller input, a fixed-length one included', async () => {
    const call = calls.call({
      introMessage: INTRO,
      dtmf: { enabled: true, maxDigits: 6, terminator: '#', timeoutMs: 3000 },
    });
    const run = calls.dial(call);
    await calls.played(call, INTRO);
    await agentDone(run.phone);

    // Ended by the terminator, which is not one of the digits.
    await run.phone.press('4711#');
    await calls.played(call, 'I have the number 4 7 1 1.');
    await agentDone(run.phone);
    // A fixed-length entry: the sixth key ends it, no terminator needed.
    await run.phone.press('123456');
    await calls.played(call, 'I have the number 1 2 3 4 5 6.');
    await agentDone(run.phone);

    expect(await hangUp(call, run)).toEqual([
      ['bot', INTRO],
      ['user', '[keypad] 4711 #'],
      ['bot', 'Thank you. I have the number 4 7 1 1.'],
      ['user', '[keypad] 123456'],
      ['bot', 'Thank you. I have the number 1 2 3 4 5 6.'],
    ]);
  });

  it('a key pressed while the agent speaks interrupts it; keys are ignored when the agent does not take them', async () => {
    const longIntro =
      'Hello, this is Maya from Acme. I am calling about your recent order, which has several items in it.';
    const call = calls.call({
      introMessage: longIntro,
      dtmf: { enabled: true, maxDigits: 1, terminator: '#', timeoutMs: 3000 },
    });
    const run = calls.dial(call);
    // Pressed a second into the intro (its words are heard only once it has all played).
    expect(await run.phone.agentTalking(1000, 30_000)).toBe(true);
    await run.phone.press('9');
    await calls.played(call, 'I have the number 9.');
    await agentDone(run.phone);
    expect(await hangUp(call, run)).toEqual([
      ['bot', expect.any(String)],
      ['user', '[keypad] 9'],
      ['bot', 'Thank you. I have the number 9.'],
    ]);
    // The intro was cut where the key came: only what played is in its line.
    const intro = calls.transcript(call.callId).find((l) => l.role === 'bot')!;
    expect(intro).toMatchObject({ interrupted: true });
    expect(longIntro.startsWith(intro.content) && intro.content !== longIntro).toBe(true);
    expect(run.phone.heard).not.toContain(longIntro);

    const deaf = calls.call({ introMessage: INTRO });
    const other = calls.dial(deaf);
    await calls.played(deaf, INTRO);
    await agentDone(other.phone);
    await other.phone.press('12#');
    await other.phone.pause(4000);
    expect(await hangUp(deaf, other)).toEqual([['bot', INTRO]]);
  });

  it('the agent presses a menu key in-band; the far end hears the tones', async () => {
    const call = calls.call({ ...MENU_AGENT, sendDtmfEnabled: true });
    const run = calls.dial(call);
    await run.phone.pause(500);
    await run.phone.say('Welcome to Acme. Press 1 for billing. Press 2 for sales.');
    expect(await run.phone.nextKey(30_000)).toBe('2');
    await run.phone.pause(2000);
    // One key, played once: nothing else the agent said sounds like a key.
    expect(run.phone.keysHeard).toBe('2');
    expect(await hangUp(call, run)).toEqual([
      ['user', 'Welcome to Acme. Press 1 for billing. Press 2 for sales.'],
      ['bot', '[keypad] 2'],
    ]);
    // carrier_b has no request for keys: the calls service was not asked to send any.
    expect(voice.peers.received.filter((r) => r.subject === Subjects.calls.voiceSendDtmf)).toEqual([]);
  });

  it('send_dtmf is not offered to an agent without it: a menu gets no keys', async () => {
    const call = calls.call(MENU_AGENT);
    const run = calls.dial(call);
    await run.phone.pause(500);
    await run.phone.say('Welcome to Acme. Press 2 for sales.');
    await agentDone(run.phone);
    expect(run.phone.keysHeard).toBe('');
    const transcript = await hangUp(call, run);
    // The agent answered the menu, in words only.
    expect(transcript[0]).toEqual(['user', 'Welcome to Acme. Press 2 for sales.']);
    expect(transcript.filter(([role]) => role === 'bot').length).toBeGreaterThan(0);
    expect(transcript.map(([, content]) => content)).not.toContain('[keypad] 2');
    expect(voice.peers.received.filter((r) => r.subject === Subjects.calls.voiceSendDtmf)).toEqual([]);
  });
});
