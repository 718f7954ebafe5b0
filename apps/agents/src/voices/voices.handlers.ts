import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AgentVoiceListDto,
  BackgroundAudioListDto,
  RpcRequest,
  Subjects,
  VoiceConfigurationListDto,
} from '@vap/contracts';
import { voiceTierOf } from '../common/caller';
import { VoicesService } from './voices.service';

@Controller()
export class VoicesHandlers {
  constructor(private readonly voices: VoicesService) {}

  @MessagePattern(Subjects.agents.voiceConfigurationList)
  voiceConfigurations(@Payload() req: RpcRequest): Promise<VoiceConfigurationListDto> {
    return this.voices.voiceConfigurations(voiceTierOf(req));
  }

  @MessagePattern(Subjects.agents.agentVoiceList)
  agentVoices(@Payload() req: RpcRequest): Promise<AgentVoiceListDto> {
    return this.voices.agentVoices(voiceTierOf(req));
  }

  @MessagePattern(Subjects.agents.backgroundAudioList)
  backgroundAudio(): Promise<BackgroundAudioListDto> {
    return this.voices.backgroundAudio();
  }
}
