// Warm transfers through the gateway on the fake carrier_b and carrier_a: the agent puts the caller on hold, the platform dials
// the agent's transfer_number as a second leg whose answer streams to the media plane, the agent briefs the human
// there (the fake human hears the briefing from the offline speech's text signal) and the human's yes bridges both
// legs in the carrier's conference (carrier_b <Dial><Conference>, carrier_a legs moved to <Conference> XML); a human who does not answer hands the caller back to the
// agent, who says so and carries on. The call keeps the transfer (legs, outcome, times), call.transferred says it,
// and the console's call page shows it in a real browser.
import { waitFor } from '@vap/testing';
import { launchBrowser, seriousA11yViolations } from '../../support/browser';
import { ChatScript } from '../../support/fake-media';
import { signInNewOwner } from '../console/console-fixtures';
import { LiveCall, TIME_SCALE, VoiceWorld } from './voice-fixtures';
import { voiceScript } from './voice-script';

const INTRO = 'Hello, this is Maya from Acme.';
const TRANSFER_MESSAGE = 'Let me get a colleague for you.';
/** What the fake model writes when the platform asks it for the briefing. */
const BRIEFING = 'Ada is calling about a refund for order 42.';
const QUESTION = 'Shall I put the caller through now?';

/** The voice script, plus the briefing when the platform asks the model for one. */
const script: ChatScript = (request) => {
  const system = request.messages[0]?.content ?? '';
  if (/hand this phone call to a human colleague/.test(system)) return { text: BRIEFING };
  return voiceScript(request);
};

