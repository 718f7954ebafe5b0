import type { HandoffSnapshot, TransferOutcome, VoiceHandoffReply } from '@vap/messages';
import type { CallAgents, CallCarrier } from '../call-platform';
import { agentSettings } from '../testing/conversation-harness';
import { SUMMARY_PREFIX } from '../handoffs/handoff-context';
import { Phrases } from '../phrases';
import { Aborted } from '../provider-failure';
import { FakePort } from '../testing/fake-port';
import { CONSULT_ALLOWANCE_MS, TRANSFER_NOT_CONNECTED, WarmTransferPhrases } from './warm-transfer';
import type { ControlledTurn } from '../call-control-port';
import { CallControls, OPTED_OUT } from './call-control';
import { leaveVoicemail } from './voicemail';

class FakeCarrier implements CallCarrier {
  transfers: { to: string; reason: string }[] = [];
  transferResult: Promise<boolean> = Promise.resolve(true);
  optOuts = 0;
  optOutError: Error | null = null;
  digits: string[] = [];
  async transfer(to: string, reason: string): Promise<boolean> {
    this.transfers.push({ to, reason });
    return this.transferResult;
  }
  async sendDigits(digits: string): Promise<boolean> {
    this.digits.push(digits);
    return true;
  }
  warmTransfers: { to: string; reason: string; briefing: string }[] = [];
  warmResult = true;
  withdrawals = 0;
  withdrawnOutcome: TransferOutcome | null = 'failed';
  async warmTransfer(to: string, reason: string, briefing: string): Promise<boolean> {
    this.warmTransfers.push({ to, reason, briefing });
    return this.warmResult;
  }
  async withdrawTransfer(): Promise<TransferOutcome | null> {
    this.withdrawals++;
    return this.withdrawnOutcome;
  }
  async hangup(): Promise<void> {}
  async optOut(): Promise<void> {
    this.optOuts++;
    if (this.optOutError) throw this.optOutError;
  }
}

/** The calls service's side of handoffs: answers the next agent, or fails as set. */
class FakeAgents implements CallAgents {
  readonly asked: { agentId: string; reason: string }[] = [];
  failure: Error | null = null;
  async handOff(agentId: string, reason: string): Promise<VoiceHandoffReply> {
    this.asked.push({ agentId, reason });
    if (this.failure) throw this.failure;
    return {
      agentId,
      agentName: 'Billing',
      agent: agentSettings({ prompt: 'You are billing.', introMessage: 'Billing here, {{name}}.' }),
    };
  }
}

/** A turn whose reply is a list of sentences, played at once. */
function fakeTurn() {
  const said: string[] = [];
  const followUps: string[] = [];
  const played: string[] = [];
  const turn: ControlledTurn = {
    controller: new AbortController(),
    committed: false,
    failure: null,
    say: (sentence) => said.push(sentence),
    finishSaying: async () => undefined,
    play: async (label) => {
      played.push(label);
      return true;
    },
    followUp: (text) => followUps.push(text),
  };
  return { turn, said, followUps, played };
}

function controlsOn(
  agent: ConstructorParameters<typeof FakePort>[0] = {},
  route: 'in_band' | 'carrier' = 'in_band',
) {
  const port = new FakePort(agent);
  const carrier = new FakeCarrier();
  const agents = new FakeAgents();
  return { port, carrier, agents, controls: new CallControls(port, carrier, agents, route) };
}

