import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { PartnerContext, ResourceScope } from '@vap/messages';

export interface AuthContext {
  partnerId: string;
  apiKeyId: string;
  /** What commands carry to the services: the partner as authenticated for this request. */
  partner: PartnerContext;
  /**
   * What the API key may do (`read_only` and `:write` expanded); null: full access. Absent when the request
   * was not authenticated by a key.
   */
  scopes?: ReadonlySet<ResourceScope> | null;
  /**
   * The reseller whose key acts for this account (X-On-Behalf-Of), absent otherwise: its own limits count
   * the request too.
   */
  resellerId?: string;
}

export type AuthenticatedRequest = Request & { auth?: AuthContext; id?: string };

/** The partner the API key belongs to; every downstream command is scoped to it. */
export const CurrentPartner = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = ctx.switchToHttp().getRequest<AuthenticatedRequest>().auth;
  if (!auth) throw new Error('CurrentPartner used on a route without partner auth');
  return auth;
});
