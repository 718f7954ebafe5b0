// Who may open a call's media stream: only the carrier, once, with the short-lived token the answer markup
// carried and the carrier's own signature on the upgrade. Every refusal happens before any audio flows.
import { sleep } from '@vap/testing';
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
