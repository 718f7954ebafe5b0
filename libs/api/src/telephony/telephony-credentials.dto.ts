import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { E164_EXAMPLE, E164_PATTERN } from '../validation';

export const TELEPHONY_PROVIDERS = ['sandbox', 'carrier_a', 'carrier_b', 'reseller-link'] as const;
export type TelephonyProvider = (typeof TELEPHONY_PROVIDERS)[number];
/** Providers configured with credentials through PUT /config/telephony/<provider> (one connection each). */
export type CredentialProvider = 'carrier_a' | 'carrier_b';

export const CONNECTION_STATUSES = ['active', 'disabled'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

const required = (field: string) => ({ message: `${field} is required` });

function FromNumber() {
  return (target: object, key: string) => {
    ApiProperty({
      example: E164_EXAMPLE,
      description:
        'E.164 number provisioned for the account; becomes its default from-number on this carrier',
    })(target, key);
    IsDefined(required('from_number'))(target, key);
    IsString()(target, key);
    Matches(E164_PATTERN, { message: 'from_number must be an E.164 number such as +919876543210' })(
      target,
      key,
    );
  };
}

/** A required credential string of at most `maxLength` characters, documented with `docs`. */
function Credential(maxLength: number, docs: ApiPropertyOptions) {
  return (target: object, key: string) => {
    // Applied bottom-up, as the decorators would be if written out on the property.
    MaxLength(maxLength)(target, key);
    IsNotEmpty({ message: `${key} must not be empty` })(target, key);
    IsString()(target, key);
    IsDefined(required(key))(target, key);
    ApiProperty({ example: docs.example, maxLength, ...docs } as ApiPropertyOptions)(target, key);
  };
}

/** The carrier account's secret: write-only in the API. */
const AuthToken = () =>
  Credential(500, {
    example: 'your-auth-token',
    writeOnly: true,
    description: 'Stored encrypted; never returned',
  });

export class CarrierACredentialsDto {
  @Credential(200, { example: 'MAXXXXXXXXXXXXXXXXXX' })
  auth_id: string;

  @AuthToken()
  auth_token: string;

  @FromNumber()
  from_number: string;
}

export class CarrierBCredentialsDto {
  @Credential(200, { example: 'ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' })
  account_sid: string;

  @AuthToken()
  auth_token: string;

  @FromNumber()
  from_number: string;
}

export class CarrierACredentialsSavedDto {
  @ApiProperty({
    example: 'MAXX************XXXX',
    description: 'Masked: only the first and last characters are shown',
  })
  auth_id: string;

  @ApiProperty({ example: E164_EXAMPLE })
  from_number: string;

  @ApiProperty({ example: 'carrier_a credentials saved' })
  message: string;
}

export class CarrierBCredentialsSavedDto {
  @ApiProperty({
    example: 'ACXX****************************XXXX',
    description: 'Masked: only the first and last characters are shown',
  })
  account_sid: string;

  @ApiProperty({ example: E164_EXAMPLE })
  from_number: string;

  @ApiProperty({ example: 'carrier_b credentials saved' })
  message: string;
}

/** One carrier connection of the account as GET /config/telephony shows it: never a secret, ids masked. */
export class TelephonyConnectionDto {
  @ApiProperty({ format: 'uuid', description: 'connection_id, as calls and phone numbers reference it' })
  id: string;

  @ApiProperty({ enum: TELEPHONY_PROVIDERS })
  provider: TelephonyProvider;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'MAXX************XXXX',
    description: 'auth_id, account_sid or API key, masked; null for the sandbox',
  })
  account_id_masked: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: E164_EXAMPLE,
    description: 'Default from-number of the connection',
  })
  from_number: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'reseller-link only: the reseller API base URL' })
  api_base_url: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'reseller-link only: a label chosen by the operator',
  })
  label: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'carrier_a and carrier_b: set this as the voice/answer URL of your carrier numbers so inbound calls reach inbound routing',
  })
  inbound_webhook_url: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'carrier_a and carrier_b: set this as the message URL of your carrier numbers so SMS they receive reach ' +
      'the platform',
  })
  inbound_sms_url: string | null;

  @ApiProperty({ enum: CONNECTION_STATUSES })
  status: ConnectionStatus;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class TelephonyConnectionListDto {
  @ApiProperty({ type: [TelephonyConnectionDto] })
  connections: TelephonyConnectionDto[];
}
