import { AppError, RpcRequest } from '@vap/contracts';

/** Partner commands carry the partner; one without is a caller bug, never another account's data. */
export function partnerOf(req: RpcRequest): string {
  if (!req.partnerId) throw AppError.internal('partner command without a partner');
  return req.partnerId;
}
