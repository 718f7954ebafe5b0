import { ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError, ErrorCode, ErrorDetail } from '@vap/messages';

/** class-validator names only the property; inside nested objects the message names the whole path. */
function qualify(message: string, property: string, field: string): string {
  return field !== property && message.startsWith(`${property} `)
    ? `${field}${message.slice(property.length)}`
    : message;
}

/**
 * The checks that say what kind of value a field takes, in the order their messages are preferred. A field of
 * the wrong kind fails its other checks too (a number is not "1 to 200 characters" either), and class-validator
 * runs a property's checks bottom decorator first, so the first failure would often name the wrong problem.
 */
const KIND_CHECKS = [
  'whitelistValidation',
  'isDefined',
  'nestedValidation',
  'isArray',
  'isObject',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isRupees',
];

/**
 * Of the checks one field failed (class-validator's `constraints`), the one to report: its kind when that is
 * wrong, else the first rule it breaks. Request bodies and service settings are reported alike.
 */
export function mostTellingCheck(constraints: Record<string, string>): string | undefined {
  return KIND_CHECKS.find((kind) => kind in constraints) ?? Object.keys(constraints)[0];
}

/** One problem per field: its kind when that is wrong, else the first rule it breaks. */
function flatten(errors: ValidationError[], parent = ''): { detail: ErrorDetail; code?: ErrorCode }[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const constraints = e.constraints ?? {};
    const names = Object.keys(constraints);
    const codeOf = (name: string) => (e.contexts?.[name] as { code?: ErrorCode } | undefined)?.code;
    const own = [];
    const name = mostTellingCheck(constraints);
    if (name !== undefined) {
      own.push({
        detail: {
          field,
          message:
            name === 'whitelistValidation'
              ? `${field} is not an accepted field`
              : qualify(constraints[name], e.property, field),
        },
        // A field-specific code (INVALID_EXTERNAL_ID) holds whichever of the field's checks was reported.
        code: codeOf(name) ?? names.map(codeOf).find(Boolean),
      });
    }
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** Turns class-validator errors into one AppError that names every bad field. */
export function validationError(errors: ValidationError[]): AppError {
  const items = flatten(errors);
  // A field-specific code (e.g. INVALID_EMAIL) wins when the contract defines one for that field.
  const code = items.find((i) => i.code)?.code ?? ErrorCode.VALIDATION_ERROR;
  const details = items.map((i) => i.detail);
  const message = `Invalid request: ${details.map((d) => d.message).join('; ')}`;
  return new AppError(code, message, { details });
}

/**
 * The platform's one set of input rules: the gateway validates request bodies and queries with it, and
 * NatsRpcServer's handlers validate command data with it, so an internal caller meets the same checks.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    // Every check of a field runs, so flatten() can report the most telling one.
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: validationError,
  });
}
