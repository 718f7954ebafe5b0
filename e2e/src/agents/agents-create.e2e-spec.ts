// POST /agent: every creation rule of the contract's Agent table (and turn_taking, dtmf, send_dtmf_enabled), the
// defaults of the returned record, the voice tier, the project, and 409 on a duplicate name.
import { api } from '../../support';
import {
  agentBody,
  createAgent,
  fieldsOf,
  OFFICE_AMBIENCE,
  partnerKey,
  randomId,
  UUID,
  Voices,
} from './agent-fixtures';

const long = (n: number) => 'x'.repeat(n);
const DTMF_DEFAULTS = { enabled: false, max_digits: null, terminator: '#', timeout_ms: 3000 };
const ANALYSIS_DEFAULTS = {
  summary_enabled: true,
  summary_instructions: null,
  success_rubric: null,
  success_threshold: 7,
};
const TURN_TAKING_DEFAULTS = {
  mode: 'balanced',
  min_silence_ms: null,
  max_silence_ms: null,
  ignore_backchannels: true,
};
const label = (value: unknown): string => {
  if (typeof value === 'symbol') return '(missing)';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 12)}… (${text.length} chars)` : text;
};

describe('POST /agent', () => {
  let key: string;

  beforeAll(async () => {
    key = await partnerKey('standard');
  });

  const post = (body: unknown, k = key) => api('/agent', { method: 'POST', key: k, body });

  it('creates an agent with only the required fields and shows every default', async () => {
    const body = agentBody();
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const agent = res.body.data;
    expect(agent).toEqual({
      id: expect.stringMatching(UUID),
      agent_name: body.agent_name,
      prompt: body.prompt,
      agent_type: 'outbound',
      status: 'active',
      project_id: expect.stringMatching(UUID),
      voice_id: Voices.neerja,
      gender: 'female',
      voice: {
        id: Voices.neerja,
        display_name: 'Neerja',
        gender: 'female',
        language: 'en-IN',
        provider: 'azure',
      },
      spoken_languages: ['en'],
      intro_message: null,
      voicemail_detection_enabled: true,
      screener_handling_enabled: false,
      voicemail_message: null,
      enable_recording: true,
      kb_threshold: 'medium',
      kb_include_summaries: false,
      kb_result_format: null,
      kb_enable_llm_processing: false,
      kb_llm_system_prompt: null,
      end_call_enabled: true,
      end_call_message: null,
      end_call_instructions: null,
      transfer_enabled: false,
      transfer_number: null,
      transfer_message: null,
      transfer_instructions: null,
      transfer_mode: 'cold',
      transfer_briefing_instructions: null,
      transfer_ring_timeout_secs: 20,
      user_idle_enabled: true,
      tool_ack_config: { enabled: true, mode: 'dynamic', phrases: [], delay_ms: 1000 },
      turn_taking: {
        mode: 'balanced',
        min_silence_ms: null,
        max_silence_ms: null,
        ignore_backchannels: true,
      },
      dtmf: { enabled: false, max_digits: null, terminator: '#', timeout_ms: 3000 },
      send_dtmf_enabled: false,
      tools: null,
      sms_enabled: false,
      sms_allowed_recipients: 'caller',
      extraction_enabled: true,
      analysis_config: ANALYSIS_DEFAULTS,
      handoffs: [],
      extraction_config: { keys: [] },
      extraction_sets: [],
      custom_functions: [],
      max_call_duration_secs: 600,
      background_audio_id: null,
      background_audio_volume: 0.3,
      webhooks_include_account_endpoints: true,
      transcriber: null,
      fallback_transcriber: null,
      fallback_voice_ids: [],
      dictionary_ids: [],
      model: null,
      fallback_models: [],
      documents: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(Date.parse(agent.created_at)).not.toBeNaN();
  });

  it('takes the gender from the voice', async () => {
    const agent = await createAgent(key, { voice_id: Voices.abhilash });
    expect(agent.gender).toBe('male');
    expect(agent.voice).toEqual({
      id: Voices.abhilash,
      display_name: 'Abhilash',
      gender: 'male',
      language: 'hi-IN',
      provider: 'sarvam',
    });
  });

  it('takes turn_taking with mode patient and explicit silence bounds, and answers it on GET', async () => {
    const turnTaking = {
      mode: 'patient',
      min_silence_ms: 700,
      max_silence_ms: 2200,
      ignore_backchannels: false,
    };
    const agent = await createAgent(key, { turn_taking: turnTaking });
    expect(agent.turn_taking).toEqual(turnTaking);
    expect((await api(`/agent/${agent.id}`, { key })).body.data.turn_taking).toEqual(turnTaking);
    // Fields left out take their defaults: the mode's bounds, acknowledgements ignored.
    const partial = await createAgent(key, { turn_taking: { mode: 'patient', max_silence_ms: 2200 } });
    expect(partial.turn_taking).toEqual({ ...turnTaking, min_silence_ms: null, ignore_backchannels: true });
  });

  it('stores and echoes every optional field', async () => {
    const body = agentBody({
      agent_type: 'inbound',
      spoken_languages: ['en', 'hi'],
      intro_message: 'Hello! This is Asha from Acme.',
      voicemail_detection_enabled: true,
      screener_handling_enabled: true,
      voicemail_message: 'Please call us back.',
      enable_recording: false,
      kb_threshold: 'high',
      kb_include_summaries: true,
      kb_result_format: 'Source: {title}\n{content}',
      kb_enable_llm_processing: true,
      kb_llm_system_prompt: 'Summarise for a phone call.',
      end_call_enabled: false,
      end_call_message: 'Goodbye!',
      end_call_instructions: 'End when the caller says bye.',
      transfer_enabled: true,
      transfer_number: '+919876543210',
      transfer_message: 'Connecting you now.',
      transfer_instructions: 'Transfer on request for a human.',
      user_idle_enabled: false,
      tool_ack_config: { mode: 'static', phrases: ['One moment please.'], delay_ms: 500 },
      turn_taking: { mode: 'patient', min_silence_ms: 600, max_silence_ms: 3000, ignore_backchannels: false },
      dtmf: { enabled: true, max_digits: 10, terminator: '*', timeout_ms: 5000 },
      send_dtmf_enabled: true,
      tools: ['transfer_call', 'send_dtmf'],
      extraction_enabled: false,
      max_call_duration_secs: 3600,
      background_audio_id: OFFICE_AMBIENCE,
      background_audio_volume: 0.75,
    });
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      ...body,
      tool_ack_config: { enabled: true, mode: 'static', phrases: ['One moment please.'], delay_ms: 500 },
    });
  });

  it.each([
    ['max_call_duration_secs', 60, 60],
    ['max_call_duration_secs', 3600, 3600],
    ['max_call_duration_secs', null, null],
    ['background_audio_volume', 0, 0],
    ['background_audio_volume', 1, 1],
    ['background_audio_volume', null, 0.3],
    ['kb_threshold', 'low', 'low'],
    ['kb_threshold', null, null],
    ['tool_ack_config', null, null],
    ['tool_ack_config', {}, { enabled: true, mode: 'dynamic', phrases: [], delay_ms: 1000 }],
    ['tool_ack_config', { enabled: false }, { enabled: false, mode: 'dynamic', phrases: [], delay_ms: 1000 }],
    ['turn_taking', null, TURN_TAKING_DEFAULTS],
    ['turn_taking', {}, TURN_TAKING_DEFAULTS],
    ['turn_taking', { mode: 'fast' }, { ...TURN_TAKING_DEFAULTS, mode: 'fast' }],
    ['turn_taking', { min_silence_ms: 100 }, { ...TURN_TAKING_DEFAULTS, min_silence_ms: 100 }],
    ['turn_taking', { max_silence_ms: 5000 }, { ...TURN_TAKING_DEFAULTS, max_silence_ms: 5000 }],
    ['turn_taking', { min_silence_ms: null }, TURN_TAKING_DEFAULTS],
    ['dtmf', null, DTMF_DEFAULTS],
    ['dtmf', {}, DTMF_DEFAULTS],
    ['dtmf', { enabled: true }, { ...DTMF_DEFAULTS, enabled: true }],
    ['dtmf', { max_digits: 1, terminator: null }, { ...DTMF_DEFAULTS, max_digits: 1, terminator: null }],
    ['dtmf', { max_digits: 32, timeout_ms: 15000 }, { ...DTMF_DEFAULTS, max_digits: 32, timeout_ms: 15000 }],
    ['dtmf', { timeout_ms: 500 }, { ...DTMF_DEFAULTS, timeout_ms: 500 }],
    ['handoffs', null, []],
    ['handoffs', [], []],
    ['tools', null, null],
    ['tools', [], []],
    ['tools', ['opt_out', 'end_call'], ['opt_out', 'end_call']],
    ['analysis_config', null, ANALYSIS_DEFAULTS],
    ['analysis_config', {}, ANALYSIS_DEFAULTS],
    ['analysis_config', { summary_enabled: false }, { ...ANALYSIS_DEFAULTS, summary_enabled: false }],
    [
      'analysis_config',
      { success_rubric: 'The caller booked a visit', success_threshold: 10, summary_instructions: '  ' },
      { ...ANALYSIS_DEFAULTS, success_rubric: 'The caller booked a visit', success_threshold: 10 },
    ],
    [
      'analysis_config',
      { success_rubric: '', success_threshold: 1 },
      { ...ANALYSIS_DEFAULTS, success_threshold: 1 },
    ],
    ['send_dtmf_enabled', true, true],
    ['spoken_languages', [], ['en']],
    ['intro_message', '', null],
    ['voicemail_message', '   ', null],
    ['end_call_message', '', null],
    ['transfer_number', '+14155550123', '+14155550123'],
    ['project_id', null, expect.stringMatching(UUID)],
    ['background_audio_id', null, null],
  ])('accepts %s = %j and stores %j', async (field, value, stored) => {
    const res = await post(agentBody({ [field]: value }));
    expect(res.status).toBe(200);
    expect(res.body.data[field]).toEqual(stored);
  });

  it('puts agents without project_id into one default project, which can also be named', async () => {
    const a = await createAgent(key);
    const b = await createAgent(key, { project_id: a.project_id });
    const c = await createAgent(key, { project_id: null });
    expect(b.project_id).toBe(a.project_id);
    expect(c.project_id).toBe(a.project_id);
  });

  describe('refuses each invalid field with 400 VALIDATION_ERROR naming it', () => {
    const missing = Symbol('missing');
    const cases: [string, unknown][] = [
      ['agent_name', missing],
      ['agent_name', null],
      ['agent_name', ''],
      ['agent_name', '   '],
      ['agent_name', long(51)],
      ['agent_name', 42],
      ['prompt', missing],
      ['prompt', ''],
      ['prompt', '  \n '],
      ['prompt', long(120_001)],
      ['prompt', ['a']],
      ['voice_id', missing],
      ['voice_id', 'not-a-uuid'],
      ['voice_id', randomId()],
      ['voice_id', Voices.retired],
      ['voice_id', Voices.priya],
      ['voice_id', Voices.aditi],
      ['agent_type', missing],
      ['agent_type', 'both'],
      ['agent_type', 'INBOUND'],
      ['agent_type', null],
      ['spoken_languages', 'en'],
      ['spoken_languages', null],
      ['spoken_languages', ['fr']],
      ['spoken_languages', ['EN']],
      ['spoken_languages', [1]],
      ['spoken_languages', ['en', 'en']],
      ['spoken_languages', ['en', 'hi', 'hinglish']],
      ['intro_message', long(501)],
      ['intro_message', 5],
      ['voicemail_detection_enabled', 'true'],
      ['voicemail_detection_enabled', null],
      ['voicemail_detection_enabled', 1],
      ['screener_handling_enabled', 'yes'],
      ['screener_handling_enabled', null],
      ['voicemail_message', long(501)],
      ['project_id', 'default'],
      ['project_id', randomId()],
      ['enable_recording', 'false'],
      ['enable_recording', null],
      ['kb_threshold', 'extreme'],
      ['kb_threshold', ''],
      ['kb_threshold', 1],
      ['kb_include_summaries', 'no'],
      ['kb_result_format', long(2001)],
      ['kb_enable_llm_processing', 0],
      ['kb_llm_system_prompt', long(120_001)],
      ['end_call_enabled', null],
      ['end_call_message', long(501)],
      ['end_call_instructions', long(2001)],
      ['transfer_enabled', 'true'],
      ['transfer_number', '9876543210'],
      ['transfer_number', '+0123456789'],
      ['transfer_number', '+91 98765 43210'],
      ['transfer_number', '+12'],
      ['transfer_number', '+1234567890123456'],
      ['transfer_mode', 'lukewarm'],
      ['transfer_mode', null],
      ['transfer_briefing_instructions', long(2001)],
      ['transfer_ring_timeout_secs', 4],
      ['transfer_ring_timeout_secs', 61],
      ['transfer_ring_timeout_secs', 12.5],
      ['transfer_number', 919876543210],
      ['transfer_message', long(501)],
      ['transfer_instructions', long(2001)],
      ['user_idle_enabled', null],
      ['tool_ack_config', 'on'],
      ['tool_ack_config', []],
      ['tool_ack_config', { mode: 'loud' }],
      ['tool_ack_config', { mode: 'static' }],
      ['tool_ack_config', { mode: 'static', phrases: [] }],
      ['tool_ack_config', { mode: 'static', phrases: [long(201)] }],
      ['tool_ack_config', { delay_ms: -1 }],
      ['tool_ack_config', { delay_ms: 10_001 }],
      ['tool_ack_config', { enabled: 'yes' }],
      ['tool_ack_config', { volume: 1 }],
      ['turn_taking', 'patient'],
      ['turn_taking', []],
      ['turn_taking', { mode: 'slow' }],
      ['turn_taking', { mode: 'PATIENT' }],
      ['turn_taking', { mode: null }],
      ['turn_taking', { min_silence_ms: 99 }],
      ['turn_taking', { min_silence_ms: 3001 }],
      ['turn_taking', { min_silence_ms: 250.5 }],
      ['turn_taking', { min_silence_ms: '250' }],
      ['turn_taking', { max_silence_ms: 199 }],
      ['turn_taking', { max_silence_ms: 5001 }],
      ['turn_taking', { ignore_backchannels: 'yes' }],
      ['turn_taking', { ignore_backchannels: null }],
      ['turn_taking', { patience: 'high' }],
      ['dtmf', 'on'],
      ['dtmf', [1]],
      ['dtmf', { enabled: 'yes' }],
      ['dtmf', { enabled: null }],
      ['dtmf', { max_digits: 0 }],
      ['dtmf', { max_digits: 33 }],
      ['dtmf', { max_digits: 4.5 }],
      ['dtmf', { terminator: '5' }],
      ['dtmf', { terminator: '##' }],
      ['dtmf', { timeout_ms: 499 }],
      ['dtmf', { timeout_ms: 15001 }],
      ['dtmf', { timeout_ms: null }],
      ['dtmf', { digits: 4 }],
      ['handoffs', 'billing'],
      ['handoffs', [{}]],
      ['handoffs', [{ name: 'Billing', description: 'Bills', agent_id: randomId() }]],
      ['handoffs', [{ name: 'billing', description: '', agent_id: randomId() }]],
      ['handoffs', [{ name: 'billing', description: 'Bills', agent_id: 'billing' }]],
      ['handoffs', [{ name: 'billing', description: 'Bills', agent_id: randomId() }]],
      ['handoffs', [{ name: 'billing', description: 'Bills', agent_id: randomId(), context_mode: 'all' }]],
      ['handoffs', [{ name: 'billing', description: 'Bills', agent_id: randomId(), last_turns: 0 }]],
      ['handoffs', [{ name: 'billing', description: 'Bills', agent_id: randomId(), variables: ['a b'] }]],
      ['handoffs', [{ name: 'billing', description: 'Bills', agent_id: randomId(), tone: 'warm' }]],
      [
        'handoffs',
        Array.from({ length: 9 }, (_, i) => ({ name: `h${i}`, description: 'x', agent_id: randomId() })),
      ],
      ['analysis_config', 'on'],
      ['analysis_config', [1]],
      ['analysis_config', { summary_enabled: 'yes' }],
      ['analysis_config', { summary_enabled: null }],
      ['analysis_config', { success_threshold: 0 }],
      ['analysis_config', { success_threshold: 11 }],
      ['analysis_config', { success_threshold: 6.5 }],
      ['analysis_config', { success_threshold: null }],
      ['analysis_config', { success_rubric: long(4001) }],
      ['analysis_config', { success_rubric: 7 }],
      ['analysis_config', { summary_instructions: long(2001) }],
      ['analysis_config', { rubric: 'x' }],
      ['send_dtmf_enabled', 'true'],
      ['send_dtmf_enabled', null],
      ['tools', 'end_call'],
      ['tools', ['end_call', 'end_call']],
      ['tools', ['hang_up']],
      ['tools', [7]],
      ['extraction_enabled', 'true'],
      ['max_call_duration_secs', 59],
      ['max_call_duration_secs', 3601],
      ['max_call_duration_secs', 0],
      ['max_call_duration_secs', 600.5],
      ['max_call_duration_secs', '600'],
      ['background_audio_id', 'office'],
      ['background_audio_id', randomId()],
      ['background_audio_volume', -0.1],
      ['background_audio_volume', 1.1],
      ['background_audio_volume', '0.5'],
      // Not creation fields: the contract's table is the whole body.
      ['extraction_config', { keys: [] }],
      ['webhooks_include_account_endpoints', false],
      ['gender', 'female'],
      ['status', 'active'],
      ['id', randomId()],
    ];

    // Titles show a short form of the value: some values are 120 000 characters long.
    const titled = cases.map(([field, value]) => [field, label(value), value] as const);
    it.each(titled)('%s = %s', async (field, _label, value) => {
      const body = agentBody();
      if (value === missing) delete body[field];
      else body[field] = value;
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain(field);
      expect(fieldsOf(res.body).some((f) => f === field || f.startsWith(`${field}.`))).toBe(true);
    });
  });

  describe('rules between fields', () => {
    it('needs transfer_number when transfer_enabled is true', async () => {
      const res = await post(agentBody({ transfer_enabled: true }));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res.body)).toEqual(['transfer_number']);
      expect((await post(agentBody({ transfer_enabled: true, transfer_number: null }))).status).toBe(400);
      expect((await post(agentBody({ transfer_enabled: true, transfer_number: '' }))).status).toBe(400);
    });

    it('accepts a transfer_number without transfer', async () => {
      const agent = await createAgent(key, { transfer_number: '+919876543210' });
      expect(agent).toMatchObject({ transfer_enabled: false, transfer_number: '+919876543210' });
    });

    it('needs voicemail_detection_enabled for screener_handling_enabled', async () => {
      const res = await post(
        agentBody({ screener_handling_enabled: true, voicemail_detection_enabled: false }),
      );
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res.body)).toEqual(['screener_handling_enabled']);
      // voicemail detection is on by default
      expect((await createAgent(key, { screener_handling_enabled: true })).screener_handling_enabled).toBe(
        true,
      );
    });

    it('keeps the minimum silence of turn_taking in force at most its maximum in force', async () => {
      // fast ends a plainly unfinished turn after 900 ms: a minimum above that is refused.
      const fast = await post(agentBody({ turn_taking: { mode: 'fast', min_silence_ms: 1000 } }));
      expect(fast.status).toBe(400);
      expect(fast.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(fast.body)).toEqual(['turn_taking.min_silence_ms']);
      expect(fast.body.error.message).toMatch(/turn_taking.min_silence_ms \(1000\).*900/);
      const both = await post(agentBody({ turn_taking: { min_silence_ms: 1200, max_silence_ms: 1000 } }));
      expect(both.status).toBe(400);
      expect(fieldsOf(both.body)).toEqual(['turn_taking.min_silence_ms']);
      // patient waits at least 500 ms: a maximum below that is refused.
      const patient = await post(agentBody({ turn_taking: { mode: 'patient', max_silence_ms: 300 } }));
      expect(patient.status).toBe(400);
      expect(fieldsOf(patient.body)).toEqual(['turn_taking.max_silence_ms']);
      expect(patient.body.error.message).toMatch(/turn_taking.max_silence_ms \(300\).*500/);
      // Equal bounds are fine.
      const equal = await createAgent(key, { turn_taking: { min_silence_ms: 800, max_silence_ms: 800 } });
      expect(equal.turn_taking).toEqual({
        ...TURN_TAKING_DEFAULTS,
        min_silence_ms: 800,
        max_silence_ms: 800,
      });
    });

    it('lists every bad field of one request', async () => {
      const res = await post(
        agentBody({ voice_id: randomId(), transfer_enabled: true, background_audio_id: randomId() }),
      );
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body).sort()).toEqual(['background_audio_id', 'transfer_number', 'voice_id']);
    });
  });

  describe('spoken_languages', () => {
    it.each([
      [['en', 'hi']],
      [['en', 'hinglish']],
      [['hi', 'hinglish']],
      [['en', 'te']],
      [['hinglish']],
      [['ta']],
      [['bn', 'en']],
    ])('accepts %j', async (langs) => {
      const agent = await createAgent(key, { spoken_languages: langs });
      expect(agent.spoken_languages).toEqual(langs);
    });

    it.each([
      [['mr', 'te']],
      [['te', 'hi']],
      [['mr', 'hi']],
      [['hinglish', 'te']],
      [['ta', 'hinglish']],
      [['en', 'hi', 'te']],
    ])('refuses %j', async (langs) => {
      const res = await post(agentBody({ spoken_languages: langs }));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res.body)).toEqual(['spoken_languages']);
    });
  });

  describe('voice tier', () => {
    it('lets a premium partner use premium voices but not enterprise ones', async () => {
      const premium = await partnerKey('premium');
      const agent = await createAgent(premium, { voice_id: Voices.priya });
      expect(agent.voice).toMatchObject({ id: Voices.priya, provider: 'elevenlabs' });
      const res = await post(agentBody({ voice_id: Voices.aditi }), premium);
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body)).toEqual(['voice_id']);
      expect(res.body.error.message).toMatch(/enterprise/);
    });

    it('lets an enterprise partner use every tier', async () => {
      const enterprise = await partnerKey('enterprise');
      for (const voice of [Voices.neerja, Voices.priya, Voices.aditi]) {
        expect((await createAgent(enterprise, { voice_id: voice })).voice_id).toBe(voice);
      }
    });
  });

  describe('names', () => {
    it('answers 409 CONFLICT for a duplicate agent_name on the account', async () => {
      const first = await createAgent(key);
      const res = await post(agentBody({ agent_name: first.agent_name }));
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
      expect(res.body.error.message).toMatch(/agent_name/);
    });

    it('allows the same name on another account', async () => {
      const first = await createAgent(key);
      const other = await partnerKey();
      expect((await createAgent(other, { agent_name: first.agent_name })).agent_name).toBe(first.agent_name);
    });

    it('accepts a 50-character name and trims surrounding spaces', async () => {
      const name = `N${Date.now()}`.padEnd(50, 'x');
      expect((await createAgent(key, { agent_name: name })).agent_name).toBe(name);
      const padded = `  Trimmed ${Date.now()}  `;
      expect((await createAgent(key, { agent_name: padded })).agent_name).toBe(padded.trim());
    });
  });

  it("refuses another account's project", async () => {
    const other = await partnerKey();
    const foreign = await createAgent(other);
    const res = await post(agentBody({ project_id: foreign.project_id }));
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual(['project_id']);
  });

  it('refuses a body that is not JSON or has no fields', async () => {
    expect((await post({})).status).toBe(400);
    const text = await api('/agent', {
      method: 'POST',
      key,
      body: 'agent_name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
  });
});
