import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { VoiceConfigurationListDto } from '@vap/api';
import { Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiPartnerRoute } from '../http/openapi.decorators';

@ApiTags('Voices')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/voice-configurations`)
export class VoiceConfigurationsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    summary: 'Voice configurations the account is entitled to',
    description:
      'Tiers rank standard < premium < enterprise; the list holds the voices of the account’s tier and of the tiers ' +
      'below it, so a higher tier also sees its tier-exclusive voices. Each id is `vc_` + a UUID; that UUID is the ' +
      'voice_id an agent takes.',
  })
  @ApiEnvelope(VoiceConfigurationListDto)
  list(@CurrentPartner() auth: AuthContext): Promise<VoiceConfigurationListDto> {
    return this.rpc.request(Subjects.agents.voiceConfigurationList, auth.partner, {});
  }
}
