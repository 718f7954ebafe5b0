import { IsIn, IsOptional, Length, Matches, ValidateIf } from 'class-validator';
import { BoolSetting, IntSetting } from '@vap/runtime';

const httpUrl = /^https?:\/\/[^\s/]+(\/[^\s]*)?$/;
/** A comma list of voice tiers (`premium,enterprise`). */
const tierList = /^\s*(standard|premium|enterprise)\s*(,\s*(standard|premium|enterprise)\s*)*$/;
const TIERS_MESSAGE = (name: string) =>
  `${name} must be a comma-separated list of standard, premium and enterprise`;
const URL_MESSAGE = (name: string) => `${name} must be an http(s) URL`;
/** Provider keys are opaque tokens; bounded so a pasted file is refused at boot. */
const KEY_MESSAGE = (name: string) => `${name} must be 8 to 512 characters`;

/**
 * The platform's own speech provider keys (agents service): a key the platform pays for serves accounts whose
 * tier the provider's TIERS list names, when the account has no key of its own for that provider
 * (POST /provider-credentials). BASE_URL points a provider at another host (a test's fake, a proxy); unset, the
 * provider's public API. Keys are never logged; a refused value is named, never shown.
 */
export class SpeechConfig {
  /** The platform's OpenAI key (speech: gpt-4o-mini-tts voices, gpt-4o-transcribe); unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('SPEECH_OPENAI_API_KEY') })
  SPEECH_OPENAI_API_KEY?: string;

  /**
   * OpenAI's API base, for the platform's and the partners' keys alike.
   * @default the provider's public API (https://api.openai.com/v1)
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('SPEECH_OPENAI_BASE_URL') })
  SPEECH_OPENAI_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's OpenAI key (comma list of standard, premium, enterprise).
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('SPEECH_OPENAI_TIERS') })
  SPEECH_OPENAI_TIERS?: string;

  /** The platform's ElevenLabs key; unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('SPEECH_ELEVENLABS_API_KEY') })
  SPEECH_ELEVENLABS_API_KEY?: string;

  /**
   * ElevenLabs' API base, for the platform's and the partners' keys alike.
   * @default the provider's public API
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('SPEECH_ELEVENLABS_BASE_URL') })
  SPEECH_ELEVENLABS_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's ElevenLabs key.
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('SPEECH_ELEVENLABS_TIERS') })
  SPEECH_ELEVENLABS_TIERS?: string;

  /** The platform's Cartesia key; unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('SPEECH_CARTESIA_API_KEY') })
  SPEECH_CARTESIA_API_KEY?: string;

  /**
   * Cartesia's API base, for the platform's and the partners' keys alike.
   * @default the provider's public API
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('SPEECH_CARTESIA_BASE_URL') })
  SPEECH_CARTESIA_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's Cartesia key.
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('SPEECH_CARTESIA_TIERS') })
  SPEECH_CARTESIA_TIERS?: string;

  /** The platform's Deepgram key (Aura voices, live recognition); unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('SPEECH_DEEPGRAM_API_KEY') })
  SPEECH_DEEPGRAM_API_KEY?: string;

  /**
   * Deepgram's API base, for the platform's and the partners' keys alike.
   * @default the provider's public API
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('SPEECH_DEEPGRAM_BASE_URL') })
  SPEECH_DEEPGRAM_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's Deepgram key.
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('SPEECH_DEEPGRAM_TIERS') })
  SPEECH_DEEPGRAM_TIERS?: string;

  /** The platform's Azure Speech key (its region in SPEECH_AZURE_REGION); unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('SPEECH_AZURE_API_KEY') })
  SPEECH_AZURE_API_KEY?: string;

  /**
   * Azure Speech's API base; `{region}` in it becomes the key's region (the platform's, or the one a partner's
   * key names).
   * @default https://{region}.tts.speech.microsoft.com
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('SPEECH_AZURE_BASE_URL') })
  SPEECH_AZURE_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's Azure Speech key.
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('SPEECH_AZURE_TIERS') })
  SPEECH_AZURE_TIERS?: string;

  /** The region of the platform's Azure Speech key (centralindia, eastus...); required with that key. */
  @ValidateIf((config: SpeechConfig) => config.SPEECH_AZURE_API_KEY !== undefined)
  @Matches(/^[a-z][a-z0-9]{1,39}$/, {
    message:
      'SPEECH_AZURE_REGION must be an Azure region name (e.g. centralindia) when SPEECH_AZURE_API_KEY is set',
  })
  SPEECH_AZURE_REGION?: string;

  /** The platform's Sarvam key (Indian-language voices and recognition); unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('SPEECH_SARVAM_API_KEY') })
  SPEECH_SARVAM_API_KEY?: string;

  /**
   * Sarvam's API base, for the platform's and the partners' keys alike.
   * @default the provider's public API
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('SPEECH_SARVAM_BASE_URL') })
  SPEECH_SARVAM_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's Sarvam key.
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('SPEECH_SARVAM_TIERS') })
  SPEECH_SARVAM_TIERS?: string;

  /** The platform's AssemblyAI key (streaming recognition); unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('SPEECH_ASSEMBLYAI_API_KEY') })
  SPEECH_ASSEMBLYAI_API_KEY?: string;

  /**
   * AssemblyAI's REST API base (its streaming host is derived from it), for the platform's and the partners' keys.
   * @default the provider's public API
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('SPEECH_ASSEMBLYAI_BASE_URL') })
  SPEECH_ASSEMBLYAI_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's AssemblyAI key.
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('SPEECH_ASSEMBLYAI_TIERS') })
  SPEECH_ASSEMBLYAI_TIERS?: string;

  /**
   * A catalog voice whose provider has no key (the account's or the platform's) is still offered, marked
   * `development_stand_in`, and calls speak it with the voice service's default speech: local speech (eSpeak NG,
   * in the voice's language) in development, the offline engine where that is not installed. Never meant for
   * production.
   * @default true, except with NODE_ENV=production
   */
  @IsOptional()
  @BoolSetting()
  SPEECH_OFFLINE_STAND_IN?: boolean;

  /**
   * What speaks a stand-in voice's preview (GET /voice-configurations/{id}/preview), as the voice service's
   * TTS_PROVIDER speaks its calls: local (eSpeak NG in the voice's language; the offline engine where espeak-ng is
   * not installed) or offline (the signal engine, for tests that read the words back).
   */
  @IsIn(['local', 'offline'], { message: 'SPEECH_STAND_IN must be local or offline' })
  SPEECH_STAND_IN: string = 'local';

  /** Deadline of the live check of a partner's key (POST and PUT /provider-credentials). */
  @IntSetting({ min: 500, max: 20_000 })
  SPEECH_KEY_CHECK_TIMEOUT_MS: number = 5000;
}
