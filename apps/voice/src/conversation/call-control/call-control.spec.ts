import type { CallCarrier } from '../call-platform';
import { Phrases } from '../phrases';
import { Aborted } from '../provider-failure';
import { FakePort } from '../testing/fake-port';
import { CallControls, OPTED_OUT, type ControlledTurn } from './call-control';
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
  async hangup(): Promise<void> {}
  async optOut(): Promise<void> {
    this.optOuts++;
    if (this.optOutError) throw this.optOutError;
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
  return { port, carrier, controls: new CallControls(port, carrier, route) };
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
});
