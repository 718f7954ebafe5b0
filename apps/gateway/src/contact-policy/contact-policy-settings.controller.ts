import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ContactPolicySettingsDto, UpdateContactPolicySettingsDto } from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';

/** The account's calling window and frequency caps. */
@ApiTags('Contact policy')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/contact-policy/settings`)
export class ContactPolicySettingsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    summary: "Read the account's calling window and frequency caps",
    description: 'An account that never set them has no window (null) and no caps (null).',
  })
  @ApiEnvelope(ContactPolicySettingsDto)
  get(@CurrentPartner() auth: AuthContext): Promise<ContactPolicySettingsDto> {
    return this.rpc.request(Subjects.calls.contactPolicySettingsGet, auth.partner, {});
  }

  @Patch()
  @ApiOperation({
    summary: "Change the account's calling window and frequency caps",
    description:
      'Fields left out keep their value; null clears the window or a cap. The calling window is judged in the ' +
      "callee's local time: the zone of the number's range when the number fixes one (every zone it may be in keeps " +
      "the same clock), else the campaign contact's timezone, else the window's timezone. Campaign dials use the " +
      "campaign's calling_window when it has one, else this one; POST /calls/start uses this one only when " +
      'windows_apply_to_single_calls is true. A dial outside the window is refused with OUTSIDE_CALLING_WINDOW ' +
      '(a campaign contact waits until it opens). The caps count the calls placed to one number across all campaigns ' +
      "and single calls: per day is the callee's local calendar day, per 7 days any 7 x 24 hours; a dial over a cap " +
      'is refused with FREQUENCY_CAP_REACHED (a campaign contact waits until retry_at).',
  })
  @ApiEnvelope(ContactPolicySettingsDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  update(
    @CurrentPartner() auth: AuthContext,
    @Body() body: UpdateContactPolicySettingsDto,
  ): Promise<ContactPolicySettingsDto> {
    return this.rpc.request(Subjects.calls.contactPolicySettingsUpdate, auth.partner, body);
  }
}
