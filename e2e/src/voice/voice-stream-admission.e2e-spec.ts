// Who may open a call's media stream, through the whole platform: only the carrier, once, with the short-lived
// token the answer markup carried and the carrier's own signature on the upgrade; a call has one stream. The voice
// service's own checks (expired, garbage and another call's tokens, the attach refusals' statuses, a replica at
// MAX_LIVE_SESSIONS) are its stream-admission integration spec; the calls service's claims (a wrong or missing
// carrier_a or carrier_b signature included) its attach-voice spec.
import { waitFor } from '@vap/testing';
import {
  mediaClientFor,
  MediaStreamClient,
  MediaStreamRefused,
  StreamInstruction,
  streamInstructionOf,
} from '../../support/fake-media';
import { LiveCall, Provider, TIME_SCALE, VoiceWorld } from './voice-fixtures';

const INTRO = 'Hello, this is Maya from Acme.';

describe('media stream admission', () => {
  let world: VoiceWorld;
  let agentId: string;

  beforeAll(async () => {
    world = await VoiceWorld.start({ name: 'voice_admission', providers: {} });
    agentId = (await world.agent()).id;
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  /** Answers the call without opening the stream; returns the stream the markup named. */
  async function answered(provider: Provider): Promise<{ call: LiveCall; instruction: StreamInstruction }> {
    const call = await world.dial(provider, agentId, { openStream: false });
    const instruction = streamInstructionOf(provider, call.answer.body);
    if (!instruction) throw new Error(`no stream in the answer: ${call.answer.body}`);
    return { call, instruction };
  }

  function client(call: LiveCall, instruction: StreamInstruction): MediaStreamClient {
    return mediaClientFor({
      account: call.placed.account,
      instruction,
      carrierCallId: call.carrierId,
      timeScale: TIME_SCALE,
    });
  }

  async function refusal(media: MediaStreamClient): Promise<number> {
    const err = await media.open().then(
      () => null,
      (e: unknown) => e,
    );
    media.drop();
    if (!(err instanceof MediaStreamRefused))
      throw new Error(`expected a refused upgrade, got ${String(err)}`);
    // Refused at the upgrade: not a single frame came from the platform.
    expect(media.received()).toEqual([]);
    return err.status;
  }

  /** Fetches the call's answer URL again, signed with the carrier token the partner holds. */
  async function answerAgain(call: LiveCall): Promise<StreamInstruction> {
    const { answer } = await world.fake.answer(call.placed, { openStream: false });
    expect(answer.status).toBe(200);
    const instruction = streamInstructionOf(call.provider, answer.body);
    if (!instruction) throw new Error(`no stream in the answer: ${answer.body}`);
    return instruction;
  }

  it('gives a carrier_b call one conversation: a second signed answer fetch gets the same markup, its stream is refused while the first is live, after it ended and after the call ended', async () => {
    const provider = 'carrier_b';
    const { call, instruction } = await answered(provider);
    const first = client(call, instruction);
    await first.open();
    await first.waitForHeard(INTRO);
    // The intro's line is reported once it has played: in the transcript before the stream goes.
    const introLines = async () =>
      (await world.call(call.callId)).session.transcript.filter(
        (e: { role: string; content: string }) => e.role === 'bot' && e.content.includes(INTRO),
      );
    await waitFor(async () => ((await introLines()).length > 0 ? true : undefined), {
      timeoutMs: 30_000,
      description: 'the intro in the transcript',
    });

    // The same markup with a fresh token, whatever the call's state; the stream it names is refused.
    const second = await answerAgain(call);
    expect(second.url).not.toBe(instruction.url);
    expect(second.url.split('?')[0]).toBe(instruction.url.split('?')[0]);
    expect(await refusal(client(call, second))).toBe(409);
    expect(first.closed).toBeNull();

    // The stream ends while the carrier still has the call: no new stream takes its place.
    first.hangUp();
    await waitFor(() => world.tap.endedStreams.includes(call.callId) || undefined, {
      timeoutMs: 30_000,
      description: 'the voice service to report the stream closed',
    });
    expect(await refusal(client(call, await answerAgain(call)))).toBe(409);

    await world.complete(call, 1, 'callee');
    await world.finished(call.callId);
    expect(await refusal(client(call, await answerAgain(call)))).toBe(404);
    // Only the first stream ever carried the agent: the intro was said once.
    expect(await introLines()).toHaveLength(1);
  });
});
