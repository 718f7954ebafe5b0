import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CatalogVoiceLimits, VoiceConfigurationListDto } from '@vap/api';
import { ErrorCode, Subjects, VOICE_PREVIEW_MAX_SECONDS, VoiceConfigurationId } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

/** The agents service synthesises a first preview within 15 s; the gateway waits a little longer. */
const PREVIEW_TIMEOUT_MS = 20_000;

export const PREVIEW_ENGINE_HEADER = 'X-Voice-Preview-Engine';

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

  @Get(':id/preview')
  @ApiOperation({
    summary: 'Hear a voice: its preview_text spoken, as a WAV file',
    description:
      'audio/wav, 16-bit PCM mono at 8 kHz (the telephone rate the platform speaks at), at most ' +
      `${VOICE_PREVIEW_MAX_SECONDS} s (preview_text is at most ${CatalogVoiceLimits.previewTextMax} characters). ` +
      'Spoken by the voice’s provider with the account’s own key, else the platform’s; when neither exists and ' +
      'the deployment allows it, by local speech (eSpeak NG, in the voice’s language) standing in for it, or ' +
      'the offline development engine where eSpeak NG is not installed. The ' +
      `${PREVIEW_ENGINE_HEADER} header says which: \`provider\`, \`local\` or \`offline\`. ` +
      'Synthesised once per voice version ' +
      'and kept, so repeated requests answer the same bytes at once. Only voices the account’s catalog lists ' +
      '(active, of its tier or below) can be heard: any other id is 404 NOT_FOUND. A voice whose provider the ' +
      'account has no key for, with no stand-in allowed, is 409 INVALID_STATE; a provider that fails is 502.',
  })
  @ApiParam({
    name: 'id',
    description: 'A voice configuration id: `vc_` + the voice_id',
    example: 'vc_5b1e3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
  })
  @ApiResponse({
    status: 200,
    description: `The voice saying its preview_text. Header ${PREVIEW_ENGINE_HEADER}: provider | local | offline`,
    content: { 'audio/wav': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE)
  async preview(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Voice configuration', VoiceConfigurationId)) id: string,
    @Res() res: Response,
  ): Promise<void> {
    const preview = await this.rpc.request(
      Subjects.agents.voicePreview,
      auth.partner,
      { id: VoiceConfigurationId.parse(id) ?? id },
      { timeoutMs: PREVIEW_TIMEOUT_MS },
    );
    const wav = Buffer.from(preview.wavBase64, 'base64');
    res.status(200);
    res.setHeader('Content-Type', 'audio/wav');
    res.setHeader('Content-Length', String(wav.length));
    res.setHeader('Cache-Control', 'private, max-age=3600');
    res.setHeader('Last-Modified', new Date(preview.version).toUTCString());
    res.setHeader(PREVIEW_ENGINE_HEADER, preview.engine);
    res.end(wav);
  }
}
