// Background audio on a carrier_b call into the voice service, as the carrier's loudspeaker plays it: an agent with
// background_audio_id has its ambience under its words and in the pauses between them, one without has silence
// there. The sandbox carrier's phone hears every frame it plays.
import { AgentSnapshot } from '@vap/messages';
import { activeFraction } from '@vap/carrier-sim';
import { mulawDecode, rms } from '@vap/media';
import { useIntegrationApp } from '@vap/testing/integration';
import { CarrierCalls } from '../testing/carrier-calls';
import { startVoice } from '../testing/voice-integration';
import { BACKGROUND_AUDIO_IDS } from './background-audio';

const INTRO = 'Hello, this is Maya from Acme.';
/** The catalog's office ambience. */
const OFFICE_AMBIENCE = BACKGROUND_AUDIO_IDS[0];
// Media at four times real time: both ends share this process's event loop, and at that pace a busy loop still
// keeps the agent's stream of frames ahead of the loudspeaker.
const ENV = { MEDIA_TIME_SCALE: '4', DRAIN_DEADLINE_MS: '1000' };
/** A 20 ms frame louder than this carries sound; digital silence and line hiss stay under it. */
const AUDIBLE_RMS = 5;

interface Played {
  pcm: Int16Array;
  atMs: number;
  /** Nothing of the platform's was queued: the loudspeaker played its own silence. */
  silence: boolean;
}

describe('background audio on a carrier_b call', () => {
  let calls: CarrierCalls;
  const voice = useIntegrationApp(() => startVoice({ http: true, env: ENV }), { timeout: 60_000 });

  beforeAll(() => {
    calls = new CarrierCalls(voice);
  });

  /**
   * Dials an agent, waits for its intro to have played and a second more of the caller's silence, and hangs up:
   * what the loudspeaker played during the intro, and in the second after it.
   */
  async function listenPastIntro(
    agent: Partial<AgentSnapshot>,
  ): Promise<{ during: Played[]; after: Played[] }> {
    const call = calls.call({ introMessage: INTRO, ...agent });
    const played: Played[] = [];
    const phone = call.phone(undefined, {
      onPlayed: (frame, atMs, silence) => played.push({ pcm: mulawDecode(frame), atMs, silence }),
    });
    const ended = phone.run(async () => undefined);
    // Reported once its last frame played on the phone (its mark came back).
    await calls.played(call, INTRO);
    const introDoneMs = phone.elapsedMs;
    await phone.pause(1500);
    phone.hangUp();
    await ended;
    expect(call.scriptErrors).toEqual([]);
    return {
      during: played.filter((p) => p.atMs <= introDoneMs && !p.silence),
      after: played.filter((p) => p.atMs > introDoneMs + 250 && p.atMs <= introDoneMs + 1250),
    };
  }

  const audible = (frames: Played[]) => frames.filter((p) => rms(p.pcm) > AUDIBLE_RMS).length;

  it('ambience plays between the agent’s words and under them; an agent without it has silence there', async () => {
    const withAmbience = await listenPastIntro({
      backgroundAudioId: OFFICE_AMBIENCE,
      backgroundAudioVolume: 0.5,
    });
    const without = await listenPastIntro({ backgroundAudioId: null });

    // A second of media is 50 frames. Only ambience can play there: the intro is over, the caller silent.
    expect(withAmbience.after).toHaveLength(50);
    expect(audible(withAmbience.after)).toBeGreaterThanOrEqual(45);
    expect(without.after).toHaveLength(50);
    expect(audible(without.after)).toBeLessThanOrEqual(2);
    // Under the speech too: no pause within the intro's audio is digital silence.
    const during = Int16Array.from(withAmbience.during.flatMap((p) => [...p.pcm]));
    expect(withAmbience.during.length).toBeGreaterThan(50);
    expect(activeFraction(during, 160, AUDIBLE_RMS)).toBeGreaterThan(0.95);
    const plain = Int16Array.from(without.during.flatMap((p) => [...p.pcm]));
    expect(activeFraction(plain, 160, AUDIBLE_RMS)).toBeLessThan(activeFraction(during, 160, AUDIBLE_RMS));
  });
});
