import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsObject,
  IsString,
  Length,
  Matches,
  ValidateBy,
  ValidationArguments,
} from 'class-validator';
import {
  MAX_KEYTERM_CHARS,
  MAX_TRANSCRIBER_KEYTERMS,
  SPOKEN_LANGUAGES,
  SpokenLanguage,
  STT_PROVIDERS,
  SttProviderName,
  TRANSCRIBER_OPTIONS,
  TranscriberSettings,
} from '@vap/messages';
import { IfPresent } from '../validation';

export const TRANSCRIBER_MODEL_MAX = 64;

/** The options each provider takes, as the field's description lists them. */
const OPTIONS_DOC = Object.entries(TRANSCRIBER_OPTIONS)
  .map(([provider, options]) => {
    const list = Object.entries(options ?? {}).map(([name, rule]) =>
      rule.type === 'boolean' ? `${name} (boolean)` : `${name} (${rule.min}..${rule.max})`,
    );
    return `${provider}: ${list.join(', ')}`;
  })
  .join('; ');

/**
 * What is wrong with a transcriber's options for its provider, or null: only the provider's documented
 * options (TRANSCRIBER_OPTIONS), each of its type and within its bounds. The message names the option.
 */
export function transcriberOptionsProblem(provider: unknown, options: unknown): string | null {
  if (options === undefined) return null;
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    return 'options must be an object';
  const allowed = typeof provider === 'string' ? TRANSCRIBER_OPTIONS[provider as SttProviderName] : undefined;
  // Each message starts with the property's name, so the validation pipe names the whole path
  // (transcriber.options ..., fallback_transcriber.options ...).
  for (const [name, value] of Object.entries(options)) {
    const rule = allowed?.[name];
    if (!rule) {
      const known = Object.keys(allowed ?? {});
      return known.length
        ? `options may not hold ${name}: it is not an option of ${String(provider)} (its options: ${known.join(', ')})`
        : `options may not hold ${name}: ${String(provider)} takes no options`;
    }
    if (rule.type === 'boolean' && typeof value !== 'boolean')
      return `options must hold ${name} as a boolean`;
    if (rule.type === 'number') {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < rule.min || value > rule.max)
        return `options must hold ${name} as a number from ${rule.min} to ${rule.max}`;
    }
  }
  return null;
}

function IsTranscriberOptions() {
  return ValidateBy({
    name: 'isTranscriberOptions',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        transcriberOptionsProblem((args?.object as { provider?: unknown })?.provider, value) === null,
      defaultMessage: (args?: ValidationArguments) =>
        transcriberOptionsProblem((args?.object as { provider?: unknown })?.provider, args?.value) ??
        'options is invalid',
    },
  });
}

/** Every keyterm a non-blank string of at most MAX_KEYTERM_CHARS characters. */
function AreKeyterms() {
  const problem = (value: unknown): string | null => {
    if (!Array.isArray(value)) return null;
    const at = value.findIndex(
      (t) => typeof t !== 'string' || t.trim() === '' || t.trim().length > MAX_KEYTERM_CHARS,
    );
    return at < 0
      ? null
      : `keyterms[${at}] must be a non-blank text of at most ${MAX_KEYTERM_CHARS} characters`;
  };
  return ValidateBy({
    name: 'areKeyterms',
    validator: {
      validate: (value: unknown) => problem(value) === null,
      defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? 'keyterms is invalid',
    },
  });
}

