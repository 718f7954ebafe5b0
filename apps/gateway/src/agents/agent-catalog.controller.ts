import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AgentVoiceListDto, BackgroundAudioListDto } from '@vap/api';
import { Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiPartnerRoute } from '../http/openapi.decorators';

/** What an agent can be given: voices and background audio. Registered before `/agent/:id`. */
@ApiTags('Voices')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/agent`)
export class AgentCatalogController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('voices')
  @ApiOperation({
    summary: 'Voices an agent can use (the older agent voice list)',
    description:
      'The catalog voices of the account’s tier and the tiers below it. voice_id is what an agent takes.',
  })
  @ApiEnvelope(AgentVoiceListDto)
  voices(@CurrentPartner() auth: AuthContext): Promise<AgentVoiceListDto> {
    return this.rpc.request(Subjects.agents.agentVoiceList, auth.partner, {});
  }

  @Get('background-audio')
  @ApiOperation({ summary: 'Background audio an agent can play under its voice (background_audio_id)' })
  @ApiEnvelope(BackgroundAudioListDto)
  backgroundAudio(@CurrentPartner() auth: AuthContext): Promise<BackgroundAudioListDto> {
    return this.rpc.request(Subjects.agents.backgroundAudioList, auth.partner, {});
  }
}
