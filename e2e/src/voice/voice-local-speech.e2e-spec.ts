// Local speech end to end: a carrier call on a deployment whose speech is local (STT_PROVIDER=local,
// TTS_PROVIDER=local,offline: eSpeak NG and PocketSphinx on the voice replica, as in development). The caller is
// a person in all but name: eSpeak NG in a voice, rate and pitch of its own (not the agent's), with no text signal
// under it, so only a real recogniser can hear it. The agent's answer (the fake model repeats what it was told)
// shows what was heard, and the agent speaks it with eSpeak NG.
import { execFileSync } from 'node:child_process';
import { resamplePcm16 } from '@vap/media';
import { WavStreamReader } from '@vap/speech';
import { activeFraction } from '../../support/fake-media';
import { VoiceWorld } from './voice-fixtures';
import { voiceScript } from './voice-script';

/** The caller's words as eSpeak NG says them in another voice than the agent's, at the call's 8 kHz. */
function personSays(text: string): Int16Array {
  const wav = execFileSync('espeak-ng', ['--stdout', '--stdin', '-v', 'en-us+m1', '-s', '150', '-p', '40'], {
    input: text,
  });
  const reader = new WavStreamReader();
  const data = reader.push(wav);
  const pcm = new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + (data.length & ~1)));
  return resamplePcm16(pcm, reader.format!.sampleRate, 8000);
}

describe('local speech on a carrier call', () => {
  let world: VoiceWorld;

  beforeAll(async () => {
    world = await VoiceWorld.start({
      name: 'voice_local_speech',
      providers: { llm: true },
      env: { STT_PROVIDER: 'local', TTS_PROVIDER: 'local,offline', LOCAL_STT_WORKERS: '1' },
    });
    world.ai.script(voiceScript);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  it('says in /health/ready that local speech runs on the replica', async () => {
    const res = await fetch(`${world.own.platform.services.voice!.url}/health/ready`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { details: Record<string, unknown> };
    expect(body.details.local_speech).toEqual({ status: 'up', engine: 'espeak-ng, pocketsphinx' });
  });

  it('hears a person and answers with eSpeak NG: the order and its digits in the transcript', async () => {
    const agent = await world.agent({ spoken_languages: ['en'] });
    const call = await world.dial('carrier_b', agent.id);
    // The intro, spoken by eSpeak NG standing in for the agent's Azure voice (no key on this deployment).
    await world.transcript(call.callId, (lines) => lines.some((l: { role: string }) => l.role === 'bot'));
    await call.media.waitUntilAgentSilent(600, 60_000);
    const intro = call.media.received('media').length;
    expect(intro).toBeGreaterThan(50);

    await call.media.play(personSays('where is my order one two three four five'));
    await call.media.pause(2000);
    const entries = await world.transcript(
      call.callId,
      (lines) => lines.filter((l: { role: string }) => l.role === 'bot').length >= 2,
      90_000,
    );
    const user = entries.find((l: { role: string }) => l.role === 'user');
    expect(user.content).toMatch(/order/i);
    expect(user.content).toMatch(/one two three four five/i);
    const answer = entries.filter((l: { role: string }) => l.role === 'bot')[1];
    expect(answer.content).toMatch(/^You said .*order.*five/i);
    // Local speech on both sides: the transcript names it.
    expect(answer.providers).toMatchObject({ stt: 'local', tts: 'local' });
    // The answer was spoken: audio went out after the caller's turn, speech-like (not silence).
    await call.media.waitUntilAgentSilent(600, 60_000);
    expect(call.media.received('media').length).toBeGreaterThan(intro + 50);
    expect(activeFraction(call.media.agentAudio())).toBeGreaterThan(0.2);

    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    const done = await world.finished(call.callId);
    expect(done.platform_speech_providers).toEqual([]);
  }, 180_000);
});
