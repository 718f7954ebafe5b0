import { AppError, ErrorDetail } from '@vap/messages';

/** 400 VALIDATION_ERROR naming each bad field, worded like the gateway's own validation errors. */
export function invalidFields(details: ErrorDetail[]): AppError {
  return AppError.validation(details, `Invalid request: ${details.map((d) => d.message).join('; ')}`);
}
