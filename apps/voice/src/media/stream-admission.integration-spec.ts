// Who may open a call's media stream, as the voice service decides it: its own checks on the token (expired,
// garbage, tampered, another call's) refuse with 401 before the calls service is asked; the calls service's
// refusals of an attach (a bad carrier signature, a replayed token, the call's one stream taken, an ended call:
// its attach-voice spec) reach the carrier as their status; a replica at MAX_LIVE_SESSIONS closes the stream with
// 1013 before spending anything. Every refusal comes before any audio. The carrier is the sandbox carrier's phone.
import { AppError, ErrorCode, STREAM_TAKEN_DETAIL } from '@vap/messages';
import { CARRIER_B_SIGNATURE_HEADER, SimulatedPhone } from '@vap/carrier-sim';
import {
  MediaStreamCarrier,
  STREAM_CLOSE_REPLICA_FULL,
  STREAM_CLOSE_REPLICA_FULL_REASON,
  verifyStreamToken,
} from '@vap/media';
import { waitFor } from '@vap/testing';
import { useIntegrationApp } from '@vap/testing/integration';
import { CarrierCall, CarrierCalls } from '../testing/carrier-calls';
import { startVoice } from '../testing/voice-integration';

const INTRO = 'Hello, this is Maya from Acme.';
const AGENT = { introMessage: INTRO };
// Both ends of the line share this process's event loop: media runs at twice real time, where a busy loop still
// delivers the agent's audio frames whole (the phone reads its lines from their text signal).
const ENV = { MEDIA_TIME_SCALE: '2', DRAIN_DEADLINE_MS: '1000' };
const CARRIERS: MediaStreamCarrier[] = ['carrier_b', 'carrier_a'];

/** The status of a refused upgrade, once the phone's side of it ended; the phone heard nothing. */
async function refusal(calls: CarrierCalls, call: CarrierCall, url: string): Promise<number> {
  const { phone, ended } = calls.dial(call, async () => undefined, url);
  const end = await ended;
  if (end.kind !== 'stream_failed')
    throw new Error(`expected a refused upgrade, the phone ended ${end.kind}`);
  const status = /Unexpected server response: (\d+)/.exec(end.error)?.[1];
  if (!status) throw new Error(`expected a refused upgrade, got ${end.error}`);
  // Refused at the upgrade: the stream never ran, not a single frame came from the platform.
  expect(end.mediaMs).toBe(0);
  expect(phone.heard).toEqual([]);
  return Number(status);
}

/** The intro played on the call's stream, and the phone heard the agent speak (a turn of its audio). */
async function introPlayed(calls: CarrierCalls, call: CarrierCall, phone: SimulatedPhone): Promise<void> {
  await calls.played(call, INTRO);
  expect(await phone.listen(30_000)).not.toBeNull();
}

