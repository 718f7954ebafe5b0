import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { REMOVED_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '../events/event-catalog';
import { LEGACY_WEBHOOK_LABEL, WEBHOOK_LABEL_PATTERN } from './webhook-label';

/** Why an events allowlist is refused, or null when every entry is a catalog name. */
export function eventsAllowlistProblem(value: unknown): string | null {
  const valid = `valid event types: ${WEBHOOK_EVENT_TYPES.join(', ')}`;
  if (!Array.isArray(value)) return `events must be an array of event type names; ${valid}`;
  for (const name of value) {
    if (typeof name !== 'string') return `events must hold strings only; ${valid}`;
    if (REMOVED_WEBHOOK_EVENT_TYPES.includes(name))
      return `events: ${name} no longer exists and is not accepted; ${valid}`;
    if (!WEBHOOK_EVENT_TYPES.includes(name)) return `events: unknown event type ${name}; ${valid}`;
  }
  return null;
}

/** An allowlist of catalog event names; the message of a refusal lists the valid set. */
export function IsWebhookEventList(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isWebhookEventList',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => eventsAllowlistProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) => eventsAllowlistProblem(args?.value) ?? '',
      },
    });
}

/** Why a label is refused, or null. `default` is kept for the legacy route. */
export function labelProblem(value: unknown): string | null {
  if (typeof value !== 'string' || !WEBHOOK_LABEL_PATTERN.test(value))
    return 'label must be 1 to 31 lowercase letters, digits or hyphens, starting with a letter or digit';
  if (value === LEGACY_WEBHOOK_LABEL)
    return 'label default is reserved for the endpoint of PUT /config/webhook';
  return null;
}

export function IsWebhookLabel(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isWebhookLabel',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => labelProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) => labelProblem(args?.value) ?? '',
      },
    });
}

/** An https:// URL with a host and no credentials; partners' endpoints must take POST over HTTPS. */
export function httpsUrlProblem(value: unknown, field = 'url'): string | null {
  if (typeof value !== 'string' || value.length > 2048)
    return `${field} must be an HTTPS URL of at most 2048 characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${field} must be an HTTPS URL`;
  }
  if (url.protocol !== 'https:') return `${field} must use HTTPS`;
  if (!url.hostname) return `${field} must name a host`;
  if (url.username || url.password) return `${field} must not carry credentials`;
  return null;
}

export function IsHttpsUrl(field: string, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isHttpsUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => httpsUrlProblem(value, field) === null,
        defaultMessage: (args?: ValidationArguments) => httpsUrlProblem(args?.value, field) ?? '',
      },
    });
}

/** A field that may not be sent at all (immutable after creation), whatever its value. */
export function IsAbsent(message: string): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isAbsent',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message },
      // JSON has no undefined: any value sent, null included, is the error.
      validator: { validate: (value: unknown) => value === undefined },
    });
}
