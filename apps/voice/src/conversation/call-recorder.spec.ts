import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlobUrlSigner, BlobWriter, LocalBlobStorage } from '@vap/storage';
import {
  CallRecorder,
  RECORDING_LAG_SAMPLES,
  RECORDING_WINDOW_SAMPLES,
  WAV_HEADER_BYTES,
} from './call-recorder';

const frame = (value: number, samples = 160) => new Int16Array(samples).fill(value);
const KEY = 'recordings/p1/c1.wav';

describe('CallRecorder (written to local blob storage as the call runs)', () => {
  let dir: string;
  let storage: LocalBlobStorage;
  const at = (wav: Buffer, i: number, ch: 0 | 1) => wav.readInt16LE(44 + i * 4 + ch * 2);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'recorder-'));
    storage = new LocalBlobStorage(dir, new BlobUrlSigner(randomBytes(32)), '/api/v2/uploads');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const open = () => storage.openWriter(KEY, { contentType: 'audio/wav', headerBytes: WAV_HEADER_BYTES });
  const stored = async () => (await storage.read(KEY, 100 * 1024 * 1024))!;
  /** Bytes of the recording on disk before it is complete (the temporary file). */
  const onDisk = async () => {
    const files = await readdir(join(dir, 'tmp')).catch(() => []);
    return files.length ? (await stat(join(dir, 'tmp', files[0]))).size : 0;
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('interleaves the legs (left caller, right agent), the caller frame after frame as the carrier sent it', async () => {
    const recorder = new CallRecorder(open());
    for (let i = 0; i < 25; i++) recorder.caller(frame(100 + i)); // half a second of the caller's stream
    recorder.agent(frame(-200), false); // the agent's first audio, half a second in
    expect(await recorder.close()).toEqual({ durationSeconds: 0.52 });
    const wav = await stored();
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt16LE(22)).toBe(2);
    expect(wav.readUInt32LE(24)).toBe(8000);
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect((wav.length - 44) / 4).toBe(4000 + 160);
    expect(at(wav, 0, 0)).toBe(100);
    expect(at(wav, 160, 0)).toBe(101);
    expect(at(wav, 3999, 0)).toBe(124);
    expect(at(wav, 4000, 0)).toBe(0);
    expect(at(wav, 3999, 1)).toBe(0);
    expect(at(wav, 4000, 1)).toBe(-200);
  });

  it('plays a run of agent frames back to back while the caller stream goes on, and starts the next run where the caller is', async () => {
    const recorder = new CallRecorder(open());
    recorder.agent(frame(1), false);
    recorder.agent(frame(2), true);
    // However late this process got to them, the caller's frames and the utterance's frames follow on.
    for (let i = 0; i < 10; i++) recorder.caller(frame(50));
    recorder.agent(frame(3), true);
    recorder.agent(frame(4), false); // a new utterance after a pause: at the caller's 10th frame's end
    await recorder.close();
    const wav = await stored();
    expect([0, 160, 320].map((i) => at(wav, i, 1))).toEqual([1, 2, 3]);
    expect(at(wav, 480, 1)).toBe(0);
    expect(at(wav, 1600, 1)).toBe(4);
    expect((wav.length - 44) / 4).toBe(1760);
  });

  it('writes the recording out as the call goes on: what it holds does not grow with the call', async () => {
    const lost: Error[] = [];
    const recorder = new CallRecorder(open(), (err) => lost.push(err));
    const window = RECORDING_WINDOW_SAMPLES * 4;
    let agentValue = 0;
    // Ten minutes of a call: the caller's stream throughout, the agent speaking a second in every five.
    for (let second = 0; second < 600; second++) {
      for (let f = 0; f < 50; f++) {
        if (second % 5 === 0) recorder.agent(frame(-(++agentValue % 1000) - 1), f > 0);
        recorder.caller(frame((second % 100) + 1));
      }
      // The disk gets its turn between seconds of audio, as it does between a live call's frames.
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (second % 60 === 59) {
        // All but the last windows (the lag the agent's leg is given) reach the disk before the call ends.
        const recorded = (second + 1) * 8000 * 4;
        const least = WAV_HEADER_BYTES + recorded - window - RECORDING_LAG_SAMPLES * 4;
        for (let waited = 0; (await onDisk()) < least && waited < 5000; waited += 20) await settle();
        expect(lost).toEqual([]);
        expect(await onDisk()).toBeGreaterThanOrEqual(least);
        expect(await onDisk()).toBeLessThanOrEqual(WAV_HEADER_BYTES + recorded);
      }
    }
    expect(lost).toEqual([]);
    expect(await recorder.close()).toEqual({ durationSeconds: 600 });
    const wav = await stored();
    expect(wav.length).toBe(44 + 600 * 8000 * 4);
    // Spot checks across the whole call, window boundaries included.
    agentValue = 0;
    for (let second = 0; second < 600; second++) {
      const i = second * 8000;
      expect(at(wav, i, 0)).toBe((second % 100) + 1);
      expect(at(wav, i + 7999, 0)).toBe((second % 100) + 1);
      if (second % 5 === 0) {
        expect(at(wav, i, 1)).toBe(-(++agentValue % 1000) - 1);
        agentValue += 49;
        expect(at(wav, i + 7999, 1)).toBe(-(agentValue % 1000) - 1);
      } else {
        expect(at(wav, i + 4000, 1)).toBe(0);
      }
    }
  });

  it('an agent run a few seconds behind the caller stays back to back (a stalled process)', async () => {
    const recorder = new CallRecorder(open());
    recorder.agent(frame(5), false);
    for (let i = 0; i < 300; i++) recorder.caller(frame(1)); // six seconds of the caller's stream
    recorder.agent(frame(6), true);
    await recorder.close();
    const wav = await stored();
    expect([0, 159, 160, 319].map((i) => at(wav, i, 1))).toEqual([5, 5, 6, 6]);
    expect(at(wav, 320, 1)).toBe(0);
  });

  it('an agent run that falls more than the lag behind the caller resumes at the first sample not yet written', async () => {
    const recorder = new CallRecorder(open());
    recorder.agent(frame(7), false);
    // The caller's stream runs on twelve seconds while the agent's run is stalled.
    for (let i = 0; i < 600; i++) recorder.caller(frame(1));
    recorder.agent(frame(8), true);
    await recorder.close();
    const wav = await stored();
    const samples = (wav.length - 44) / 4;
    expect(samples).toBe(96000);
    expect(at(wav, 0, 1)).toBe(7);
    expect(at(wav, 160, 1)).toBe(0);
    // Not at sample 160 (already written out), but where the unwritten audio starts.
    const resumedAt = [...Array(samples).keys()].find((i) => i > 160 && at(wav, i, 1) === 8)!;
    expect(resumedAt).toBeGreaterThan(96000 - RECORDING_WINDOW_SAMPLES - RECORDING_LAG_SAMPLES - 1);
    expect(resumedAt % RECORDING_WINDOW_SAMPLES).toBe(0);
    expect(at(wav, resumedAt + 159, 1)).toBe(8);
  });

  it('a store that fails loses the recording: the writer is aborted, onLost hears why, nothing is left', async () => {
    const inner = open();
    let writes = 0;
    const failing: BlobWriter = {
      get bytesWritten() {
        return inner.bytesWritten;
      },
      write: (chunk) => (++writes === 3 ? Promise.reject(new Error('disk full')) : inner.write(chunk)),
      complete: (header) => inner.complete(header),
      abort: () => inner.abort(),
    };
    const lost: string[] = [];
    const recorder = new CallRecorder(failing, (err) => lost.push(err.message));
    for (let second = 0; second < 30; second++) {
      for (let i = 0; i < 50; i++) recorder.caller(frame(3));
      await settle();
    }
    expect(lost).toEqual(['disk full']);
    // Nothing more is handed to the store once it failed.
    const handed = writes;
    for (let i = 0; i < 500; i++) recorder.caller(frame(3));
    expect(await recorder.close()).toBeNull();
    expect(writes).toBe(handed);
    expect(await storage.head(KEY)).toBeNull();
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
  });

  it('a store that falls 30 s behind counts as failed', async () => {
    const lost: string[] = [];
    const stuck: BlobWriter = {
      bytesWritten: 0,
      write: () => new Promise(() => undefined),
      complete: () => Promise.reject(new Error('not reached')),
      abort: () => Promise.resolve(),
    };
    const recorder = new CallRecorder(stuck, (err) => lost.push(err.message));
    for (let i = 0; i < 50 * 50; i++) recorder.caller(frame(1));
    expect(lost).toEqual(['the recording store fell 30 s behind']);
    expect(await recorder.close()).toBeNull();
  });

  it('a store that hangs at the end loses the recording after the close deadline, so the call can be reported', async () => {
    const lost: string[] = [];
    const aborted: boolean[] = [];
    const hung: BlobWriter = {
      bytesWritten: 0,
      write: () => Promise.resolve(),
      complete: () => new Promise(() => undefined),
      abort: () => Promise.resolve(void aborted.push(true)),
    };
    const recorder = new CallRecorder(hung, (err) => lost.push(err.message), 50);
    for (let i = 0; i < 50; i++) recorder.caller(frame(1));
    expect(await recorder.close()).toBeNull();
    expect(lost).toEqual(['the recording store did not finish within 0.05 s']);
    expect(aborted).toEqual([true]);
  });

  it('a frame longer than a window is placed whole', async () => {
    const recorder = new CallRecorder(open());
    recorder.caller(frame(9, 3 * RECORDING_WINDOW_SAMPLES + 17));
    recorder.agent(frame(4, 2 * RECORDING_WINDOW_SAMPLES), false);
    await recorder.close();
    const wav = await stored();
    const samples = (wav.length - 44) / 4;
    expect(samples).toBe(5 * RECORDING_WINDOW_SAMPLES + 17);
    expect(at(wav, 3 * RECORDING_WINDOW_SAMPLES + 16, 0)).toBe(9);
    expect(at(wav, 3 * RECORDING_WINDOW_SAMPLES + 17, 1)).toBe(4);
    expect(at(wav, samples - 1, 1)).toBe(4);
    expect(at(wav, samples - 1, 0)).toBe(0);
    await expect(readFile(join(dir, 'objects', KEY))).resolves.toHaveLength(wav.length);
  });
});
