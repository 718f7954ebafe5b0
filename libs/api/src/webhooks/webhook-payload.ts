/** The JSON body of every webhook request: top level event, timestamp (when the event happened), data. */
export interface WebhookPayload<T = unknown> {
  event: string;
  timestamp: string;
  data: T;
}

/** data of webhook.test. */
export interface WebhookTestData {
  endpoint_id: string;
  label: string;
  message: string;
}
