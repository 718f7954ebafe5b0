import { raw } from 'express';

/**
 * Carrier callbacks: `/callbacks/{provider}/{callId}/{event}`, outside the partner API. No API key;
 * carriers authenticate by signature, verified by the calls service over the exact bytes received.
 */
export const CALLBACKS_PATH = 'callbacks';

/** Routes whose body is read raw (form posts of carriers), exempt from the JSON-only body rule. */
export const CALLBACK_ROUTES = [new RegExp(`^/${CALLBACKS_PATH}/`)];

/** Keeps the callback body as bytes, whatever its content type, so signatures can be checked. */
export function rawCallbackBody(limit: string) {
  return raw({ type: () => true, limit });
}