const PROVIDER_DOC = {
  enum: STT_PROVIDERS,
  description:
    'The speech-to-text provider (needs a key of the account or of the platform, else the deployment default serves)',
} as const;
const MODEL_DOC = {
  maxLength: TRANSCRIBER_MODEL_MAX,
  example: 'nova-3',
  description: "The provider's model; omitted = the provider's default",
} as const;
const LANGUAGES_DOC: ApiPropertyOptions = {
  type: [String],
  enum: SPOKEN_LANGUAGES,
  maxItems: 2,
  description: "Languages to recognise, among the agent's spoken_languages; omitted = all of them",
};
const KEYTERMS_DOC: ApiPropertyOptions = {
  type: [String],
  maxItems: MAX_TRANSCRIBER_KEYTERMS,
  description: `Words to boost (names, products): at most ${MAX_TRANSCRIBER_KEYTERMS}, each at most ${MAX_KEYTERM_CHARS} characters`,
};
const OPTIONS_DESCRIPTION = `Provider options within their bounds, only the provider's own: ${OPTIONS_DOC}`;

/** A transcriber as a request gives it: replaced whole on update. */
export class TranscriberInputDto {
  @ApiProperty(PROVIDER_DOC)
  @IsDefined({ message: 'provider is required' })
  @IsIn(STT_PROVIDERS as unknown as string[], {
    message: `provider must be one of ${STT_PROVIDERS.join(', ')}`,
  })
  provider: SttProviderName;

  @ApiPropertyOptional(MODEL_DOC)
  @IfPresent()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._:\-/]*$/, {
    message: 'model must be a model name (letters, digits, . _ : - /)',
  })
  @Length(1, TRANSCRIBER_MODEL_MAX, { message: `model must be 1 to ${TRANSCRIBER_MODEL_MAX} characters` })
  @IsString({ message: 'model must be a string' })
  model?: string;

  @ApiPropertyOptional(LANGUAGES_DOC)
  @IfPresent()
  @IsIn(SPOKEN_LANGUAGES as unknown as string[], {
    each: true,
    message: `languages must hold spoken_languages codes (${SPOKEN_LANGUAGES.join(', ')})`,
  })
  @ArrayMaxSize(2, { message: 'languages takes at most 2 languages' })
  @IsArray({ message: 'languages must be an array of language codes' })
  languages?: SpokenLanguage[];

  @ApiPropertyOptional(KEYTERMS_DOC)
  @IfPresent()
  @AreKeyterms()
  @ArrayMaxSize(MAX_TRANSCRIBER_KEYTERMS, {
    message: `keyterms takes at most ${MAX_TRANSCRIBER_KEYTERMS} terms`,
  })
  @IsArray({ message: 'keyterms must be an array of texts' })
  keyterms?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'boolean' }, { type: 'number' }] },
    description: OPTIONS_DESCRIPTION,
    example: { smart_format: true, endpointing_ms: 300 },
  })
  @IfPresent()
  @IsTranscriberOptions()
  @IsObject({ message: 'options must be an object' })
  options?: Record<string, string | number | boolean>;
}

/** A transcriber as the agent's record answers it. */
export class TranscriberDto implements TranscriberSettings {
  @ApiProperty(PROVIDER_DOC)
  provider: SttProviderName;

  @ApiPropertyOptional(MODEL_DOC)
  model?: string;

  @ApiPropertyOptional(LANGUAGES_DOC)
  languages?: SpokenLanguage[];

  @ApiPropertyOptional(KEYTERMS_DOC)
  keyterms?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'boolean' }, { type: 'number' }, { type: 'string' }] },
    description: OPTIONS_DESCRIPTION,
  })
  options?: Record<string, string | number | boolean>;
}

/** The stored form: keyterms trimmed and deduplicated (case-insensitively), empty lists dropped. */
export function normalizeTranscriber(input: TranscriberInputDto | null): TranscriberSettings | null {
  if (input === null) return null;
  const out: TranscriberSettings = { provider: input.provider };
  if (input.model !== undefined) out.model = input.model;
  if (input.languages?.length) out.languages = [...new Set(input.languages)];
  if (input.keyterms?.length) {
    const seen = new Set<string>();
    out.keyterms = input.keyterms
      .map((t) => t.trim())
      .filter((t) => !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
  }
  if (input.options && Object.keys(input.options).length) out.options = { ...input.options };
  return out;
}
