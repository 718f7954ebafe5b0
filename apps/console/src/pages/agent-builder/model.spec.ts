import { AgentTool, spokenLanguagesProblem, toDraft, toolAllowed, toolsChoice, toRequests } from './model';

// An agent record as the API answers it (every field, defaults applied).
const agent = {
  id: '0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
  agent_name: 'Maya',
  prompt: 'You help.',
  agent_type: 'outbound',
  project_id: '5b1e3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
  voice_id: '72158370-d269-49a5-ae65-8f33fe3b890b',
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
  user_idle_enabled: true,
  tool_ack_config: { enabled: true, mode: 'dynamic', phrases: [], delay_ms: 1000 },
  turn_taking: { mode: 'balanced', min_silence_ms: null, max_silence_ms: null, ignore_backchannels: true },
  dtmf: { enabled: false, max_digits: null, terminator: '#', timeout_ms: 3000 },
  send_dtmf_enabled: false,
  sms_enabled: false,
  sms_allowed_recipients: 'caller',
  tools: null,
  extraction_enabled: true,
  extraction_config: { keys: [] },
  max_call_duration_secs: 600,
  background_audio_id: null,
  background_audio_volume: 0.3,
  webhooks_include_account_endpoints: true,
  transcriber: null,
  fallback_transcriber: null,
  fallback_voice_ids: [],
  dictionary_ids: [],
};

