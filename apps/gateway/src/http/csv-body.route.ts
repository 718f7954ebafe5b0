import { text } from 'express';
import type { RequestHandler } from 'express';
import { CAMPAIGN_CSV_BODY_LIMIT } from '@vap/api';
import { API_PREFIX } from './api-docs';
import { jsonOnly, refuseInvalidUtf8 } from './body-parsers';

/** The partner routes that also take a text/csv body: a campaign's contacts upload, a do-not-call import. */
export const CSV_BODY_ROUTES = [
  new RegExp(`^/${API_PREFIX}/campaigns/[^/]+/contacts/?$`),
  new RegExp(`^/${API_PREFIX}/do-not-call/import/?$`),
];

export function isCsvBodyRoute(path: string): boolean {
  return CSV_BODY_ROUTES.some((route) => route.test(path));
}

/** On those routes only: JSON or text/csv, anything else marked to be refused with 415 once routed. */
export function csvBodyTypes(): RequestHandler {
  const allow = jsonOnly([/^text\/csv$/]);
  return (req, res, next) => (isCsvBodyRoute(req.path) ? allow(req, res, next) : next());
}

/**
 * On those routes only: a CSV read as a string up to its own size limit (beyond it 413). JSON bodies are
 * left to the JSON parser.
 */
export function csvBody(): RequestHandler {
  const parse = text({ type: 'text/csv', limit: CAMPAIGN_CSV_BODY_LIMIT, verify: refuseInvalidUtf8 });
  return (req, res, next) => (isCsvBodyRoute(req.path) ? parse(req, res, next) : next());
}
