// Live spoken conversations on carrier calls, end to end through the gateway: a platform of the spec's own whose
// carriers are the fake carrier_b / carrier_a (they answer into the media stream and speak its protocol) and whose
// language model is the fake OpenAI-compatible server; speech is the platform's offline engines, whose audio
// carries its text so the fake carrier knows what the agent said. One test per journey that crosses services (what
// the calls service records, tells the carrier and publishes); what the voice runtime does on its own (barge-in, idle
// reprompts, the duration cap, tool acknowledgements, ambience) is in the voice service's integration specs.
import { connect, StringCodec } from 'nats';
import { waitFor } from '@vap/testing';
import { e2eEnv } from '../../support';
import { activeFraction, textsIn } from '../../support/fake-media';
import { botLines, LiveCall, Provider, VoiceWorld } from './voice-fixtures';
import { KB_FACT, LONG_REPLY, voiceScript } from './voice-script';

const INTRO = 'Hello, this is Maya from Acme.';
const TRANSFER_TO = '+919811112222';

describe('voice calls through the fake carriers', () => {
  let world: VoiceWorld;

  beforeAll(async () => {
    world = await VoiceWorld.start({ name: 'voice_calls', providers: { llm: true } });
    world.ai.script(voiceScript);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  /**
   * Caller says `text` once the agent is silent (its speech outlasts the text signal it was heard by), or at
   * once over the agent with `overAgent`; resolves once the agent's answer was heard and has ended.
   */
  async function turn(
    call: LiveCall,
    text: string,
    answer: string | RegExp,
    { overAgent = false }: { overAgent?: boolean } = {},
  ): Promise<void> {
    if (!overAgent) await call.media.waitUntilAgentSilent();
    await call.media.say(text);
    await call.media.waitForHeard(answer);
    await call.media.waitUntilAgentSilent();
  }

  describe.each(['carrier_b', 'carrier_a'] as const)('%s', (provider: Provider) => {
    it('runs the conversation: intro heard, the caller answered, transcript with latency, hang-up through REST', async () => {
      const agent = await world.agent({
        end_call_enabled: true,
        end_call_message: 'Thanks for calling Acme, goodbye.',
      });
      const call = await world.dial(provider, agent.id);
      if (provider === 'carrier_b') {
        expect(call.answer.body).toMatch(
          /<Response><Connect><Stream url="wss?:\/\/[^"]+\/media\/carrier_b\/[^"?]+\?token=[^"]+">/,
        );
        expect(call.answer.body).toContain(`<Parameter name="callId" value="${call.callId}"/>`);
      } else {
        expect(call.answer.body).toMatch(
          /<Stream bidirectional="true" keepCallAlive="true" contentType="audio\/x-mulaw;rate=8000"[^>]*>wss?:\/\/[^<]+\/media\/carrier_a\/[^<?]+\?token=[^<]+<\/Stream>/,
        );
      }
      expect(call.media.url).toContain(`/media/${provider}/${encodeURIComponent(call.callId)}?token=`);

      const intro = await call.media.waitForHeard(INTRO);
      await turn(
        call,
        'I would like to know my order status.',
        'You said I would like to know my order status.',
      );
      await call.media.say('That is all, goodbye.');
      await call.media.waitForHeard('Thanks for calling Acme, goodbye.');
      await world.hungUpByPlatform(call);
      await call.media.waitForClose();

      // The carrier's protocol both ways: marks/checkpoints sent after the agent's audio and echoed once played.
      const audioEvent = provider === 'carrier_b' ? 'media' : 'playAudio';
      const markEvent = provider === 'carrier_b' ? 'mark' : 'checkpoint';
      expect(call.media.received(audioEvent).length).toBeGreaterThan(50);
      expect(call.media.received(markEvent).length).toBeGreaterThan(0);
      expect(call.media.echoedMarks.length).toBeGreaterThan(0);
      expect(call.media.faults).toEqual([]);
      // On connect, not after the caller spoke (they have not) or an idle timer: media time, at TIME_SCALE a
      // busy machine's second of setup and synthesis is 8 s of it.
      expect(intro.atMs).toBeLessThan(20_000);

      const done = await world.finished(call.callId);
      expect(done).toMatchObject({ status: 'completed', provider, end_call_reason: 'agent_ended_call' });
      const entries = done.session.transcript;
      expect(entries.map((e: { role: string; content: string }) => [e.role, e.content])).toEqual([
        ['bot', INTRO],
        ['user', 'I would like to know my order status.'],
        ['bot', 'You said I would like to know my order status.'],
        ['user', 'That is all, goodbye.'],
        ['bot', 'Thanks for calling Acme, goodbye.'],
      ]);
      const times = entries.map((e: { timestamp: string }) => Date.parse(e.timestamp));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      // The answer to the caller carries its latency parts, in order along the pipeline.
      const latency = entries[2].latency;
      expect(latency).toEqual({
        endpointing_ms: expect.any(Number),
        stt_final_ms: expect.any(Number),
        llm_first_token_ms: expect.any(Number),
        tts_first_byte_ms: expect.any(Number),
        first_frame_out_ms: expect.any(Number),
        voice_to_voice_ms: expect.any(Number),
      });
      expect(latency.stt_final_ms).toBeGreaterThanOrEqual(latency.endpointing_ms);
      // The model may start before the final transcript (an early reply on the words of a pause, adopted when
      // the final says the same), but nothing is synthesised or heard before it.
      expect(latency.llm_first_token_ms).toBeGreaterThanOrEqual(0);
      expect(latency.tts_first_byte_ms).toBeGreaterThanOrEqual(latency.stt_final_ms);
      expect(latency.tts_first_byte_ms).toBeGreaterThanOrEqual(latency.llm_first_token_ms);
      expect(latency.first_frame_out_ms).toBeGreaterThanOrEqual(latency.tts_first_byte_ms);
      expect(latency.voice_to_voice_ms).toBeGreaterThanOrEqual(latency.first_frame_out_ms);
      expect(entries[0].latency).toBeUndefined();

      // The model got the agent's prompt, the conversation so far and the caller's words.
      const chat = world.ai.chats.find((c) =>
        c.messages.some((m) => m.role === 'user' && m.content === 'I would like to know my order status.'),
      )!;
      expect(chat).toMatchObject({ stream: true, authorization: `Bearer ${world.ai.apiKey}` });
      expect(chat.messages[0]).toMatchObject({
        role: 'system',
        content: expect.stringContaining('You are Maya'),
      });
    });
  });

  it('end_call tool: offered only when enabled; the agent says end_call_message and hangs up (agent_ended_call)', async () => {
    const disabled = await world.agent({ end_call_enabled: false });
    const plain = await world.dial('carrier_b', disabled.id);
    await plain.media.waitForHeard(INTRO);
    await plain.media.waitUntilAgentSilent();
    await turn(plain, 'Okay, goodbye.', 'You said Okay, goodbye.');
    const offeredTo = (callText: string) =>
      world.ai.chats.find((c) => c.messages.some((m) => m.role === 'user' && m.content === callText))!;
    expect(offeredTo('Okay, goodbye.').tools.map((t) => t.function.name)).not.toContain('end_call');
    plain.media.hangUp();
    await world.complete(plain, plain.media.mediaMs / 1000, 'callee');

    const agent = await world.agent({
      end_call_enabled: true,
      end_call_message: 'It was a pleasure, goodbye.',
      end_call_instructions: 'End the call when the caller says goodbye.',
    });
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await turn(call, 'Thanks, bye.', 'It was a pleasure, goodbye.');
    const chat = offeredTo('Thanks, bye.');
    expect(chat.tools.map((t) => t.function.name)).toContain('end_call');
    expect(chat.messages[0].content).toContain('End the call when the caller says goodbye.');
    await world.hungUpByPlatform(call);
    const done = await world.finished(call.callId);
    expect(done).toMatchObject({ status: 'completed', end_call_reason: 'agent_ended_call' });
    // The session lists the tool the agent called.
    expect(done.session.tool_calls).toEqual([
      {
        name: 'end_call',
        kind: 'builtin',
        function_id: null,
        arguments: expect.any(Object),
        arguments_truncated: false,
        outcome: 'success',
        latency_ms: expect.any(Number),
        log_id: null,
        timestamp: expect.any(String),
        variables: {},
      },
    ]);
    expect(Date.parse(done.session.tool_calls[0].timestamp)).toBeGreaterThanOrEqual(
      Date.parse(done.started_at),
    );
    expect((await world.call(plain.callId)).session.tool_calls).toEqual([]);
    expect((await world.call(plain.callId)).end_call_reason).not.toBe('agent_ended_call');
  });

  it('opt_out tool: the number joins the do-not-call list, the agent says goodbye, the call ends (opted_out) and the next dial is refused', async () => {
    const agent = await world.agent({ end_call_enabled: false });
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await turn(call, 'Please do not call me again.', "Understood. We won't call you again. Goodbye.");
    await world.hungUpByPlatform(call);
    const done = await world.finished(call.callId);
    expect(done).toMatchObject({ status: 'completed', end_call_reason: 'opted_out' });
    expect(
      done.session.tool_calls.map((t: { name: string; outcome: string }) => [t.name, t.outcome]),
    ).toEqual([['opt_out', 'success']]);
    const lookup = await world.api(`/do-not-call/lookup?number=${encodeURIComponent(done.to_number)}`);
    expect(lookup.body.data).toMatchObject({
      listed: true,
      matches: [{ kind: 'number', number: done.to_number, reason: 'opt_out', source: 'call' }],
    });
    const again = await world.api('/calls/start', {
      method: 'POST',
      body: { agent_id: agent.id, to_number: done.to_number },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('DO_NOT_CALL');
  });

  describe.each(['carrier_b', 'carrier_a'] as const)('transfer on %s', (provider: Provider) => {
    it('says transfer_message, transfers cold through the carrier REST API and emits call.transferred', async () => {
      const agent = await world.agent({
        transfer_enabled: true,
        transfer_number: TRANSFER_TO,
        transfer_message: 'Connecting you to a colleague now.',
        transfer_instructions: 'Transfer when the caller asks for a human.',
      });
      const call = await world.dial(provider, agent.id, {
        body: { client_reference_id: `xfer-${provider}` },
      });
      await call.media.waitForHeard(INTRO);
      await call.media.waitUntilAgentSilent();
      await call.media.waitUntilAgentSilent();
      await turn(call, 'Can I talk to a human please?', 'Connecting you to a colleague now.');
      const { dialed } = await world.transferred(call);
      expect(dialed).toBe(TRANSFER_TO);
      // The call left the stream at the carrier.
      await call.media.waitForClose();
      await world.complete(call, call.media.mediaMs / 1000);

      const done = await world.finished(call.callId);
      expect(done).toMatchObject({
        status: 'completed',
        disposition: 'transferred',
        end_call_reason: 'transferred',
      });
      expect(done.session.tool_calls).toEqual([
        expect.objectContaining({ name: 'transfer_call', kind: 'builtin', outcome: 'success' }),
      ]);
      const events = await waitFor(() => {
        const found = world.tap.of(call.callId, 'events.call.transferred');
        return found.length ? found : undefined;
      });
      expect(events).toHaveLength(1);
      // The call keeps the transfer: cold, handed to the carrier, the caller's leg by the carrier's id.
      expect(done.transfer).toEqual({
        transfer_type: 'cold',
        to_number: TRANSFER_TO,
        reason: expect.any(String),
        outcome: 'bridged',
        requested_at: expect.any(String),
        answered_at: null,
        bridged_at: expect.any(String),
        legs: [
          {
            role: 'caller',
            carrier_call_id: call.carrierId,
            from_number: done.from_number,
            to_number: done.to_number,
            // The caller's leg ends with the call.
            status: 'completed',
            started_at: done.started_at,
            answered_at: done.started_at,
            ended_at: expect.any(String),
          },
          {
            role: 'human',
            carrier_call_id: null,
            from_number: done.from_number,
            to_number: TRANSFER_TO,
            status: 'carrier_dialed',
            started_at: done.transfer.bridged_at,
            answered_at: null,
            ended_at: null,
          },
        ],
      });
      expect(Date.parse(done.transfer.requested_at)).toBeLessThanOrEqual(
        Date.parse(done.transfer.bridged_at),
      );
      const { to_number, ...transfer } = done.transfer;
      // call.transferred tells the transfer as it was made: the caller's leg bridged, not yet ended with the call.
      const [callerLeg, humanLeg] = transfer.legs;
      expect(events[0].data).toMatchObject({
        call_id: call.callId,
        transfer_to: to_number,
        ...transfer,
        legs: [{ ...callerLeg, status: 'bridged', ended_at: null }, humanLeg],
        provider,
        client_reference_id: `xfer-${provider}`,
      });
    });
  });

  it('transfer targets: never a transfer_number on the do-not-call list, never a number the agent does not name', async () => {
    const listed = '+919811113333';
    const added = await world.api('/do-not-call', { body: { number: listed, reason: 'legal' } });
    expect(added.status).toBe(200);
    const agent = await world.agent({
      transfer_enabled: true,
      transfer_number: listed,
      transfer_message: 'Connecting you to a colleague now.',
    });
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('Can I talk to a human please?');
    await call.media.waitForHeard('Connecting you to a colleague now.');
    // The calls service refused the transfer: the agent says so and the caller stays with it.
    await call.media.waitForHeard("I'm sorry, I couldn't transfer your call right now.");
    expect(world.fake.transfers.filter((t) => t.id === call.carrierId)).toEqual([]);

    // Whatever else can send calls.voice.transfer cannot bridge the live call to another number.
    const nc = await connect({ servers: e2eEnv().natsUrl, name: 'e2e-voice-transfer' });
    try {
      const sc = StringCodec();
      const msg = await nc.request(
        `${world.own.prefix}.calls.voice.transfer`,
        sc.encode(
          JSON.stringify({
            partnerId: null,
            requestId: 'e2e-transfer',
            data: { callId: call.callId, to: '+919811114444', reason: 'agent_transfer' },
          }),
        ),
        { timeout: 10_000 },
      );
      expect(JSON.parse(sc.decode(msg.data))).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    } finally {
      await nc.close();
    }
    expect(world.fake.transfers.filter((t) => t.id === call.carrierId)).toEqual([]);
    expect((await world.call(call.callId)).status).toBe('in_progress');

    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    const done = await world.finished(call.callId);
    expect(done.end_call_reason).not.toBe('transferred');
    expect(world.tap.of(call.callId, 'events.call.transferred')).toEqual([]);
  });

  it('knowledge base: the search tool is offered for linked documents and its result grounds the answer', async () => {
    const agent = await world.agent({ kb_threshold: 'low' });
    await world.linkDocument(
      agent.id,
      `Acme plans and pricing. ${KB_FACT} The Family plan costs 999 rupees per month.`,
    );
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await turn(call, 'How much is the basic plan?', KB_FACT);

    const asked = world.ai.chats.find((c) =>
      c.messages.some((m) => m.role === 'user' && m.content === 'How much is the basic plan?'),
    )!;
    const search = asked.tools.find((t) => t.function.name === 'search_knowledge_base');
    expect(search?.function.parameters).toMatchObject({
      type: 'object',
      properties: { query: expect.anything() },
    });
    const grounded = world.ai.chats.find((c) => c.messages[c.messages.length - 1]?.role === 'tool')!;
    expect(grounded.messages[grounded.messages.length - 1].content).toContain('499 rupees');
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    const done = await world.finished(call.callId);
    expect(done.session.tool_calls).toEqual([
      expect.objectContaining({
        name: 'search_knowledge_base',
        kind: 'builtin',
        arguments: { query: expect.any(String) },
        outcome: 'success',
      }),
    ]);
  });

  it.each(['carrier_b', 'carrier_a'] as const)(
    'voicemail on %s: a machine answer hears voicemail_message, not the intro, then the call ends (voicemail_detected)',
    async (provider) => {
      const agent = await world.agent({
        voicemail_detection_enabled: true,
        voicemail_message: 'Sorry we missed you, please call Acme back.',
      });
      const call = await world.dial(provider, agent.id, { answeredBy: 'machine' });
      await call.media.waitForHeard('Sorry we missed you, please call Acme back.');
      await world.hungUpByPlatform(call);
      expect(call.media.heard.map((h) => h.text)).toEqual(['Sorry we missed you, please call Acme back.']);
      const done = await world.finished(call.callId);
      expect(done).toMatchObject({ answered_by: 'machine', end_call_reason: 'voicemail_detected' });
    },
  );

  it.each(['carrier_a', 'carrier_b'] as const)(
    'late voicemail on %s: machine detection answering after the conversation started has the agent leave voicemail_message and hang up (voicemail_detected)',
    async (provider) => {
      const message = 'Sorry we missed you, please call Acme back.';
      const agent = await world.agent({ voicemail_detection_enabled: true, voicemail_message: message });
      const call = await world.dial(provider, agent.id, { answeredBy: 'human' });
      // Machine detection was asked for asynchronously, on a callback of its own.
      expect(call.placed.urls[provider === 'carrier_a' ? 'machine' : 'amd']).toMatch(/\/callbacks\//);
      await call.media.waitForHeard(INTRO);
      expect((await world.call(call.callId)).answered_by).toBe('human');

      const verdict =
        provider === 'carrier_a'
          ? await world.fake.callbackA(call.placed, 'machine', {
              CallStatus: 'in-progress',
              Machine: 'true',
              Event: 'MachineDetection',
              IfMachine: 'continue',
              RequestUUID: call.placed.providerCallId,
            })
          : await world.fake.callbackB(
              call.placed,
              { AnsweredBy: 'machine_end_beep', MachineDetectionDuration: '2400' },
              { target: 'amd' },
            );
      expect(verdict.status).toBe(200);
      await call.media.waitForHeard(message);
      await world.hungUpByPlatform(call);
      expect(call.media.heard.map((h) => h.text)).toEqual([INTRO, message]);

      const done = await world.finished(call.callId);
      expect(done).toMatchObject({
        answered_by: 'machine',
        disposition: 'voicemail',
        end_call_reason: 'voicemail_detected',
      });
      expect(botLines(done.session.transcript).at(-1)).toMatchObject({ content: message });
    },
  );

  it('recording: a two-channel WAV with the caller on the left and the agent on the right, both carrying audio', async () => {
    const agent = await world.agent({ enable_recording: true, end_call_enabled: true });
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await turn(
      call,
      'I would like to know my order status.',
      'You said I would like to know my order status.',
    );
    await call.media.say('Goodbye.');
    await world.hungUpByPlatform(call);
    await world.finished(call.callId);

    const wav = await world.recording(call.callId);
    expect(wav).toMatchObject({ channels: 2, sampleRate: 8000 });
    const [caller, agentLeg] = wav.samples;
    expect(activeFraction(caller)).toBeGreaterThan(0.1);
    expect(activeFraction(agentLeg)).toBeGreaterThan(0.2);
    // Each leg holds its own side's words and not the other's.
    expect(textsIn(caller, 8000)).toContain('I would like to know my order status.');
    expect(textsIn(caller, 8000)).not.toContain(INTRO);
    expect(textsIn(agentLeg, 8000)).toEqual(
      expect.arrayContaining([INTRO, 'You said I would like to know my order status.']),
    );
  });

  it('a caller who hangs up mid-sentence: the stream stops, the call completes, the agent line holds what played', async () => {
    const agent = await world.agent();
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('Tell me everything about your plans.');
    await call.media.waitForHeard(LONG_REPLY[0]);
    call.media.hangUp();
    expect(call.media.sent('stop')).toHaveLength(1);
    await world.complete(call, call.media.mediaMs / 1000, 'callee');

    const done = await world.finished(call.callId);
    expect(done.status).toBe('completed');
    // What the caller heard before hanging up: a non-empty beginning of the reply, never all of it.
    const last = botLines(done.session.transcript).pop();
    expect(last.content.length).toBeGreaterThan(0);
    expect(LONG_REPLY.join(' ').startsWith(last.content)).toBe(true);
    expect(last.content).not.toContain(LONG_REPLY[3]);
    const reported = world.tap.reportedLines.find(
      (l) => l.callId === call.callId && l.content === last.content,
    );
    expect(reported).toMatchObject({ role: 'bot', interrupted: true });
    expect(last.interrupted).toBe(true);
    // The caller ended it: no provider failed, and the agent did not decide anything.
    expect(done.end_call_reason ?? '').not.toMatch(/provider_failed/);
  });
});