describe('the agent builder’s requests', () => {
  it('creates with the required fields and only those set otherwise than the defaults', () => {
    const draft = {
      ...toDraft(null),
      agent_name: ' Maya ',
      prompt: 'You help.',
      voice_id: agent.voice_id,
      turn_mode: 'patient',
      turn_min_silence_ms: '600',
      ack_mode: 'static',
      ack_phrases: ['One moment.', ' '],
    };
    const { create, update, problems } = toRequests(draft, null);
    expect(problems).toEqual([]);
    expect(create).toEqual({
      agent_name: 'Maya',
      agent_type: 'outbound',
      prompt: 'You help.',
      voice_id: agent.voice_id,
      turn_taking: { mode: 'patient', min_silence_ms: 600, max_silence_ms: null, ignore_backchannels: true },
      tool_ack_config: { enabled: true, mode: 'static', phrases: ['One moment.'], delay_ms: 1000 },
    });
    expect(update).toEqual({});
  });

  it('sets update-only fields (extraction keys) by a following update', () => {
    const draft = {
      ...toDraft(null),
      agent_name: 'Maya',
      prompt: 'p',
      voice_id: agent.voice_id,
      extraction_keys: [
        { name: 'callback_requested', type: 'boolean', description: 'Asked to be called back', options: [] },
        { name: 'interest', type: 'enum', description: '', options: ['high', ' low ', ''] },
      ],
    };
    const { create, update } = toRequests(draft, null);
    expect(create).not.toHaveProperty('extraction_config');
    expect(update).toEqual({
      extraction_config: {
        keys: [
          { name: 'callback_requested', type: 'boolean', description: 'Asked to be called back' },
          { name: 'interest', type: 'enum', description: '', options: ['high', 'low'] },
        ],
      },
    });
  });

  it('saves the SMS settings with the agent, as the API names them', () => {
    const original = toDraft(agent);
    expect(original).toMatchObject({ sms_enabled: false, sms_allowed_recipients: 'caller' });
    expect(toRequests({ ...original, sms_enabled: true }, original).update).toEqual({ sms_enabled: true });
    expect(
      toRequests({ ...original, sms_enabled: true, sms_allowed_recipients: 'any' }, original).update,
    ).toEqual({ sms_enabled: true, sms_allowed_recipients: 'any' });
    const texting = toDraft({ ...agent, sms_enabled: true, sms_allowed_recipients: 'any' });
    expect(texting).toMatchObject({ sms_enabled: true, sms_allowed_recipients: 'any' });
    // A new agent that may text sends it on the create.
    const created = toRequests(
      { ...toDraft(null), agent_name: 'Maya', prompt: 'p', voice_id: agent.voice_id, sms_enabled: true },
      null,
    );
    expect(created.create).toMatchObject({ sms_enabled: true });
    expect(created.create).not.toHaveProperty('sms_allowed_recipients');
  });

  it('sends only what changed on an edit, cleared texts as null and nested objects whole', () => {
    const original = toDraft(agent);
    expect(toRequests(original, original).update).toEqual({});
    const { update } = toRequests(
      {
        ...original,
        intro_message: 'Hello',
        dtmf_enabled: true,
        dtmf_max_digits: '4',
        max_call_capped: false,
        ack_enabled: false,
        transcriber: {
          provider: 'deepgram',
          model: '',
          languages: [],
          keyterms: ['Acme', ' '],
          options: { endpointing_ms: '300', smart_format: true },
        },
      },
      original,
    );
    expect(update).toEqual({
      intro_message: 'Hello',
      dtmf: { enabled: true, max_digits: 4, terminator: '#', timeout_ms: 3000 },
      max_call_duration_secs: null,
      tool_ack_config: null,
      transcriber: {
        provider: 'deepgram',
        keyterms: ['Acme'],
        options: { smart_format: true, endpointing_ms: 300 },
      },
    });
    expect(
      toRequests(
        { ...toDraft({ ...agent, intro_message: 'Hi' }), intro_message: '' },
        toDraft({ ...agent, intro_message: 'Hi' }),
      ).update,
    ).toEqual({
      intro_message: null,
    });
  });

  it('names the fields it cannot send as the API names them', () => {
    const original = toDraft(agent);
    const { problems } = toRequests(
      {
        ...original,
        turn_min_silence_ms: '50',
        max_call_duration_secs: 'soon',
        transfer_enabled: true,
        extraction_keys: [{ name: 'Bad Name', type: 'enum', description: '', options: [] }],
      },
      original,
    );
    expect(problems.map((p) => p.field)).toEqual([
      'transfer_number',
      'max_call_duration_secs',
      'turn_taking.min_silence_ms',
      'extraction_config.keys.0.name',
      'extraction_config.keys.0.options',
    ]);
  });

  it('sends a warm transfer with its briefing and ring time, and names a ring time out of bounds', () => {
    const original = toDraft(agent);
    expect(original).toMatchObject({ transfer_mode: 'cold', transfer_ring_timeout_secs: '20' });
    const warm = {
      ...original,
      transfer_enabled: true,
      transfer_number: '+919876500093',
      transfer_mode: 'warm_handback',
      transfer_briefing_instructions: 'Say what the caller wants.',
      transfer_ring_timeout_secs: '15',
    };
    const { update, problems } = toRequests(warm, original);
    expect(problems).toEqual([]);
    expect(update).toMatchObject({
      transfer_enabled: true,
      transfer_number: '+919876500093',
      transfer_mode: 'warm_handback',
      transfer_briefing_instructions: 'Say what the caller wants.',
      transfer_ring_timeout_secs: 15,
    });
    expect(toRequests({ ...warm, transfer_ring_timeout_secs: '90' }, original).problems).toEqual([
      {
        field: 'transfer_ring_timeout_secs',
        message: 'How long the person’s phone rings must be a whole number from 5 to 60',
      },
    ]);
  });

  it('keeps every built-in tool (null) until one is unchecked, then sends the checked ones; opt_out is never listed', () => {
    const tool = (name: string, always = false): AgentTool => ({
      name,
      kind: 'builtin',
      title: name,
      description: `${name} does it.`,
      always_offered: always,
      selectable: true,
    });
    const catalog = [tool('end_call'), tool('transfer_call'), tool('opt_out', true), tool('send_dtmf')];
    const original = toDraft(agent);
    expect(original.tools).toBeNull();
    expect(catalog.every((t) => toolAllowed(original.tools, t))).toBe(true);
    const fewer = toolsChoice(catalog, ['transfer_call', 'opt_out', 'send_dtmf']);
    expect(fewer).toEqual(['transfer_call', 'send_dtmf']);
    expect(toolAllowed(fewer, catalog[0])).toBe(false);
    expect(toolAllowed([], catalog[2])).toBe(true);
    expect(toRequests({ ...original, tools: fewer }, original).update).toEqual({
      tools: ['transfer_call', 'send_dtmf'],
    });
    // Checking every tool again is the list's absence: nothing changed.
    expect(toolsChoice(catalog, ['end_call', 'transfer_call', 'send_dtmf'])).toBeNull();
    expect(toRequests({ ...original, tools: null }, original).update).toEqual({});
    const restricted = toDraft({ ...agent, tools: ['end_call'] });
    expect(toRequests({ ...restricted, tools: null }, restricted).update).toEqual({ tools: null });
    const created = toRequests(
      { ...toDraft(null), agent_name: 'M', prompt: 'p', voice_id: agent.voice_id, tools: [] },
      null,
    );
    expect(created.create).toMatchObject({ tools: [] });
  });

  it('tells the spoken languages rule', () => {
    expect(spokenLanguagesProblem(['en', 'hi'])).toBeNull();
    expect(spokenLanguagesProblem(['te', 'hi'])).toMatch(/at most one of Hindi/);
    expect(spokenLanguagesProblem(['hinglish', 'te'])).toMatch(/Hinglish/);
    expect(spokenLanguagesProblem(['en', 'hi', 'hinglish'])).toMatch(/at most two/);
  });
});
