import { CarrierAdapter } from '../carriers/carrier-adapter';
import { CarrierRegistry } from '../carriers/carrier-registry';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { RecordingStore } from '../recording/recording-store';
import { CarrierRecordingCopier, RECORDING_WAIT_ATTEMPTS } from './carrier-recording-copier.service';

const call = (recording = true) =>
  ({
    id: 'c1',
    partnerId: 'p1',
    connectionId: 'k1',
    providerCallId: 'CA1',
    provider: 'carrier_b',
    agentSettings: { enableRecording: recording },
  }) as unknown as Call;
const session = (over: Partial<CallSession> = {}) =>
  ({ recordingKey: null, recordingSourceUrl: 'https://carrier.example/rec/RE1', ...over }) as CallSession;

function setup(fetchRecording?: CarrierAdapter['fetchRecording']) {
  const adapter = {
    provider: 'carrier_b',
    placeCall: jest.fn(),
    parseCallback: jest.fn(),
    fetchRecording,
  } as unknown as CarrierAdapter;
  const registry = new CarrierRegistry([adapter]);
  const saved: unknown[][] = [];
  const store = {
    saveCarrierRecording: async (...args: unknown[]) => {
      saved.push(args);
      return 'recordings/p1/c1.wav';
    },
  } as unknown as RecordingStore;
  return { copier: new CarrierRecordingCopier(registry, store), saved };
}

describe('CarrierRecordingCopier', () => {
  it('copies a reported recording into storage with the call’s reference', async () => {
    const fetch = jest.fn(async () => ({ body: Buffer.from('RIFF'), contentType: 'audio/x-wav' }));
    const { copier, saved } = setup(fetch);
    await expect(copier.copy(call(), session(), 1)).resolves.toBe('recordings/p1/c1.wav');
    expect(fetch).toHaveBeenCalledWith('https://carrier.example/rec/RE1', {
      id: 'c1',
      partnerId: 'p1',
      connectionId: 'k1',
      providerCallId: 'CA1',
    });
    expect(saved).toEqual([['p1', 'c1', Buffer.from('RIFF'), 'audio/x-wav']]);
  });

  it('waits for a late recording on early attempts, then completes without it', async () => {
    const { copier } = setup(jest.fn());
    await expect(copier.copy(call(), session({ recordingSourceUrl: null }), 1)).rejects.toThrow(/waiting/);
    await expect(
      copier.copy(call(), session({ recordingSourceUrl: null }), RECORDING_WAIT_ATTEMPTS),
    ).resolves.toBeNull();
  });

  it('retries a failed download early and gives up later', async () => {
    const { copier } = setup(jest.fn(async () => Promise.reject(new Error('carrier 500'))));
    await expect(copier.copy(call(), session(), 1)).rejects.toThrow(/carrier 500/);
    await expect(copier.copy(call(), session(), RECORDING_WAIT_ATTEMPTS)).resolves.toBeNull();
  });

  it('does nothing when recording is off, already stored, or the carrier has no download', async () => {
    const fetch = jest.fn();
    const { copier } = setup(fetch);
    await expect(copier.copy(call(false), session(), 1)).resolves.toBeNull();
    await expect(
      copier.copy(call(), session({ recordingKey: 'recordings/p1/c1.wav' }), 1),
    ).resolves.toBeNull();
    expect(fetch).not.toHaveBeenCalled();
    await expect(setup(undefined).copier.copy(call(), session(), 1)).resolves.toBeNull();
  });
});