describe('CallControls', () => {
  it('ends the call: the agent message with the call variables, then the hang-up', async () => {
    const { port, controls } = controlsOn({ endCallMessage: 'Bye {{name}}!' });
    const { turn, said } = fakeTurn();
    await controls.forTurn('end_call', turn).endCall();
    expect(port.ending).toBe(true);
    expect(turn.committed).toBe(true);
    expect(said).toEqual(['Bye Ada!']);
    expect(port.finishes).toEqual([{ reason: 'agent_ended_call', hangup: true }]);
  });

  it('does not end a call that is already ending', async () => {
    const { port, controls } = controlsOn();
    void port.beginEnding('user_idle_timeout');
    const { turn, said } = fakeTurn();
    await controls.forTurn('end_call', turn).endCall();
    expect(said).toEqual([]);
    expect(port.finishes).toEqual([]);
  });

  it('opts the number out, says so and hangs up; a failed opt-out is said too', async () => {
    const { port, carrier, controls } = controlsOn();
    const { turn, said } = fakeTurn();
    const decided: boolean[] = [];
    await controls.forTurn('opt_out', turn).optOut((listed) => decided.push(listed));
    expect(carrier.optOuts).toBe(1);
    expect(decided).toEqual([true]);
    expect(said).toEqual([Phrases.optOutFarewell]);
    expect(port.finishes).toEqual([{ reason: OPTED_OUT, hangup: true }]);

    const failing = controlsOn();
    failing.carrier.optOutError = new Error('calls service away');
    const other = fakeTurn();
    await failing.controls.forTurn('opt_out', other.turn).optOut((listed) => decided.push(listed));
    expect(decided).toEqual([true, false]);
    expect(other.said).toEqual([Phrases.optOutFailed]);
    expect(failing.port.errors).toEqual(['opt_out']);
  });

  it('transfers: the message, the caller no longer heard, then the call ends as transferred', async () => {
    const { port, carrier, controls } = controlsOn({ transferMessage: 'Connecting you, {{name}}.' });
    const { turn, said } = fakeTurn();
    const decided: boolean[] = [];
    const ok = await controls
      .forTurn('transfer_call', turn)
      .transfer('+15550003333', 'billing', (d) => decided.push(d));
    expect(ok).toBe(true);
    expect(said).toEqual(['Connecting you, Ada.']);
    expect(carrier.transfers).toEqual([{ to: '+15550003333', reason: 'billing' }]);
    expect(port.caller.listening).toBe(false);
    expect(decided).toEqual([true]);
    expect(port.finishes).toEqual([{ reason: 'transferred', hangup: false }]);
  });

  it('gives the caller back a failed transfer, with the apology after the tool results', async () => {
    const { port, carrier, controls } = controlsOn();
    carrier.transferResult = Promise.resolve(false);
    const { turn, said, followUps } = fakeTurn();
    const ok = await controls
      .forTurn('transfer_call', turn)
      .transfer('+15550003333', 'billing', () => undefined);
    expect(ok).toBe(false);
    expect(said).toEqual([Phrases.transferDefault]);
    expect(followUps).toEqual([Phrases.transferFailed]);
    expect(turn.committed).toBe(false);
    expect(port.caller.listening).toBe(true);
    expect(port.ending).toBe(false);
  });

  it('knows a transfer in flight until the carrier answers', async () => {
    const { carrier, controls } = controlsOn();
    let answer!: (ok: boolean) => void;
    carrier.transferResult = new Promise((resolve) => (answer = resolve));
    const transfer = controls.forTurn('transfer_call', fakeTurn().turn).transfer('+1', 'r', () => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    const pending = controls.pendingTransfer;
    expect(pending).not.toBeNull();
    answer(true);
    await expect(pending).resolves.toBe(true);
    await transfer;
    expect(controls.pendingTransfer).toBeNull();
  });

  it('presses keys in band as a line of the turn, or through the carrier with a transcript line', async () => {
    const inBand = controlsOn();
    const one = fakeTurn();
    const result = await inBand.controls
      .forTurn('send_dtmf', one.turn)
      .pressKeys({ id: 'c1', name: 'send_dtmf', arguments: { digits: '12#' } });
    expect(result).toBe('Pressed 12#.');
    expect(one.played).toHaveLength(1);

    const viaCarrier = controlsOn({}, 'carrier');
    const two = fakeTurn();
    await viaCarrier.controls
      .forTurn('send_dtmf', two.turn)
      .pressKeys({ id: 'c2', name: 'send_dtmf', arguments: { digits: '7' } });
    expect(viaCarrier.carrier.digits).toEqual(['7']);
    expect(viaCarrier.port.reported).toHaveLength(1);
    expect(viaCarrier.port.reported[0]).toMatchObject({ role: 'bot' });
    expect(two.played).toEqual([]);
  });

  it('acknowledges a tool that runs past delay_ms, and not one that answers before', async () => {
    const { port, controls } = controlsOn({
      toolAckConfig: { enabled: true, mode: 'static', phrases: ['Hang on.'], delayMs: 500 },
    });
    const { turn, said } = fakeTurn();
    const control = controls.forTurn('lookup', turn);
    let answer!: (value: string) => void;
    const slow = control.withAck(new Promise<string>((resolve) => (answer = resolve)));
    port.clock.advance(499);
    expect(said).toEqual([]);
    port.clock.advance(1);
    expect(said).toEqual(['Hang on.']);
    answer('done');
    await expect(slow).resolves.toBe('done');

    await control.withAck(Promise.resolve('fast'));
    port.clock.advance(1000);
    expect(said).toEqual(['Hang on.']);
  });

  it('gives up waiting for a tool of a turn the caller spoke over', async () => {
    const { controls } = controlsOn();
    const { turn } = fakeTurn();
    const work = controls.forTurn('lookup', turn).withAck(Promise.resolve('late'));
    turn.controller.abort();
    await expect(work).rejects.toBeInstanceOf(Aborted);
  });

  it('leaves the voicemail message with the call variables, then hangs up', () => {
    const port = new FakePort({ voicemailMessage: 'Hi {{name}}, call us back.' });
    leaveVoicemail(port, { interrupt: true });
    expect(port.ends).toEqual([
      { reason: 'voicemail_detected', farewell: 'Hi Ada, call us back.', options: { interrupt: true } },
    ]);
  });

  describe('handOff', () => {
    const handoff = (over: Partial<HandoffSnapshot> = {}): HandoffSnapshot => ({
      name: 'billing',
      description: 'Bills',
      agentId: 'agent-b',
      contextMode: 'full',
      lastTurns: null,
      variables: null,
      ...over,
    });
    const conversation = [
      { role: 'system' as const, content: 'You are the first agent.' },
      { role: 'user' as const, content: 'Hi.' },
      { role: 'assistant' as const, content: 'Hello!' },
      { role: 'user' as const, content: 'My bill is wrong.' },
      { role: 'assistant' as const, content: 'Let me pass you on.', tool_calls: [] },
    ];

    it('asks the calls service, then hands over when the turn ends: the whole conversation, the intro', async () => {
      const { port, agents, controls } = controlsOn();
      port.history = [...conversation];
      const { turn } = fakeTurn();
      const done = await controls
        .forTurn('handoff_to_billing', turn)
        .handOff(handoff(), 'billing question', '');
      expect(done).toEqual({ handedOff: true, result: 'Handed over to Billing.' });
      expect(agents.asked).toEqual([{ agentId: 'agent-b', reason: 'billing question' }]);
      expect(turn.committed).toBe(true);
      expect(port.handedTo).toEqual([]);
      port.events.emit('turnEnded', {});
      expect(port.handedTo).toEqual([
        {
          agent: expect.objectContaining({ prompt: 'You are billing.' }),
          context: [
            { role: 'user', content: 'Hi.' },
            { role: 'assistant', content: 'Hello!' },
            { role: 'user', content: 'My bill is wrong.' },
            { role: 'assistant', content: 'Let me pass you on.' },
          ],
          variables: { name: 'Ada' },
          // Its models could not be had (the fake's default): the call stays on the models it has.
          models: null,
        },
      ]);
      expect(port.said.map((s) => s.text)).toEqual(['Billing here, Ada.']);
      // Once only.
      port.events.emit('turnEnded', {});
      expect(port.handedTo).toHaveLength(1);
    });

    it('gives the next agent its own models, asked for that agent before it takes over', async () => {
      const { port, controls } = controlsOn();
      port.history = [...conversation];
      const billingModel = { provider: 'anthropic', model: 'claude-haiku', paidBy: 'account' } as const;
      port.models = [{ ...billingModel, llm: {} as never }];
      await controls.forTurn('handoff_to_billing', fakeTurn().turn).handOff(handoff(), 'billing', '');
      expect(port.modelsAsked).toEqual([expect.objectContaining({ prompt: 'You are billing.' })]);
      port.events.emit('turnEnded', {});
      expect(port.handedTo[0].models).toEqual([expect.objectContaining(billingModel)]);
    });

    it('gives the last turns, or a summary the model writes (in a round of its own when its call had none), and the named variables only', async () => {
      const last = controlsOn();
      last.port.history = [...conversation];
      last.port.variables = { name: 'Ada', account: 'A-1', secret: 'x' };
      await last.controls
        .forTurn('handoff_to_billing', fakeTurn().turn)
        .handOff(
          handoff({ contextMode: 'last_turns', lastTurns: 2, variables: ['account', 'missing'] }),
          'r',
          '',
        );
      last.port.events.emit('turnEnded', {});
      expect(last.port.handedTo[0].context).toEqual([
        { role: 'user', content: 'My bill is wrong.' },
        { role: 'assistant', content: 'Let me pass you on.' },
      ]);
      expect(last.port.handedTo[0].variables).toEqual({ account: 'A-1' });

      const summary = controlsOn();
      summary.port.history = [...conversation];
      await summary.controls
        .forTurn('handoff_to_billing', fakeTurn().turn)
        .handOff(handoff({ contextMode: 'summary' }), 'r', ' ');
      summary.port.events.emit('turnEnded', {});
      expect(summary.port.completions[0][1]).toEqual({
        role: 'user',
        content: 'Caller: Hi.\nAgent: Hello!\nCaller: My bill is wrong.\nAgent: Let me pass you on.',
      });
      expect(summary.port.handedTo[0].context).toEqual([
        { role: 'system', content: `${SUMMARY_PREFIX}A short summary.` },
      ]);

      // Written in the handoff call: taken as it is, with no round of its own.
      const written = controlsOn();
      written.port.history = [...conversation];
      await written.controls
        .forTurn('handoff_to_billing', fakeTurn().turn)
        .handOff(handoff({ contextMode: 'summary' }), 'r', 'Caller disputes a bill.');
      written.port.events.emit('turnEnded', {});
      expect(written.port.completions).toEqual([]);
      expect(written.port.handedTo[0].context).toEqual([
        { role: 'system', content: `${SUMMARY_PREFIX}Caller disputes a bill.` },
      ]);
    });

    it('keeps the call with its agent when the calls service refuses, and speaks up without an intro', async () => {
      const refused = controlsOn();
      refused.agents.failure = new Error('forbidden');
      const { turn } = fakeTurn();
      expect(await refused.controls.forTurn('handoff_to_billing', turn).handOff(handoff(), 'r', '')).toEqual({
        handedOff: false,
        result: 'The handover failed. Carry on with the caller yourself.',
      });
      expect(turn.committed).toBe(false);
      refused.port.events.emit('turnEnded', {});
      expect(refused.port.handedTo).toEqual([]);
      expect(refused.port.errors).toEqual(['handoff']);

      const quiet = controlsOn();
      quiet.agents.handOff = async (agentId) => ({ agentId, agentName: 'B', agent: agentSettings({}) });
      await quiet.controls.forTurn('handoff_to_b', fakeTurn().turn).handOff(handoff(), 'r', '');
      quiet.port.events.emit('turnEnded', {});
      expect(quiet.port.spokeUp).toBe(1);
      expect(quiet.port.said).toEqual([]);
    });

    it('does not hand over a call that ends before the turn does', async () => {
      const { port, controls } = controlsOn();
      await controls.forTurn('handoff_to_billing', fakeTurn().turn).handOff(handoff(), 'r', '');
      port.beginEnding('caller_hung_up');
      port.events.emit('turnEnded', {});
      expect(port.handedTo).toEqual([]);
    });
  });

  describe('warm transfers', () => {
    const warmAgent = (mode: 'warm' | 'warm_handback') => ({
      transferMessage: 'Let me get a colleague for you, {{name}}.',
      transfer: { mode, briefingInstructions: null, ringTimeoutSecs: 20 },
    });

    /** Starts the transfer and waits until the calls service was asked for it. */
    async function transferring(mode: 'warm' | 'warm_handback', modelWrites = false) {
      const port = new FakePort(warmAgent(mode));
      port.history.push({ role: 'user', content: 'I want a refund for order 42.' });
      const carrier = new FakeCarrier();
      const controls = new CallControls(port, carrier, new FakeAgents(), 'in_band', () => modelWrites);
      const { turn, said, followUps } = fakeTurn();
      const decided: boolean[] = [];
      const done = controls
        .forTurn('transfer_call', turn)
        .transfer('+15550003333', 'refund', (d) => decided.push(d));
      while (carrier.warmTransfers.length === 0) await new Promise((r) => setImmediate(r));
      return { port, carrier, controls, turn, said, followUps, decided, done };
    }

    it('briefs, holds the caller and lets go once the calls service bridged the legs', async () => {
      const { port, carrier, controls, said, decided, done } = await transferring('warm');
      expect(said).toEqual(['Let me get a colleague for you, Ada.']);
      expect(port.caller.listening).toBe(false);
      // The offline engine writes no briefing: the reason and the caller's last words.
      expect(carrier.warmTransfers).toEqual([
        {
          to: '+15550003333',
          reason: 'refund',
          briefing:
            'Hello, I have a caller on the line for you. The reason: refund. They said: I want a refund for order 42.',
        },
      ]);
      // The caller hears the hold audio meanwhile.
      expect(port.voice.loops).toHaveLength(1);
      expect(port.voice.loops[0].signal.aborted).toBe(false);
      expect(controls.transferOutcome('bridged')).toBe(true);
      await expect(done).resolves.toBe(true);
      expect(port.voice.loops[0].signal.aborted).toBe(true);
      expect(decided).toEqual([true]);
      expect(port.finishes).toEqual([{ reason: 'transferred', hangup: false }]);
      // Nothing waits any more: a late word changes nothing.
      expect(controls.transferOutcome('failed')).toBe(false);
    });

    it('hands the caller back when the human does not answer: the hold stops and the agent says so', async () => {
      const { port, controls, turn, said, followUps, decided, done } = await transferring('warm_handback');
      expect(controls.transferOutcome('no_answer')).toBe(true);
      await expect(done).resolves.toBe(false);
      expect(port.voice.loops[0].signal.aborted).toBe(true);
      expect(port.voice.interrupts).toBe(1);
      expect(decided).toEqual([false]);
      expect(said).toEqual(['Let me get a colleague for you, Ada.']);
      expect(followUps).toEqual([`${WarmTransferPhrases.no_answer} ${WarmTransferPhrases.handback}`]);
      expect(port.caller.listening).toBe(true);
      expect(turn.committed).toBe(false);
      expect(port.finishes).toEqual([]);
    });

    it('without handback, a declined transfer is said and the call ends', async () => {
      const { port, controls, said, done } = await transferring('warm');
      controls.transferOutcome('declined');
      await expect(done).resolves.toBe(false);
      expect(said).toEqual(['Let me get a colleague for you, Ada.']);
      expect(port.ends).toEqual([
        {
          reason: TRANSFER_NOT_CONNECTED,
          farewell: `${WarmTransferPhrases.declined} ${WarmTransferPhrases.goodbye}`,
          options: { interrupt: false },
        },
      ]);
    });

    it("the agent's model writes the briefing with the agent's instructions; no answer in time withdraws it", async () => {
      const port = new FakePort({
        ...warmAgent('warm_handback'),
        transfer: { mode: 'warm_handback', briefingInstructions: 'Name the order.', ringTimeoutSecs: 10 },
      });
      port.completion = 'Ada wants a refund for order 42.';
      const carrier = new FakeCarrier();
      carrier.withdrawnOutcome = 'failed';
      const controls = new CallControls(port, carrier, new FakeAgents(), 'in_band', () => true);
      const { turn, followUps } = fakeTurn();
      const done = controls
        .forTurn('transfer_call', turn)
        .transfer('+15550003333', 'refund', () => undefined);
      while (carrier.warmTransfers.length === 0) await new Promise((r) => setImmediate(r));
      expect(carrier.warmTransfers[0].briefing).toBe('Ada wants a refund for order 42.');
      expect(port.completions[0][0].content).toContain('Name the order.');
      // The ring timeout and the consult's allowance pass without a word from the calls service.
      port.pass(10_000 + CONSULT_ALLOWANCE_MS);
      await expect(done).resolves.toBe(false);
      expect(carrier.withdrawals).toBe(1);
      expect(followUps).toEqual([`${WarmTransferPhrases.failed} ${WarmTransferPhrases.handback}`]);
    });

    it('a calls service that cannot start the transfer gives the caller back at once', async () => {
      const port = new FakePort(warmAgent('warm_handback'));
      const carrier = new FakeCarrier();
      carrier.warmResult = false;
      const controls = new CallControls(port, carrier, new FakeAgents(), 'in_band');
      const { turn, followUps } = fakeTurn();
      await expect(
        controls.forTurn('transfer_call', turn).transfer('+15550003333', 'refund', () => undefined),
      ).resolves.toBe(false);
      expect(followUps).toEqual([`${WarmTransferPhrases.failed} ${WarmTransferPhrases.handback}`]);
      expect(port.voice.loops[0].signal.aborted).toBe(true);
    });
  });
});