describe('media stream admission', () => {
  let calls: CarrierCalls;

  const voice = useIntegrationApp(() => startVoice({ http: true, env: ENV }), { timeout: 60_000 });

  beforeAll(() => {
    calls = new CarrierCalls(voice);
  });

  afterEach(() => calls.attachWith(null));

  it('gives a call one conversation: a second stream is refused while the first is live, after it ended and after the call ended, and the intro is said once', async () => {
    const call = calls.call(AGENT);
    const first = calls.dial(call);
    await introPlayed(calls, call, first.phone);
    // The intro's line is reported once it has played: in the transcript before the stream goes.
    const introLines = () =>
      calls.transcript(call.callId).filter((l) => l.role === 'bot' && l.content === INTRO);
    await waitFor(() => introLines().length > 0 || undefined, { description: 'the intro in the transcript' });

    // The calls service holds the call's one stream from here on (its attach-voice spec).
    calls.attachWith(() => {
      throw new AppError(ErrorCode.CONFLICT, 'The call has its media stream', {
        details: [STREAM_TAKEN_DETAIL],
      });
    });
    for (const carrier of CARRIERS) expect(await refusal(calls, call, call.streamUrl({ carrier }))).toBe(409);
    expect(first.phone.elapsedMs).toBeGreaterThan(0);
    let settled = false;
    void first.ended.then(() => (settled = true));
    await first.phone.pause(200);
    expect(settled).toBe(false);

    // The stream ends while the carrier still has the call: no new stream takes its place.
    first.phone.hangUp();
    await waitFor(() => calls.ended(call.callId).length > 0 || undefined, {
      description: 'the voice service to report the stream closed',
    });
    for (const carrier of CARRIERS) expect(await refusal(calls, call, call.streamUrl({ carrier }))).toBe(409);

    calls.attachWith(() => {
      throw AppError.notFound('Call');
    });
    for (const carrier of CARRIERS) expect(await refusal(calls, call, call.streamUrl({ carrier }))).toBe(404);
    // Only the first stream ever carried the agent.
    expect(calls.attaches(call.callId)).toHaveLength(7);
    expect(introLines()).toHaveLength(1);
    expect(calls.ended(call.callId)).toHaveLength(1);
  });

  it.each(CARRIERS)(
    'sends the calls service what it decides on for a %s upgrade (the public URL the carrier signed, its headers, the token nonce), and answers its refusals with their status',
    async (carrier) => {
      const call = calls.call(AGENT);
      const refusals: [AppError, number][] = [
        [new AppError(ErrorCode.FORBIDDEN, 'The carrier signature does not match'), 403],
        [new AppError(ErrorCode.CONFLICT, 'The stream token was used already'), 409],
        [
          new AppError(ErrorCode.CONFLICT, 'The call has its media stream', {
            details: [STREAM_TAKEN_DETAIL],
          }),
          409,
        ],
        [AppError.notFound('Call'), 404],
      ];
      for (const [error, status] of refusals) {
        calls.attachWith(() => {
          throw error;
        });
        const url = call.streamUrl({ carrier });
        expect(await refusal(calls, call, url)).toBe(status);
        const attach = calls.attaches(call.callId).at(-1)!;
        const token = verifyStreamToken(
          new URL(url).searchParams.get('token')!,
          voice.config.streamTokenKey,
          Date.now(),
        );
        if (!token.ok) throw new Error(`the phone's token does not verify: ${token.reason}`);
        expect(attach).toMatchObject({ callId: call.callId, carrier, url, nonce: token.claims.nonce });
        expect(attach.headers[CARRIER_B_SIGNATURE_HEADER.toLowerCase()]).toEqual(expect.any(String));
      }
      // None of them started a conversation.
      expect(calls.transcript(call.callId)).toEqual([]);
      expect(calls.ended(call.callId)).toEqual([]);
    },
  );

  it('refuses an expired token (401) without asking the calls service', async () => {
    const call = calls.call(AGENT);
    const expired = call.streamUrl({ issuedAt: Date.now() - 61_000 });
    expect(await refusal(calls, call, expired)).toBe(401);
    expect(calls.attaches(call.callId)).toEqual([]);
  });

  it('refuses a garbage token, a tampered one and one issued for another call (401), and the real stream still opens', async () => {
    const call = calls.call(AGENT);
    const token = call.token();
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    const other = calls.call(AGENT).token();
    for (const bad of ['not-a-token', tampered, other])
      expect(await refusal(calls, call, call.streamUrl({ token: bad }))).toBe(401);
    expect(calls.attaches(call.callId)).toEqual([]);

    // The refusals used up nothing.
    const media = calls.dial(call);
    await introPlayed(calls, call, media.phone);
    media.phone.hangUp();
    expect((await media.ended).kind).toBe('callee_hung_up');
  });
});

describe('a voice replica at MAX_LIVE_SESSIONS', () => {
  let calls: CarrierCalls;

  const voice = useIntegrationApp(() => startVoice({ http: true, env: { ...ENV, MAX_LIVE_SESSIONS: '1' } }), {
    timeout: 60_000,
  });

  beforeAll(() => {
    calls = new CarrierCalls(voice);
  });

  const readiness = async () => (await fetch(`${voice.url}/health/ready`)).status;

  it('closes a stream over the limit with 1013 before any audio, is not ready while full, and takes the same stream URL once there is room', async () => {
    const firstCall = calls.call(AGENT);
    const first = calls.dial(firstCall);
    await introPlayed(calls, firstCall, first.phone);
    expect(await readiness()).toBe(503);

    const second = calls.call(AGENT);
    const url = second.streamUrl();
    const over = calls.dial(second, async () => undefined, url);
    const end = await over.ended;
    expect(end).toMatchObject({
      kind: 'stream_failed',
      error: `the media plane closed the stream: ${STREAM_CLOSE_REPLICA_FULL} ${STREAM_CLOSE_REPLICA_FULL_REASON}`,
    });
    expect(over.phone.heard).toEqual([]);
    // Neither its token nor the call's one stream was spent: the calls service was not asked.
    expect(calls.attaches(second.callId)).toEqual([]);

    first.phone.hangUp();
    await waitFor(async () => (await readiness()) === 200 || undefined, {
      description: 'the replica to be ready again',
    });
    // The carrier tries the stream again.
    const retried = calls.dial(second, async () => undefined, url);
    await introPlayed(calls, second, retried.phone);
    retried.phone.hangUp();
    await retried.ended;
  });
});
