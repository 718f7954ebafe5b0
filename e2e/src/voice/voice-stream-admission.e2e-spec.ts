// Who may open a call's media stream: only the carrier, once, with the short-lived token the answer markup
// carried and the carrier's own signature on the upgrade; a call has one stream, and a voice replica serves at
// most MAX_LIVE_SESSIONS. Every refusal happens before any audio flows.
import { STREAM_CLOSE_REPLICA_FULL, STREAM_CLOSE_REPLICA_FULL_REASON } from '@vap/media';
import { sleep, waitFor } from '@vap/testing';
import {
  mediaClientFor,
  MediaStreamClient,
  MediaStreamRefused,
  StreamInstruction,
  streamInstructionOf,
} from '../../support/fake-media';
import { SignMode } from '../../support/fake-carriers';
import { LiveCall, Provider, TIME_SCALE, VoiceWorld } from './voice-fixtures';

/** Stream tokens live this long on this platform, so that expiry can be waited for. */
const TOKEN_TTL_MS = 3000;
const INTRO = 'Hello, this is Maya from Acme.';

describe('media stream admission', () => {
  let world: VoiceWorld;
  let agentId: string;

  beforeAll(async () => {
    world = await VoiceWorld.start({
      name: 'voice_admission',
      providers: {},
      env: { MEDIA_STREAM_TOKEN_TTL_MS: String(TOKEN_TTL_MS) },
    });
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

  function client(
    call: LiveCall,
    instruction: StreamInstruction,
    sign: SignMode = 'good',
  ): MediaStreamClient {
    return mediaClientFor({
      account: call.placed.account,
      instruction,
      carrierCallId: call.carrierId,
      timeScale: TIME_SCALE,
      sign,
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

  async function hangUp(call: LiveCall, media?: MediaStreamClient): Promise<void> {
    media?.hangUp();
    await world.complete(call, 1, 'callee');
  }

  /** Fetches the call's answer URL again, signed with the carrier token the partner holds. */
  async function answerAgain(call: LiveCall): Promise<StreamInstruction> {
    const { answer } = await world.fake.answer(call.placed, { openStream: false });
    expect(answer.status).toBe(200);
    const instruction = streamInstructionOf(call.provider, answer.body);
    if (!instruction) throw new Error(`no stream in the answer: ${answer.body}`);
    return instruction;
  }

  it.each(['carrier_b', 'carrier_a'] as const)(
    'gives a %s call one conversation: a second signed answer fetch gets the same markup, its stream is refused while the first is live, after it ended and after the call ended',
    async (provider) => {
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
    },
  );

  it.each(['carrier_b', 'carrier_a'] as const)(
    'refuses a replayed token on %s (409) while the first stream carries on',
    async (provider) => {
      const { call, instruction } = await answered(provider);
      const first = client(call, instruction);
      await first.open();
      expect(await refusal(client(call, instruction))).toBe(409);
      await first.waitForHeard(INTRO);
      expect(first.closed).toBeNull();
      await hangUp(call, first);
    },
  );

  it('refuses an expired token (401)', async () => {
    const { call, instruction } = await answered('carrier_b');
    await sleep(TOKEN_TTL_MS + 1000);
    expect(await refusal(client(call, instruction))).toBe(401);
    await hangUp(call);
  });

  it('refuses a garbage token and a token issued for another call (401)', async () => {
    const { call, instruction } = await answered('carrier_b');
    const garbage = new URL(instruction.url);
    garbage.searchParams.set('token', 'not-a-token');
    expect(await refusal(client(call, { ...instruction, url: garbage.toString() }))).toBe(401);

    const tampered = new URL(instruction.url);
    const token = tampered.searchParams.get('token')!;
    tampered.searchParams.set('token', `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`);
    expect(await refusal(client(call, { ...instruction, url: tampered.toString() }))).toBe(401);

    // A valid token, but bound to another call than the path names.
    const other = await answered('carrier_b');
    const swapped = new URL(instruction.url);
    swapped.searchParams.set('token', new URL(other.instruction.url).searchParams.get('token')!);
    expect(await refusal(client(call, { ...instruction, url: swapped.toString() }))).toBe(401);

    // The refusals used up nothing: the real stream still opens.
    const media = client(call, instruction);
    await media.open();
    await media.waitForHeard(INTRO);
    await hangUp(call, media);
    await hangUp(other.call);
  });

  it.each([
    ['carrier_b', 'bad'],
    ['carrier_b', 'none'],
    ['carrier_a', 'bad'],
    ['carrier_a', 'none'],
  ] as const)('refuses a %s upgrade whose carrier signature is %s (403)', async (provider, sign) => {
    const { call, instruction } = await answered(provider);
    expect(await refusal(client(call, instruction, sign))).toBe(403);
    await hangUp(call);
  });
});

describe('a voice replica at MAX_LIVE_SESSIONS', () => {
  let world: VoiceWorld;
  let agentId: string;

  beforeAll(async () => {
    world = await VoiceWorld.start({
      name: 'voice_replica_full',
      providers: {},
      env: { MAX_LIVE_SESSIONS: '1' },
    });
    agentId = (await world.agent()).id;
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  const readiness = async () => (await fetch(`${world.own.platform.mediaPublicUrl}/health/ready`)).status;

  it('closes a stream over the limit with 1013 before any audio, is not ready while full, and takes the same stream URL once there is room', async () => {
    const first = await world.dial('carrier_b', agentId);
    await first.media.waitForHeard(INTRO);
    expect(await readiness()).toBe(503);

    const second = await world.dial('carrier_a', agentId, { openStream: false });
    const instruction = streamInstructionOf('carrier_a', second.answer.body);
    if (!instruction) throw new Error(`no stream in the answer: ${second.answer.body}`);
    const carrierStream = () =>
      mediaClientFor({
        account: second.placed.account,
        instruction,
        carrierCallId: second.carrierId,
        timeScale: TIME_SCALE,
      });
    const over = carrierStream();
    await over.open();
    expect(await over.waitForClose()).toEqual({
      code: STREAM_CLOSE_REPLICA_FULL,
      reason: STREAM_CLOSE_REPLICA_FULL_REASON,
    });
    expect(over.received()).toEqual([]);

    first.media.hangUp();
    await world.complete(first, 2, 'callee');
    await waitFor(async () => (await readiness()) === 200 || undefined, {
      timeoutMs: 30_000,
      description: 'the replica to be ready again',
    });
    // The carrier tries the stream again: neither its token nor the call's one stream was spent.
    const retried = carrierStream();
    await retried.open();
    await retried.waitForHeard(INTRO);
    retried.hangUp();
    await world.complete(second, 1, 'callee');
  });
});
