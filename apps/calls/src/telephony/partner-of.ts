import { AppError, ErrorCode, RpcRequest } from '@vap/contracts';

/** The partner a telephony command acts for; every one of them is partner-scoped. */
export function partnerOf(req: RpcRequest): string {
  if (!req.partnerId) throw new AppError(ErrorCode.VALIDATION_ERROR, 'This command needs a partner');
  return req.partnerId;
}
