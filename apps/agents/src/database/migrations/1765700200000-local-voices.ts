import { MigrationInterface, QueryRunner } from 'typeorm';

// [id, provider_voice_id (an eSpeak NG voice: language + variant), display_name, language, gender, preview_text]
type LocalVoice = [string, string, string, string, string, string];

const HELLO = (name: string) => `Hello, this is ${name}. How can I help you today?`;

/**
 * Voices of local speech (eSpeak NG on the deployment, no key): English of the US and UK, and each Indian
 * language of the contract, a female and a male variant each, so a team can choose a voice that sounds its own
 * with no provider key. Their previews are written in each language's own script, as eSpeak NG reads it. Ids
 * are fixed so that environments agree on them.
 */
export const LOCAL_VOICES: LocalVoice[] = [
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b01',
    'en-us+f2',
    'Local English (US), female',
    'en-US',
    'female',
    HELLO('your local voice'),
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b02',
    'en-us+f4',
    'Local English (US), female 2',
    'en-US',
    'female',
    HELLO('your local voice'),
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b03',
    'en-us+m1',
    'Local English (US), male',
    'en-US',
    'male',
    HELLO('your local voice'),
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b04',
    'en-us+m7',
    'Local English (US), male 2',
    'en-US',
    'male',
    HELLO('your local voice'),
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b05',
    'en-gb+f3',
    'Local English (UK), female',
    'en-GB',
    'female',
    HELLO('your local voice'),
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b06',
    'en-gb-x-rp+m2',
    'Local English (UK), male',
    'en-GB',
    'male',
    HELLO('your local voice'),
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b07',
    'hi+f3',
    'Local Hindi, female',
    'hi-IN',
    'female',
    'नमस्ते, मैं आपकी कैसे मदद कर सकती हूँ?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b08',
    'hi+m3',
    'Local Hindi, male',
    'hi-IN',
    'male',
    'नमस्ते, मैं आपकी कैसे मदद कर सकता हूँ?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b09',
    'mr+f3',
    'Local Marathi, female',
    'mr-IN',
    'female',
    'नमस्कार, मी तुम्हाला कशी मदत करू शकते?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b10',
    'mr+m3',
    'Local Marathi, male',
    'mr-IN',
    'male',
    'नमस्कार, मी तुम्हाला कशी मदत करू शकतो?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b11',
    'te+f3',
    'Local Telugu, female',
    'te-IN',
    'female',
    'నమస్కారం, నేను మీకు ఎలా సహాయం చేయగలను?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b12',
    'te+m3',
    'Local Telugu, male',
    'te-IN',
    'male',
    'నమస్కారం, నేను మీకు ఎలా సహాయం చేయగలను?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b13',
    'ta+f3',
    'Local Tamil, female',
    'ta-IN',
    'female',
    'வணக்கம், நான் உங்களுக்கு எப்படி உதவ முடியும்?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b14',
    'ta+m3',
    'Local Tamil, male',
    'ta-IN',
    'male',
    'வணக்கம், நான் உங்களுக்கு எப்படி உதவ முடியும்?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b15',
    'kn+f3',
    'Local Kannada, female',
    'kn-IN',
    'female',
    'ನಮಸ್ಕಾರ, ನಾನು ನಿಮಗೆ ಹೇಗೆ ಸಹಾಯ ಮಾಡಬಹುದು?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b16',
    'kn+m3',
    'Local Kannada, male',
    'kn-IN',
    'male',
    'ನಮಸ್ಕಾರ, ನಾನು ನಿಮಗೆ ಹೇಗೆ ಸಹಾಯ ಮಾಡಬಹುದು?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b17',
    'ml+f3',
    'Local Malayalam, female',
    'ml-IN',
    'female',
    'നമസ്കാരം, ഞാൻ നിങ്ങളെ എങ്ങനെ സഹായിക്കും?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b18',
    'ml+m3',
    'Local Malayalam, male',
    'ml-IN',
    'male',
    'നമസ്കാരം, ഞാൻ നിങ്ങളെ എങ്ങനെ സഹായിക്കും?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b19',
    'gu+f3',
    'Local Gujarati, female',
    'gu-IN',
    'female',
    'નમસ્તે, હું તમારી કેવી રીતે મદદ કરી શકું?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b20',
    'gu+m3',
    'Local Gujarati, male',
    'gu-IN',
    'male',
    'નમસ્તે, હું તમારી કેવી રીતે મદદ કરી શકું?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b21',
    'pa+f3',
    'Local Punjabi, female',
    'pa-IN',
    'female',
    'ਸਤ ਸ੍ਰੀ ਅਕਾਲ, ਮੈਂ ਤੁਹਾਡੀ ਕਿਵੇਂ ਮਦਦ ਕਰ ਸਕਦੀ ਹਾਂ?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b22',
    'pa+m3',
    'Local Punjabi, male',
    'pa-IN',
    'male',
    'ਸਤ ਸ੍ਰੀ ਅਕਾਲ, ਮੈਂ ਤੁਹਾਡੀ ਕਿਵੇਂ ਮਦਦ ਕਰ ਸਕਦਾ ਹਾਂ?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b23',
    'bn+f3',
    'Local Bengali, female',
    'bn-IN',
    'female',
    'নমস্কার, আমি আপনাকে কীভাবে সাহায্য করতে পারি?',
  ],
  [
    '6a0f3c1e-5b7d-4e2a-9c41-0d8e7f6a5b24',
    'bn+m3',
    'Local Bengali, male',
    'bn-IN',
    'male',
    'নমস্কার, আমি আপনাকে কীভাবে সাহায্য করতে পারি?',
  ],
];

export class LocalVoices1765700200000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    for (const [id, providerVoiceId, name, language, gender, preview] of LOCAL_VOICES) {
      // A deployment whose operator already added the same eSpeak NG voice keeps its own row.
      await q.query(
        `INSERT INTO agents.voices
           (id, display_name, description, provider, model_name, tier, provider_voice_id, language, gender, preview_text)
         VALUES ($1, $2, $3, 'local', 'espeak-ng', 'standard', $4, $5, $6, $7)
         ON CONFLICT DO NOTHING`,
        [
          id,
          name,
          'Spoken by local speech (eSpeak NG) on this deployment: no provider key needed',
          providerVoiceId,
          language,
          gender,
          preview,
        ],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    // Voices an agent still uses stay (agents keep their voice); the others go.
    await q.query(
      `DELETE FROM agents.voices v WHERE v.id = ANY($1::uuid[])
         AND NOT EXISTS (SELECT 1 FROM agents.agents a WHERE a.voice_id = v.id OR v.id = ANY(a.fallback_voice_ids))`,
      [LOCAL_VOICES.map((v) => v[0])],
    );
  }
}
