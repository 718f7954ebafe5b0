import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
} from 'class-validator';
import { ErrorDetail } from '@vap/messages';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Local calling hours required by regulation: India's telemarketing hours, the US TCPA's 8:00 to 21:00. */
export const CALLING_WINDOW_PRESETS = {
  IN: { days: [...WEEKDAYS], start: '09:00', end: '21:00', timezone: 'Asia/Kolkata' },
  US: { days: [...WEEKDAYS], start: '08:00', end: '21:00', timezone: 'America/New_York' },
} as const satisfies Record<string, Omit<CallingWindow, 'preset'>>;
export type CallingWindowPreset = keyof typeof CALLING_WINDOW_PRESETS;
export const CALLING_WINDOW_PRESET_NAMES = Object.keys(CALLING_WINDOW_PRESETS) as CallingWindowPreset[];

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const HH_MM_OR_MIDNIGHT = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** A calling window as stored and applied: every field resolved (a preset's values filled in). */
export interface CallingWindow {
  preset: CallingWindowPreset | null;
  days: Weekday[];
  /** Local HH:MM the window opens, inclusive. */
  start: string;
  /** Local HH:MM the window closes, exclusive; 24:00 is the end of the day. */
  end: string;
  /** The zone used when neither the number nor the contact says where the callee is. */
  timezone: string;
}

/** A calling window as a partner writes it: a preset, explicit hours, or a preset with some fields changed. */
export class CallingWindowDto {
  @ApiPropertyOptional({
    enum: CALLING_WINDOW_PRESET_NAMES,
    description:
      'IN: every day 09:00-21:00, default zone Asia/Kolkata. US: every day 08:00-21:00, default zone America/New_York. Fields given beside a preset replace its values.',
  })
  @IsOptional()
  @IsIn(CALLING_WINDOW_PRESET_NAMES, {
    message: `preset must be one of ${CALLING_WINDOW_PRESET_NAMES.join(', ')}`,
  })
  preset?: CallingWindowPreset | null;

  @ApiPropertyOptional({
    enum: WEEKDAYS,
    isArray: true,
    example: ['mon', 'tue', 'wed', 'thu', 'fri'],
    description: "Days the window opens, in the callee's local calendar. Default: every day",
  })
  @IsOptional()
  @IsArray({ message: 'days must be an array of weekdays' })
  @ArrayMinSize(1, { message: 'days must name at least one day' })
  @ArrayMaxSize(7, { message: 'days names each weekday at most once' })
  @ArrayUnique({ message: 'days must not repeat a day' })
  @IsIn(WEEKDAYS, { each: true, message: `days must hold ${WEEKDAYS.join(', ')}` })
  days?: Weekday[];

  @ApiPropertyOptional({ example: '09:00', description: 'Local time the window opens (HH:MM, inclusive)' })
  @IsOptional()
  @IsString({ message: 'start must be a time HH:MM' })
  @Matches(HH_MM, { message: 'start must be a time HH:MM (00:00..23:59)' })
  start?: string;

  @ApiPropertyOptional({
    example: '21:00',
    description: 'Local time the window closes (HH:MM, exclusive; 24:00 for the end of the day); after start',
  })
  @IsOptional()
  @IsString({ message: 'end must be a time HH:MM' })
  @Matches(HH_MM_OR_MIDNIGHT, { message: 'end must be a time HH:MM (00:01..24:00)' })
  end?: string;

  @ApiPropertyOptional({
    example: 'Asia/Kolkata',
    description:
      "IANA time zone used when the callee's zone is not known from the number (one zone for the number's range) or the contact's timezone",
  })
  @IsOptional()
  @IsString({ message: 'timezone must be an IANA time zone such as Asia/Kolkata' })
  timezone?: string;
}

export const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

/** True for a zone name the runtime knows (IANA, e.g. Asia/Kolkata). */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves a written window (field-validated by CallingWindowDto) into the stored form, or the problems with
 * it, each under `field` (e.g. `calling_window`).
 */
export function resolveCallingWindow(
  input: CallingWindowDto,
  field: string,
): { window: CallingWindow } | { problems: ErrorDetail[] } {
  const preset = input.preset ? CALLING_WINDOW_PRESETS[input.preset] : null;
  const window: Partial<CallingWindow> = {
    preset: input.preset ?? null,
    days: input.days ? WEEKDAYS.filter((d) => input.days!.includes(d)) : [...(preset?.days ?? WEEKDAYS)],
    start: input.start ?? preset?.start,
    end: input.end ?? preset?.end,
    timezone: input.timezone ?? preset?.timezone,
  };
  const problems: ErrorDetail[] = [];
  for (const key of ['start', 'end', 'timezone'] as const) {
    if (window[key] === undefined) {
      problems.push({ field: `${field}.${key}`, message: `${field}.${key} is required without a preset` });
    }
  }
  if (window.timezone !== undefined && !isTimeZone(window.timezone)) {
    problems.push({
      field: `${field}.timezone`,
      message: `${field}.timezone must be an IANA time zone such as Asia/Kolkata`,
    });
  }
  if (window.start && window.end && minutesOf(window.end) <= minutesOf(window.start)) {
    problems.push({ field: `${field}.end`, message: `${field}.end must be after ${field}.start` });
  }
  return problems.length ? { problems } : { window: window as CallingWindow };
}

/** The stored window as partners read it. */
export class CallingWindowViewDto {
  @ApiProperty({ enum: CALLING_WINDOW_PRESET_NAMES, nullable: true })
  preset: CallingWindowPreset | null;

  @ApiProperty({ enum: WEEKDAYS, isArray: true })
  days: Weekday[];

  @ApiProperty({ example: '09:00' })
  start: string;

  @ApiProperty({ example: '21:00' })
  end: string;

  @ApiProperty({ example: 'Asia/Kolkata' })
  timezone: string;
}
