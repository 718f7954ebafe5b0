import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  FetchTimeoutError,
  PrivateNetworkError,
  PrivateNetworkGuard,
  PublicFetchResult,
  PublicHttpClient,
  ResponseTooLargeError,
  UnsupportedUrlError,
} from '@vap/egress';
import {
  INTEGRATION_LOG_EXCERPT_CHARS,
  IntegrationLogEntry,
  IntegrationOutcome,
  maskedHeaders,
  outcomeOfStatus,
} from '@vap/messages';
import { KnowledgeConfig } from '../../config/knowledge.config';
import { IntegrationLogWriter } from '../../integration-logs/integration-log.writer';
import { PermanentJobError } from '../jobs/kb-job';
import { formatOfMediaType, TextFormat } from './extraction/extract-text';

export interface FetchedPage {
  format: TextFormat;
  bytes: Buffer;
  charset?: string;
}

const HEADERS = {
  'user-agent': 'VoiceAgentPlatform-KnowledgeBase/1.0',
  accept: 'text/html, application/xhtml+xml, text/plain, text/markdown, application/pdf;q=0.9, */*;q=0.1',
};

/** Whose page is fetched: the integration log entry of the fetch goes to this partner, under this agent. */
export interface FetchOrigin {
  partnerId: string;
  agentId: string;
}

/** Media types whose body the log keeps an excerpt of; a PDF's bytes mean nothing to a reader. */
const TEXT_TYPES = /^(text\/|application\/(xhtml\+xml|xml|json)$)/;

/** HTTP statuses worth another attempt later; any other error status will not change by retrying. */
const RETRYABLE_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * Fetches the page of a web-link document through the private-network guard (KB_ALLOW_PRIVATE_NETWORKS or
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS lift it), with a deadline and a size limit. Every fetch, whatever its end,
 * is an entry of the partner's integration log (kind knowledge_fetch).
 */
@Injectable()
export class WebPageFetcher implements OnApplicationShutdown {
  private readonly logger = new Logger(WebPageFetcher.name);
  private readonly client: PublicHttpClient;

  constructor(
    private readonly config: KnowledgeConfig,
    private readonly log: IntegrationLogWriter,
  ) {
    this.client = new PublicHttpClient(
      new PrivateNetworkGuard({ allowPrivateNetworks: config.allowPrivateNetworks }),
    );
  }

  async fetch(url: string, origin: FetchOrigin): Promise<FetchedPage> {
    const startedAt = new Date();
    const started = performance.now();
    let res: PublicFetchResult;
    try {
      res = await this.client.get(url, {
        timeoutMs: this.config.KB_FETCH_TIMEOUT_MS,
        maxBytes: this.config.KB_FETCH_MAX_BYTES,
        headers: HEADERS,
      });
    } catch (err) {
      await this.record(origin, url, startedAt, performance.now() - started, { failure: err as Error });
      if (err instanceof PrivateNetworkError || err instanceof UnsupportedUrlError) {
        throw new PermanentJobError(`cannot fetch ${url}: ${err.message}`);
      }
      if (err instanceof ResponseTooLargeError) {
        throw new PermanentJobError(`the page is larger than ${this.config.KB_FETCH_MAX_BYTES} bytes`);
      }
      throw new Error(`fetching ${url} failed: ${(err as Error).message}`);
    }
    await this.record(origin, url, startedAt, performance.now() - started, { res });
    if (res.status < 200 || res.status > 299) {
      const message = `the page answered HTTP ${res.status}`;
      throw RETRYABLE_STATUSES.has(res.status) ? new Error(message) : new PermanentJobError(message);
    }
    const format = formatOfMediaType(res.contentType);
    if (!format) {
      throw new PermanentJobError(
        `the page is ${res.contentType || 'of no declared type'}, not HTML, text or PDF`,
      );
    }
    return { format, bytes: res.body, charset: res.charset };
  }

  /**
   * Logs one fetch. A log that cannot be written does not fail the indexing it describes: the page was
   * fetched either way, and the job's own outcome is what the partner acts on.
   */
  private async record(
    origin: FetchOrigin,
    url: string,
    startedAt: Date,
    latencyMs: number,
    end: { res: PublicFetchResult } | { failure: Error },
  ): Promise<void> {
    let status: number | null = null;
    let responseBody: string | null = null;
    let outcome: IntegrationOutcome;
    let error: string | null = null;
    if ('res' in end) {
      status = end.res.status;
      outcome = outcomeOfStatus(status);
      if (TEXT_TYPES.test(end.res.contentType)) {
        // Four bytes a character at most: enough for the excerpt without decoding a whole page.
        responseBody = end.res.body
          .subarray(0, INTEGRATION_LOG_EXCERPT_CHARS * 4)
          .toString('utf8')
          .slice(0, INTEGRATION_LOG_EXCERPT_CHARS);
      }
      if (outcome !== 'success') error = `the page answered HTTP ${status}`;
    } else {
      const err = end.failure;
      outcome =
        err instanceof FetchTimeoutError
          ? 'timeout'
          : err instanceof ResponseTooLargeError
            ? 'http_error'
            : 'refused';
      error =
        err instanceof ResponseTooLargeError
          ? `the page is larger than ${this.config.KB_FETCH_MAX_BYTES} bytes`
          : err.message;
    }
    const entry: IntegrationLogEntry = {
      id: randomUUID(),
      partnerId: origin.partnerId,
      kind: 'knowledge_fetch',
      callId: null,
      browserSessionId: null,
      agentId: origin.agentId,
      functionId: null,
      hookId: null,
      method: 'GET',
      url,
      requestHeaders: maskedHeaders(HEADERS),
      requestBody: null,
      status,
      responseBody,
      outcome,
      error,
      latencyMs,
      attempts: 1,
      startedAt: startedAt.toISOString(),
    };
    try {
      await this.log.record(entry);
    } catch (err) {
      this.logger.warn(`could not log the fetch of a knowledge-base page: ${(err as Error).message}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
