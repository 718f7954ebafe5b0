import { AppError, ErrorCode, RpcRequest } from '@vap/contracts';

/** The partner a command acts for. Every agents command is partner-scoped. */
export function partnerOf(req: RpcRequest): string {
  if (!req.partnerId) throw new AppError(ErrorCode.VALIDATION_ERROR, 'This command needs a partner');
  return req.partnerId;
}

/** The caller's voice tier; a command without partner context gets the base tier, never more. */
export function voiceTierOf(req: RpcRequest): string {
  return req.partner?.voiceTier ?? 'standard';
}
