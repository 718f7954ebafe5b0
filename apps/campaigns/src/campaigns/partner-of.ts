import { AppError, ErrorCode, PartnerContext, RpcRequest } from '@vap/contracts';

/** Every campaign command acts for a partner. */
export function partnerIdOf(req: RpcRequest): string {
  if (!req.partnerId) throw new AppError(ErrorCode.VALIDATION_ERROR, 'This command needs a partner');
  return req.partnerId;
}

/** Start and resume need the partner's snapshot (balance, limits): the dispatcher dials with it. */
export function partnerOf(req: RpcRequest): PartnerContext {
  if (!req.partner || req.partner.id !== req.partnerId) {
    throw new AppError(ErrorCode.VALIDATION_ERROR, 'This command needs the partner context');
  }
  return req.partner;
}
