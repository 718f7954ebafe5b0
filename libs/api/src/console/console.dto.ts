import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  MaxLength,
} from 'class-validator';
import { API_KEY_SCOPES } from '@vap/messages';

/**
 * Roles of a console user, most powerful first. What each may do (docs/console.md):
 * - owner: everything, including inviting and removing users of any role;
 * - admin: everything but making, changing or removing owners;
 * - developer: reads and changes the account's resources through the console, but not keys or the team;
 * - viewer: reads only.
 */
export const CONSOLE_ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

export const CONSOLE_PASSWORD_MIN = 12;
export const CONSOLE_PASSWORD_MAX = 128;

export class InviteConsoleUserDto {
  @ApiProperty({ example: 'asha@acme.example', maxLength: 254 })
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  email: string;

  @ApiProperty({ example: 'Asha Rao', minLength: 1, maxLength: 100 })
  @IsString({ message: 'name must be a string' })
  @Length(1, 100, { message: 'name must be 1 to 100 characters' })
  name: string;

  @ApiProperty({ enum: CONSOLE_ROLES })
  @IsIn(CONSOLE_ROLES, { message: `role must be one of ${CONSOLE_ROLES.join(', ')}` })
  role: ConsoleRole;
}

export class UpdateConsoleUserDto {
  @ApiProperty({ enum: CONSOLE_ROLES })
  @IsIn(CONSOLE_ROLES, { message: `role must be one of ${CONSOLE_ROLES.join(', ')}` })
  role: ConsoleRole;
}

export class ConsoleSignInDto {
  @ApiProperty({ maxLength: 254 })
  @IsString({ message: 'email must be a string' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  email: string;

  @ApiProperty({ maxLength: CONSOLE_PASSWORD_MAX })
  @IsString({ message: 'password must be a string' })
  @MaxLength(CONSOLE_PASSWORD_MAX, { message: `password must be at most ${CONSOLE_PASSWORD_MAX} characters` })
  password: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'The account to sign in to, when the email and password are those of users of several accounts (the ' +
      'answer then lists them, to choose from)',
  })
  @IsOptional()
  @IsUUID(undefined, { message: 'account_id must be an account id (UUID)' })
  account_id?: string;
}

export class ConsoleSetPasswordDto {
  @ApiProperty({ minLength: CONSOLE_PASSWORD_MIN, maxLength: CONSOLE_PASSWORD_MAX })
  @IsString({ message: 'password must be a string' })
  @Length(CONSOLE_PASSWORD_MIN, CONSOLE_PASSWORD_MAX, {
    message: `password must be ${CONSOLE_PASSWORD_MIN} to ${CONSOLE_PASSWORD_MAX} characters`,
  })
  password: string;
}

export class ConsoleUserDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  email: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: CONSOLE_ROLES })
  role: ConsoleRole;

  @ApiProperty({ enum: ['invited', 'active'], description: 'invited until the user has set a password' })
  status: 'invited' | 'active';

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  last_sign_in_at: string | null;
}

export class ConsoleUserListDto {
  @ApiProperty({ type: [ConsoleUserDto], description: 'Oldest first' })
  users: ConsoleUserDto[];
}

export class ConsoleInvitationDto {
  @ApiProperty({ type: ConsoleUserDto })
  user: ConsoleUserDto;

  @ApiProperty({
    description:
      'One-time link to pass on (no email is sent): the user opens it to set a password. Shown once.',
    example: 'https://api.example.com/console/invitations/cinv_...',
  })
  invitation_url: string;

  @ApiProperty({ format: 'date-time' })
  expires_at: string;
}

export class ConsolePasswordResetDto {
  @ApiProperty({
    description: 'One-time link to pass on: the user opens it to choose a new password. Shown once.',
  })
  reset_url: string;

  @ApiProperty({ format: 'date-time' })
  expires_at: string;
}

export class ConsoleAccountDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;
}

/** The signed-in account. */
export class ConsoleSessionAccountDto extends ConsoleAccountDto {
  @ApiProperty({ description: 'The account is a reseller: it manages client accounts (/clients)' })
  reseller: boolean;
}

export class ConsoleSessionDto {
  @ApiProperty({ type: ConsoleUserDto })
  user: ConsoleUserDto;

  @ApiProperty({ type: ConsoleSessionAccountDto })
  account: ConsoleSessionAccountDto;

  @ApiProperty({
    description: 'Send it as X-CSRF-Token on every request of this session that changes something',
  })
  csrf_token: string;
}

/**
 * The answer to a sign-in whose email and password are those of users of several accounts: no session yet; the
 * client signs in again with one's account_id. Only the accounts whose user has this password are named.
 */
export class ConsoleAccountChoiceDto {
  @ApiProperty({ type: [ConsoleAccountDto], description: 'By name' })
  accounts: ConsoleAccountDto[];
}

export class ConsoleLinkInfoDto {
  @ApiProperty()
  email: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: CONSOLE_ROLES })
  role: ConsoleRole;

  @ApiProperty({ type: ConsoleAccountDto })
  account: ConsoleAccountDto;

  @ApiProperty({ format: 'date-time' })
  expires_at: string;
}

export class ConsoleKeyIssuerDto {
  @ApiProperty({
    enum: ['operator', 'user', 'unknown'],
    description:
      "operator: the platform's operator made it (the account's first key, named 'default', is made when the " +
      'account is opened); user: a console user of the account; unknown: made before this was recorded',
  })
  kind: 'operator' | 'user' | 'unknown';

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The user's name (kind user, while they are a user)",
  })
  name: string | null;
}

export class ConsoleKeyDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: ConsoleKeyIssuerDto, description: 'Who made the key' })
  created_by: ConsoleKeyIssuerDto;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;

  @ApiProperty({ description: 'The first characters of the key, to recognise it by' })
  prefix: string;

  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'The scopes the key was given; null: full access',
  })
  scopes: string[] | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  last_used_at: string | null;
}

export class ConsoleKeyListDto {
  @ApiProperty({ type: [ConsoleKeyDto], description: 'Keys not revoked, oldest first' })
  keys: ConsoleKeyDto[];
}

export class CreateConsoleKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString({ message: 'name must be a string' })
  @Length(1, 100, { message: 'name must be 1 to 100 characters' })
  name: string;

  @ApiPropertyOptional({
    type: [String],
    enum: API_KEY_SCOPES,
    minItems: 1,
    maxItems: API_KEY_SCOPES.length,
    description: 'What the key may do (GET /console/api/keys/scopes lists them). Omitted: full access.',
  })
  @IsOptional()
  @IsArray({ message: 'scopes must be an array' })
  @ArrayMinSize(1, { message: 'scopes must name at least one scope; omit it for full access' })
  @ArrayMaxSize(API_KEY_SCOPES.length)
  @IsIn(API_KEY_SCOPES, { each: true, message: `each scope must be one of: ${API_KEY_SCOPES.join(', ')}` })
  scopes?: string[];
}

export class ConsoleScopeDto {
  @ApiProperty({ example: 'calls:write' })
  name: string;

  @ApiProperty()
  description: string;
}

export class ConsoleScopeListDto {
  @ApiProperty({ type: [ConsoleScopeDto] })
  scopes: ConsoleScopeDto[];
}

export class CreatedConsoleKeyDto {
  @ApiProperty({ description: 'The key itself, shown only now', example: 'rg_live_...' })
  api_key: string;

  @ApiProperty({ type: ConsoleKeyDto })
  key: ConsoleKeyDto;
}

export class ConsoleSignedOutDto {
  @ApiProperty({ enum: [true] })
  signed_out: true;
}
