/** 1..31 lowercase letters, digits and hyphens, starting with a letter or digit. */
export const WEBHOOK_LABEL_PATTERN = /^[a-z0-9][a-z0-9-]{0,30}$/;

/** The label of the endpoint the legacy PUT /config/webhook manages; no other endpoint may take it. */
export const LEGACY_WEBHOOK_LABEL = 'default';

/** Endpoints per scope: account-wide, and per agent (a deleted agent's endpoints count until deleted). */
export const MAX_WEBHOOK_ENDPOINTS_PER_SCOPE = 5;

/** The signing-secret prefix partners recognise. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
