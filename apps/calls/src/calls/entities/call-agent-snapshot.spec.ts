// A call's copy of its agent against a real Postgres: written in the current shape, and a call stored by an
// older release (an unversioned snake_case snapshot) still read in the current one.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AGENT_SNAPSHOT_VERSION } from '@vap/messages';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { CallsConfig } from '../../config/calls.config';
import { callsDataSourceOptions } from '../../database/data-source';
import { saveCall, saveConnection } from '../../testing/call-rows';
import { Call } from './call.entity';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** The snapshot as calls started before it had a version stored it. */
const STORED_V1 = {
  prompt: 'Be kind',
  voice_id: '59a54a7b-b1fe-408f-9712-42425051c1cc',
  spoken_languages: ['en'],
  intro_message: 'Hello',
  enable_recording: true,
  max_call_duration_secs: 300,
  end_call_enabled: true,
  end_call_message: null,
  end_call_instructions: null,
  transfer_enabled: true,
  transfer_number: '+15559990000',
  transfer_message: null,
  transfer_instructions: null,
  voicemail_detection_enabled: false,
  voicemail_message: null,
  user_idle_enabled: true,
  tool_ack_config: null,
  background_audio_id: null,
  background_audio_volume: 0.3,
  kb_threshold: 'medium',
  kb_include_summaries: false,
  kb_result_format: null,
  has_knowledge: false,
  extraction_enabled: true,
  custom_functions: [],
  send_dtmf_enabled: true,
};

describe("a call's agent snapshot in storage", () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let partnerId: string;
  let connectionId: string;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_calls_agent_snapshot');
    const config = Object.assign(new CallsConfig(), { DATABASE_URL: db.url });
    await runMigrations(callsDataSourceOptions(config));
    dataSource = await new DataSource(callsDataSourceOptions(config)).initialize();
    partnerId = randomUUID();
    connectionId = await saveConnection(dataSource, partnerId, 'carrier_a');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('is written versioned, in camelCase', async () => {
    const call = await saveCall(dataSource, { partnerId, connectionId, provider: 'carrier_a' });
    const [row] = await dataSource.query(`SELECT agent_settings FROM calls.calls WHERE id = $1`, [call.id]);
    expect(row.agent_settings.version).toBe(AGENT_SNAPSHOT_VERSION);
    expect(Object.keys(row.agent_settings).filter((key) => key.includes('_'))).toEqual([]);
  });

  it('reads a call stored with the unversioned snake_case snapshot in the current shape', async () => {
    const call = await saveCall(dataSource, { partnerId, connectionId, provider: 'carrier_a' });
    await dataSource.query(`UPDATE calls.calls SET agent_settings = $2 WHERE id = $1`, [
      call.id,
      JSON.stringify(STORED_V1),
    ]);
    const loaded = await dataSource.getRepository(Call).findOneByOrFail({ id: call.id });
    expect(loaded.agentSettings).toEqual({
      version: AGENT_SNAPSHOT_VERSION,
      prompt: 'Be kind',
      voiceId: '59a54a7b-b1fe-408f-9712-42425051c1cc',
      spokenLanguages: ['en'],
      introMessage: 'Hello',
      enableRecording: true,
      maxCallDurationSecs: 300,
      endCallEnabled: true,
      endCallMessage: null,
      endCallInstructions: null,
      transferEnabled: true,
      transferNumber: '+15559990000',
      transferMessage: null,
      transferInstructions: null,
      voicemailDetectionEnabled: false,
      voicemailMessage: null,
      userIdleEnabled: true,
      toolAckConfig: null,
      backgroundAudioId: null,
      backgroundAudioVolume: 0.3,
      kbThreshold: 'medium',
      kbIncludeSummaries: false,
      kbResultFormat: null,
      hasKnowledge: false,
      extractionEnabled: true,
      customFunctions: [],
      sendDtmfEnabled: true,
    });
  });
});
