import { CallsPartner, callee, EventTap } from './call-fixtures';

describe('call recordings', () => {
  let partner: CallsPartner;
  let tap: EventTap;

  beforeAll(async () => {
    partner = await CallsPartner.create();
    tap = await EventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  it('stores a PCM WAV as long as the call and serves it from a signed URL valid 7 days', async () => {
    const agent = await partner.createAgent();
    const res = await partner.start({ agent_id: agent.id, to_number: callee('42') });
    const callId = res.body.data.call_id;
    await tap.sessionCompleted(callId);
    const call = (await partner.calls(`/${callId}`)).body.data;
    expect(call.session.recording_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2\/uploads\//);

    const fresh = await partner.calls(`/${callId}/recording-url`);
    expect(fresh.status).toBe(200);
    expect(fresh.body.data).toEqual({
      call_id: callId,
      recording_url: expect.any(String),
      expires_at: expect.any(String),
    });
    const ttl = Date.parse(fresh.body.data.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(7 * 24 * 3600 * 1000 - 120_000);
    expect(ttl).toBeLessThanOrEqual(7 * 24 * 3600 * 1000 + 5000);

    for (const url of [call.session.recording_url, fresh.body.data.recording_url]) {
      const download = await fetch(url);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('audio/wav');
      const wav = Buffer.from(await download.arrayBuffer());
      expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
      expect(wav.toString('ascii', 8, 12)).toBe('WAVE');
      expect(wav.readUInt16LE(20)).toBe(1); // PCM
      const byteRate = wav.readUInt32LE(28);
      const dataBytes = wav.readUInt32LE(40);
      expect(wav.length).toBe(44 + dataBytes);
      // The voice service records its own media clock; the carrier bills whole seconds of its own.
      expect(Math.abs(dataBytes / byteRate - call.duration_seconds)).toBeLessThanOrEqual(1);
    }
  });

  it('has no recording when the agent disabled recording: no URL, 404 on recording-url', async () => {
    const agent = await partner.createAgent({ enable_recording: false });
    const res = await partner.start({ agent_id: agent.id, to_number: callee('42') });
    const callId = res.body.data.call_id;
    const completed = await tap.sessionCompleted(callId);
    expect(completed.data.recording_url).toBeNull();
    const call = (await partner.calls(`/${callId}`)).body.data;
    expect(call.status).toBe('completed');
    expect(call.session).not.toHaveProperty('recording_url');
    const url = await partner.calls(`/${callId}/recording-url`);
    expect(url.status).toBe(404);
    expect(url.body.error.code).toBe('NOT_FOUND');
  });
});
