import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, IsUrl, IsUUID, MaxLength, MinLength } from 'class-validator';

export class ResellerCallRoutingQueryDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Required only when the account has more than one active reseller-link connection',
  })
  @IsOptional()
  @IsUUID('all', { message: 'connection_id must be a UUID' })
  connection_id?: string;
}

export class ResellerCallRoutingRecordDto {
  @ApiProperty({ type: 'integer' })
  id: number;

  @ApiProperty({ type: 'integer' })
  did_id: number;

  @ApiProperty()
  did_number: string;

  @ApiProperty({ type: 'integer' })
  for_inbound_call: number;

  @ApiProperty({ type: 'integer' })
  for_outbound_call: number;

  @ApiProperty({ type: 'integer' })
  outbound_websocket_bot_id: number;

  @ApiProperty({ type: 'integer' })
  status: number;
}

export class ResellerCallRoutingDto {
  @ApiProperty({ type: [ResellerCallRoutingRecordDto] })
  data: ResellerCallRoutingRecordDto[];
}

/** Operator API: a reseller-link connection of a partner (several may exist). */
export class CreateResellerLinkConnectionDto {
  @ApiProperty({
    example: 'https://reseller.example/api',
    description: 'Base URL of the reseller’s REST API',
  })
  @IsUrl(
    { protocols: ['https', 'http'], require_protocol: true, require_tld: false },
    { message: 'api_base_url must be an http(s) URL' },
  )
  @MaxLength(2000)
  api_base_url: string;

  @ApiProperty({ writeOnly: true, description: 'Stored encrypted; never returned' })
  @IsDefined({ message: 'api_key is required' })
  @IsString()
  @MinLength(1, { message: 'api_key is required' })
  @MaxLength(500)
  api_key: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  label?: string;
}
