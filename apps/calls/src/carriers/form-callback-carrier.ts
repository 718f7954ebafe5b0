import { Injectable, Optional } from '@nestjs/common';
import { InboundRouteDecisionDto } from '@vap/api';
import { AppError, CarrierCallbackReply, ErrorCode } from '@vap/messages';
import {
  CarrierACredentials,
  CarrierBCredentials,
  CredentialsStore,
} from '../telephony/connections/credentials-store.service';
import { ConnectionHealthRecorder } from '../telephony/connections/health/connection-health.recorder';
import { MediaStreamLinks } from './media-stream-links';
import { CallbackUrls } from './callback-urls';
import { CallbackCall, CallbackRequest, PlacementUnknown } from './carrier-adapter';
import {
  CarrierHttp,
  CarrierRequest,
  CarrierResponse,
  CarrierUnanswered,
  carrierError,
  RestCarrier,
} from './carrier-http';
import { operationOf } from './carrier-operation';
import { decisionReply, MarkupDialect, streamReply } from './carrier-xml';
import { FormParams, parseForm } from './signing/form-params';

/** A REST call against the partner's carrier account: the path follows the account URL. */
export type AccountRequest = Omit<CarrierRequest, 'url' | 'basic'> & { path: string };

/** Inbound decisions that open a call answered by an agent (the call then streams to the voice service). */
const ANSWERING_ACTIONS = ['ANSWER_WITH_AI', 'SELECT_AGENT'];

/**
 * What carriers that drive calls by signed form callbacks and answer with XML markup share: the partner's
 * credentials by connection, REST calls against the account, the signature check before a callback is
 * read, the carrier's signature on a media-stream upgrade, and the answer markup in the carrier's dialect
 * (a media stream to the voice service). Each carrier adds its REST shapes and fields.
 */
@Injectable()
export abstract class FormCallbackCarrier<C extends CarrierACredentials | CarrierBCredentials> {
  abstract readonly provider: RestCarrier;
  protected abstract readonly markup: MarkupDialect;
  /** Below the account URL, the account resource itself (a read that places nothing). */
  protected abstract readonly accountResource: string;
  /** Which connection each opened credentials object belongs to, so REST calls with it count to its health. */
  private readonly connectionOf = new WeakMap<object, string>();

  constructor(
    private readonly http: CarrierHttp,
    private readonly credentials: CredentialsStore,
    protected readonly urls: CallbackUrls,
    private readonly streams: MediaStreamLinks,
    @Optional() private readonly health?: ConnectionHealthRecorder,
  ) {}

  /** Reject, transfer, or the media stream of the call an answering decision opened. */
  inboundReply(decision: InboundRouteDecisionDto): CarrierCallbackReply {
    const answers = ANSWERING_ACTIONS.includes(decision.action) && !!decision.call_id;
    const streamUrl = answers ? this.streams.streamUrl(this.provider, decision.call_id!) : null;
    return decisionReply(this.markup, decision, streamUrl);
  }

  /**
   * The carrier's own signature on a media-stream upgrade (a GET with no body, signed over the stream URL
   * exactly as the carrier was given it), checked with the call's connection credentials. False when the
   * signature is missing, wrong, or the credentials cannot be opened.
   */
  async verifyStreamUpgrade(
    call: CallbackCall,
    url: string,
    headers: Record<string, string>,
  ): Promise<boolean> {
    const creds = await this.openCredentials(call.connectionId).catch(() => null);
    return !!creds && this.upgradeSignatureMatches(url, headers, creds);
  }

  /**
   * A REST request on the connection's account outside any call (messaging): its credentials opened, the
   * path after the account URL. Throws CarrierUnanswered when no answer came.
   */
  async accountRequest(connectionId: string, req: AccountRequest): Promise<CarrierResponse> {
    return this.send(await this.openCredentials(connectionId), req);
  }

