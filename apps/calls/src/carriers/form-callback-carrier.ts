import { Injectable } from '@nestjs/common';
import { AppError, CarrierCallbackReply, ErrorCode, InboundRouteDecisionDto } from '@vap/contracts';
import {
  CarrierACredentials,
  CarrierBCredentials,
  CredentialsStore,
} from '../telephony/credentials-store.service';
import { CallbackUrls } from './callback-urls';
import { CallbackRequest } from './carrier-adapter';
import { CarrierHttp, CarrierRequest, CarrierResponse, carrierError } from './carrier-http';
import { decisionReply, greetingReply, MarkupDialect } from './carrier-xml';
import { FormParams, parseForm } from './signing/form-params';

/** A REST call against the partner's carrier account: the path follows the account URL. */
export type AccountRequest = Omit<CarrierRequest, 'url' | 'basic'> & { path: string };

/**
 * What carriers that drive calls by signed form callbacks and answer with XML markup share: the partner's
 * credentials by connection, REST calls against the account, the signature check before a callback is
 * read, and the answer markup in the carrier's dialect. Each carrier adds its REST shapes and fields.
 */
@Injectable()
export abstract class FormCallbackCarrier<C extends CarrierACredentials | CarrierBCredentials> {
  abstract readonly provider: 'carrier_a' | 'carrier_b';
  readonly callsLiveInProcess = false;
  protected abstract readonly markup: MarkupDialect;

  constructor(
    private readonly http: CarrierHttp,
    private readonly credentials: CredentialsStore,
    private readonly urls: CallbackUrls,
  ) {}

  inboundReply(decision: InboundRouteDecisionDto, speak: string | null): CarrierCallbackReply {
    return decisionReply(this.markup, decision, speak);
  }

  /** The REST base of the partner's account at the carrier. */
  protected abstract accountPath(creds: C): string;
  /** HTTP Basic credentials of the partner's account. */
  protected abstract basicOf(creds: C): { user: string; password: string };
  /** The carrier's signature scheme over the URL it was handed, the method and the posted parameters. */
  protected abstract signatureMatches(
    request: CallbackRequest,
    signedUrl: string,
    params: FormParams,
    creds: C,
  ): boolean;

  protected openCredentials(connectionId: string): Promise<C> {
    return this.credentials.open<C>(connectionId);
  }

  protected accountUrl(creds: C): string {
    return `${this.http.baseUrl(this.provider)}${this.accountPath(creds)}`;
  }

  protected send(creds: C, req: AccountRequest): Promise<CarrierResponse> {
    const { path, ...rest } = req;
    return this.http.send(this.provider, {
      ...rest,
      url: `${this.accountUrl(creds)}${path}`,
      basic: this.basicOf(creds),
    });
  }

  /** Throws the carrier's refusal (502) unless it answered 2xx. */
  protected expectSuccess(res: CarrierResponse): void {
    if (res.status < 200 || res.status > 299) throw carrierError(this.provider, res);
  }

  /** The id a placement answered with under `field`; a 2xx without one is a refusal too. */
  protected placedId(res: CarrierResponse, field: string): string {
    const id = (res.body as Record<string, unknown> | null)?.[field];
    if (res.status < 200 || res.status > 299 || typeof id !== 'string' || !id) {
      throw carrierError(this.provider, res);
    }
    return id;
  }

  /** The callback's posted parameters once its signature checks out; 403 before anything is read. */
  protected async verified(request: CallbackRequest, connectionId: string): Promise<FormParams> {
    const params = parseForm(request.method === 'POST' ? request.rawBody.toString('utf8') : '');
    const creds = await this.openCredentials(connectionId).catch(() => null);
    const ok = !!creds && this.signatureMatches(request, this.urls.signedUrlOf(request.path), params, creds);
    if (!ok) throw new AppError(ErrorCode.FORBIDDEN, 'Callback signature is missing or invalid');
    return params;
  }

  /** The answer URL's markup: the agent's intro as a greeting. */
  protected answerReply(intro: string | null | undefined): CarrierCallbackReply {
    return greetingReply(this.markup, intro);
  }
}