describe('warm transfers through the fake carriers', () => {
  let world: VoiceWorld;

  beforeAll(async () => {
    world = await VoiceWorld.start({ name: 'voice_warm_transfer', providers: { llm: true } });
    world.ai.script(script);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  const warmAgent = (transferNumber: string) =>
    world.agent({
      transfer_enabled: true,
      transfer_number: transferNumber,
      transfer_message: TRANSFER_MESSAGE,
      transfer_mode: 'warm_handback',
      transfer_ring_timeout_secs: 15,
      transfer_briefing_instructions: 'Say what the caller wants.',
    });

  /** The caller asks for a human and hears the transfer message; the platform then dials the human. */
  async function askForHuman(call: LiveCall, human: string) {
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('Can I talk to a human please?');
    await call.media.waitForHeard(TRANSFER_MESSAGE);
    return world.fake.waitForCall(human);
  }

  it("briefs the human on their own leg, then bridges both legs in carrier_b's conference", async () => {
    const human = '+14155550193';
    const agent = await warmAgent(human);
    const call = await world.dial('carrier_b', agent.id, { body: { client_reference_id: 'warm-b' } });
    const leg = await askForHuman(call, human);
    const started = await world.call(call.callId);
    // The human's leg: from the call's number, ringing at most the agent's ring timeout, with its own callbacks.
    expect(leg.form).toMatchObject({
      To: [human],
      From: [started.from_number],
      Timeout: ['15'],
      Url: [expect.stringMatching(new RegExp(`/callbacks/carrier_b/${call.callId}/transfer_answer$`))],
      StatusCallback: [
        expect.stringMatching(new RegExp(`/callbacks/carrier_b/${call.callId}/transfer_status$`)),
      ],
    });
    // Under way: on the call, not settled.
    expect(started.transfer).toMatchObject({ transfer_type: 'warm', to_number: human, outcome: null });

    await world.fake.callbackB(leg, { CallStatus: 'ringing', SequenceNumber: '1' });
    const answered = await world.fake.answer(leg, { timeScale: TIME_SCALE });
    const consult = answered.media!;
    // The human hears the briefing the model wrote and the question; the caller (on hold) hears neither.
    await consult.waitForHeard(BRIEFING);
    await consult.waitForHeard(QUESTION);
    expect(call.media.heard.map((h) => h.text).join(' ')).not.toContain(BRIEFING);
    await consult.waitUntilAgentSilent();
    await consult.say('Yes, please put them through.');

    // Both legs join one conference, the human's first; each leaving ends it.
    const humanBridge = await world.fake.waitForTransfer(leg.providerCallId);
    const callerBridge = await world.fake.waitForTransfer(call.carrierId);
    const conference = `<Response><Dial><Conference beep="false" startConferenceOnEnter="true" endConferenceOnExit="true">vap-transfer-${call.callId}</Conference></Dial></Response>`;
    expect(humanBridge.twiml).toBe(conference);
    expect(callerBridge.twiml).toBe(conference);
    expect(world.fake.transfers.indexOf(humanBridge)).toBeLessThan(
      world.fake.transfers.indexOf(callerBridge),
    );
    await call.media.waitForClose();
    await world.complete(call, call.media.mediaMs / 1000 + 5);

    const done = await world.finished(call.callId);
    expect(done).toMatchObject({ disposition: 'transferred', end_call_reason: 'transferred' });
    expect(done.session.tool_calls).toEqual([
      expect.objectContaining({ name: 'transfer_call', kind: 'builtin', outcome: 'success' }),
    ]);
    const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
    expect(done.transfer).toEqual({
      transfer_type: 'warm',
      to_number: human,
      reason: 'the caller asked for a human',
      outcome: 'bridged',
      requested_at: iso,
      answered_at: iso,
      bridged_at: iso,
      legs: [
        // Both legs were bridged, and ended with the call.
        expect.objectContaining({
          role: 'caller',
          carrier_call_id: call.carrierId,
          status: 'completed',
          ended_at: iso,
        }),
        expect.objectContaining({
          role: 'human',
          carrier_call_id: leg.providerCallId,
          from_number: started.from_number,
          to_number: human,
          status: 'completed',
          answered_at: iso,
          ended_at: iso,
        }),
      ],
    });
    const { requested_at, answered_at, bridged_at } = done.transfer;
    expect(Date.parse(requested_at)).toBeLessThanOrEqual(Date.parse(answered_at));
    expect(Date.parse(answered_at)).toBeLessThanOrEqual(Date.parse(bridged_at));
    const events = await waitFor(() => {
      const found = world.tap.of(call.callId, 'events.call.transferred');
      return found.length ? found : undefined;
    });
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({
      call_id: call.callId,
      transfer_to: human,
      transfer_type: 'warm',
      outcome: 'bridged',
      // As the legs were when they were bridged: neither had ended with the call yet.
      legs: done.transfer.legs.map((l: { status: string; ended_at: string | null }) => ({
        ...l,
        status: 'bridged',
        ended_at: null,
      })),
      provider: 'carrier_b',
      client_reference_id: 'warm-b',
    });

    // The partner's owner sees the transfer on the call's page: how it went, when, and both legs.
    const launched = await launchBrowser();
    try {
      const page = await signInNewOwner(launched.browser, world.gateway);
      await page.goto(`${world.gateway}/console/calls/${call.callId}`);
      const fact = (label: string) =>
        page.locator('dl.facts dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
      await fact('Transfer reason').waitFor();
      expect(await fact('Transfer').first().textContent()).toBe(`warm to ${human}: bridged`);
      expect(await fact('Transfer reason').textContent()).toBe('the caller asked for a human');
      expect(await fact('Bridged').textContent()).toBeTruthy();
      expect(await fact('Caller leg').textContent()).toContain(call.carrierId);
      expect(await fact('Human leg').textContent()).toContain(
        `${leg.providerCallId} · ${started.from_number} → ${human} · completed · answered `,
      );
      expect(await seriousA11yViolations(page)).toEqual([]);
    } finally {
      await launched.close();
    }
  });

  it("carrier_a: the human is briefed on their leg, then both legs are moved to the conference's XML", async () => {
    const human = '+919811110093';
    const agent = await warmAgent(human);
    const call = await world.dial('carrier_a', agent.id);
    const leg = await askForHuman(call, human);
    expect(leg.json).toMatchObject({
      to: human,
      ring_timeout: 15,
      answer_url: expect.stringMatching(new RegExp(`/callbacks/carrier_a/${call.callId}/transfer_answer$`)),
      hangup_url: expect.stringMatching(new RegExp(`/callbacks/carrier_a/${call.callId}/transfer_status$`)),
    });
    await world.fake.callbackA(leg, 'ring', { CallStatus: 'ringing' });
    const consult = (await world.fake.answer(leg, { timeScale: TIME_SCALE })).media!;
    await consult.waitForHeard(BRIEFING);
    await consult.waitForHeard(QUESTION);
    expect(call.media.heard.map((h) => h.text).join(' ')).not.toContain(BRIEFING);
    await consult.waitUntilAgentSilent();
    await consult.say('Yes, please put them through.');

    // Each leg (the human's first) is moved to the platform's signed conference XML, fetched as carrier_a does.
    const humanMove = await world.fake.waitForTransfer(leg.legId);
    const callerMove = await world.fake.waitForTransfer(call.carrierId);
    expect(world.fake.transfers.indexOf(humanMove)).toBeLessThan(world.fake.transfers.indexOf(callerMove));
    for (const [move, placed] of [
      [humanMove, leg],
      [callerMove, call.placed],
    ] as const) {
      const xml = await world.fake.post(placed.account, move.alegUrl!, {
        CallUUID: placed.legId,
        ALegUUID: placed.legId,
        ALegRequestUUID: placed.providerCallId,
        From: placed.from,
        To: placed.to,
        Direction: 'outbound',
        CallStatus: 'in-progress',
      });
      expect(xml.status).toBe(200);
      expect(xml.body).toContain(
        `<Response><Conference startConferenceOnEnter="true" endConferenceOnExit="true" enterSound="" exitSound="">vap-transfer-${call.callId}</Conference></Response>`,
      );
    }
    await call.media.waitForClose();
    await world.complete(call, call.media.mediaMs / 1000 + 5);
    const done = await world.finished(call.callId);
    expect(done).toMatchObject({
      disposition: 'transferred',
      transfer: {
        transfer_type: 'warm',
        outcome: 'bridged',
        answered_at: expect.any(String),
        legs: [
          { role: 'caller', carrier_call_id: call.carrierId, status: 'completed' },
          { role: 'human', carrier_call_id: leg.legId, status: 'completed' },
        ],
      },
    });
  });

  it('carrier_a: the human does not answer; the agent hands the caller back', async () => {
    const human = '+919811110001';
    const agent = await warmAgent(human);
    const call = await world.dial('carrier_a', agent.id);
    const leg = await askForHuman(call, human);
    await world.fake.callbackA(leg, 'hangup', {
      CallStatus: 'no-answer',
      HangupCause: 'NO_ANSWER',
      HangupCauseName: 'No Answer',
    });
    await call.media.waitForHeard("I'm sorry, my colleague didn't answer.");
    await call.media.waitForHeard('How else can I help?');
    const live = await world.call(call.callId);
    expect(live.transfer).toMatchObject({ outcome: 'no_answer', legs: [{}, { status: 'no_answer' }] });
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    await world.finished(call.callId);
  });

  it('hands the caller back when the human does not answer: the agent says so and the call goes on', async () => {
    const human = '+14155550101';
    const agent = await warmAgent(human);
    const call = await world.dial('carrier_b', agent.id);
    const leg = await askForHuman(call, human);
    await world.fake.callbackB(leg, { CallStatus: 'ringing', SequenceNumber: '1' });
    await world.fake.callbackB(leg, { CallStatus: 'no-answer', CallDuration: '0', SequenceNumber: '2' });

    await call.media.waitForHeard("I'm sorry, my colleague didn't answer.");
    await call.media.waitForHeard('How else can I help?');
    await call.media.waitUntilAgentSilent();
    // The conversation goes on with the agent.
    await call.media.say('What are your opening hours?');
    await call.media.waitForHeard('You said What are your opening hours.');
    expect(world.fake.transfers.filter((t) => t.id === call.carrierId)).toEqual([]);

    const live = await world.call(call.callId);
    expect(live.status).toBe('in_progress');
    expect(live.transfer).toMatchObject({
      transfer_type: 'warm',
      outcome: 'no_answer',
      answered_at: null,
      bridged_at: null,
      legs: [
        expect.objectContaining({ role: 'caller', status: 'answered' }),
        expect.objectContaining({
          role: 'human',
          carrier_call_id: leg.providerCallId,
          status: 'no_answer',
          ended_at: expect.any(String),
        }),
      ],
    });
    const events = await waitFor(() => {
      const found = world.tap.of(call.callId, 'events.call.transferred');
      return found.length ? found : undefined;
    });
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ transfer_type: 'warm', outcome: 'no_answer' }),
    ]);

    // The caller hangs up: the call ends as any other, not transferred.
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    const done = await world.finished(call.callId);
    expect(done.disposition).not.toBe('transferred');
    expect(done.session.tool_calls).toEqual([
      expect.objectContaining({ name: 'transfer_call', kind: 'builtin', outcome: 'failed' }),
    ]);
  });

  it('the human declines: their leg is hung up and the caller is told', async () => {
    const human = '+14155550194';
    const agent = await warmAgent(human);
    const call = await world.dial('carrier_b', agent.id);
    const leg = await askForHuman(call, human);
    const consult = (await world.fake.answer(leg, { timeScale: TIME_SCALE })).media!;
    await consult.waitForHeard(QUESTION);
    await consult.waitUntilAgentSilent();
    await consult.say("No, sorry, I can't take it right now.");
    await world.fake.waitForHangup(leg.providerCallId);
    await call.media.waitForHeard("I'm sorry, my colleague can't take your call right now.");
    const live = await world.call(call.callId);
    expect(live.transfer).toMatchObject({
      outcome: 'declined',
      answered_at: expect.any(String),
      legs: [expect.objectContaining({ role: 'caller' }), expect.objectContaining({ status: 'declined' })],
    });
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    await world.finished(call.callId);
  });

  it('the caller hangs up on hold: the ringing human leg is hung up, nothing runs after the call', async () => {
    const human = '+14155550195';
    const agent = await warmAgent(human);
    const call = await world.dial('carrier_b', agent.id);
    const leg = await askForHuman(call, human);
    await world.fake.callbackB(leg, { CallStatus: 'ringing', SequenceNumber: '1' });
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    await world.fake.waitForHangup(leg.providerCallId);
    const done = await world.finished(call.callId);
    expect(done.transfer).toMatchObject({ outcome: 'failed' });
    expect(done.disposition).not.toBe('transferred');
  });
});