  /** A callback's posted parameters once the carrier's signature (the connection's token) checks out; else 403. */
  verifiedCallback(request: CallbackRequest, connectionId: string): Promise<FormParams> {
    return this.verified(request, connectionId);
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

  /** The carrier's signature scheme over a WebSocket upgrade request to `url` (GET, no parameters). */
  protected abstract upgradeSignatureMatches(url: string, headers: Record<string, string>, creds: C): boolean;

  /** GET of the partner's account resource with the connection's credentials: a test that places no call. */
  async fetchAccount(connectionId: string): Promise<CarrierResponse> {
    const creds = await this.openCredentials(connectionId);
    return this.send(creds, { method: 'GET', path: this.accountResource });
  }

  protected async openCredentials(connectionId?: string): Promise<C> {
    const creds = await this.loadCredentials(connectionId);
    if (connectionId) this.connectionOf.set(creds, connectionId);
    return creds;
  }

  /** The connection's credentials; an account the platform holds itself overrides this. */
  protected loadCredentials(connectionId: string | undefined): Promise<C> {
    if (!connectionId) throw new Error(`${this.provider} credentials need a connection`);
    return this.credentials.open<C>(connectionId);
  }

  protected accountUrl(creds: C): string {
    return `${this.http.baseUrl(this.provider)}${this.accountPath(creds)}`;
  }

  protected send(creds: C, req: AccountRequest): Promise<CarrierResponse> {
    const { path, ...rest } = req;
    const connectionId = this.connectionOf.get(creds);
    return this.http.send(this.provider, {
      ...rest,
      url: `${this.accountUrl(creds)}${path}`,
      basic: this.basicOf(creds),
      health: connectionId ? { connectionId, operation: operationOf(req.method, path) } : undefined,
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

  /**
   * Sends a place-call request and reads the placement's id under `field`. A clear refusal (4xx, or a request
   * that never left) throws the carrier's error; an outcome the carrier left open (no answer once the
   * request went out, placementOutcomeUnknown) throws PlacementUnknown.
   */
  protected async place(creds: C, req: AccountRequest, field: string): Promise<string> {
    let res: CarrierResponse;
    try {
      res = await this.send(creds, req);
    } catch (err) {
      if (err instanceof CarrierUnanswered && err.maybeReceived) {
        throw new PlacementUnknown(this.provider, err.message);
      }
      throw err;
    }
    try {
      return this.placedId(res, field);
    } catch (refused) {
      if (!this.placementOutcomeUnknown(res)) throw refused;
      throw new PlacementUnknown(this.provider, (refused as Error).message);
    }
  }

  /**
   * Whether a place-call answer without a placement id leaves open that the carrier placed the call. By
   * default a server error (5xx: the carrier may have failed after creating the call) or a success with no
   * id; a 4xx is a refusal. Carriers whose error answers say more narrow this down.
   */
  protected placementOutcomeUnknown(res: CarrierResponse): boolean {
    return res.status >= 500 || (res.status >= 200 && res.status <= 299);
  }

  /**
   * The callback's posted parameters once its signature checks out; 403 before anything is read. A verified
   * callback counts as the connection's last callback.
   */
  protected async verified(request: CallbackRequest, connectionId: string): Promise<FormParams> {
    const params = parseForm(request.method === 'POST' ? request.rawBody.toString('utf8') : '');
    const creds = await this.openCredentials(connectionId).catch(() => null);
    const ok = !!creds && this.signatureMatches(request, this.urls.signedUrlOf(request.path), params, creds);
    if (!ok) throw new AppError(ErrorCode.FORBIDDEN, 'Callback signature is missing or invalid');
    // Only the carrier's own (verified) callbacks count to the connection's health: calls' and inbound ones.
    this.health?.callback(connectionId);
    return params;
  }

  /**
   * The answer URL's markup: the call's media stream to the voice service, which speaks the agent's intro
   * and runs the conversation. Each fetch gets a fresh single-use token.
   */
  protected streamUrlOf(id: string): string {
    return this.streams.streamUrl(this.provider, id);
  }

  protected answerReply(callId: string): CarrierCallbackReply {
    return streamReply(this.markup, this.streams.streamUrl(this.provider, callId), callId);
  }
}
