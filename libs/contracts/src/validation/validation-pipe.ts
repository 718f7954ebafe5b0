import { ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError, ErrorCode, ErrorDetail } from '../errors';

/** class-validator names only the property; inside nested objects the message names the whole path. */
function qualify(message: string, property: string, field: string): string {
  return field !== property && message.startsWith(`${property} `)
    ? `${field}${message.slice(property.length)}`
    : message;
}

function flatten(errors: ValidationError[], parent = ''): { detail: ErrorDetail; code?: ErrorCode }[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.entries(e.constraints ?? {}).map(([name, message]) => ({
      detail: {
        field,
        message:
          name === 'whitelistValidation'
            ? `${field} is not an accepted field`
            : qualify(message, e.property, field),
      },
      code: (e.contexts?.[name] as { code?: ErrorCode } | undefined)?.code,
    }));
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
    stopAtFirstError: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: validationError,
  });
}
