import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import {
  PrivateNetworkError,
  PrivateNetworkGuard,
  PublicHttpClient,
  ResponseTooLargeError,
  UnsupportedUrlError,
} from '@vap/egress';
import { KnowledgeConfig } from '../../config/knowledge.config';
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

/** HTTP statuses worth another attempt later; any other error status will not change by retrying. */
const RETRYABLE_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * Fetches the page of a web-link document through the private-network guard (KB_ALLOW_PRIVATE_NETWORKS or
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS lift it), with a deadline and a size limit.
 */
@Injectable()
export class WebPageFetcher implements OnApplicationShutdown {
  private readonly client: PublicHttpClient;

  constructor(private readonly config: KnowledgeConfig) {
    this.client = new PublicHttpClient(
      new PrivateNetworkGuard({ allowPrivateNetworks: config.allowPrivateNetworks }),
    );
  }

  async fetch(url: string): Promise<FetchedPage> {
    let res;
    try {
      res = await this.client.get(url, {
        timeoutMs: this.config.KB_FETCH_TIMEOUT_MS,
        maxBytes: this.config.KB_FETCH_MAX_BYTES,
        headers: HEADERS,
      });
    } catch (err) {
      if (err instanceof PrivateNetworkError || err instanceof UnsupportedUrlError) {
        throw new PermanentJobError(`cannot fetch ${url}: ${err.message}`);
      }
      if (err instanceof ResponseTooLargeError) {
        throw new PermanentJobError(`the page is larger than ${this.config.KB_FETCH_MAX_BYTES} bytes`);
      }
      throw new Error(`fetching ${url} failed: ${(err as Error).message}`);
    }
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

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
