import { ArgumentMetadata } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsDefined, IsString } from 'class-validator';
// A test-only edge, kept out of the project graph so a public DTO change leaves the messaging lib's dependents
// (the voice service) unaffected; the root type check still compiles this against the full command map.
// nx-ignore-next-line
import { CreateCustomerDto, CursorQueryDto } from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { createValidationPipe } from './validation-pipe';

class RowsLike {
  @IsDefined({ message: 'rows is required' })
  @IsArray()
  @ArrayMaxSize(3, { message: 'rows holds at most 3 rows' })
  @IsString({ each: true })
  rows: string[];
}

async function problem(
  metatype: ArgumentMetadata['metatype'],
  value: unknown,
): Promise<{ code: string; message: string }> {
  try {
    await createValidationPipe().transform(value, { type: 'body', metatype });
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('createValidationPipe', () => {
  it('names a value of the wrong kind as such, keeping the field-specific code', async () => {
    await expect(problem(CreateCustomerDto, { external_id: 123, name: 'x' })).resolves.toEqual({
      code: ErrorCode.INVALID_EXTERNAL_ID,
      message: 'Invalid request: external_id must be a string',
    });
    await expect(problem(CursorQueryDto, { limit: 'abc' })).resolves.toEqual({
      code: ErrorCode.VALIDATION_ERROR,
      message: 'Invalid request: limit must be an integer number',
    });
    await expect(problem(RowsLike, { rows: {} })).resolves.toMatchObject({
      message: 'Invalid request: rows must be an array',
    });
  });

  it('says a missing field is required, whatever else it fails', async () => {
    await expect(problem(RowsLike, {})).resolves.toMatchObject({
      message: 'Invalid request: rows is required',
    });
  });

  it('otherwise reports the first rule a value of the right kind breaks, once per field', async () => {
    await expect(problem(CreateCustomerDto, { external_id: '   ', name: 'x' })).resolves.toEqual({
      code: ErrorCode.INVALID_EXTERNAL_ID,
      message: 'Invalid request: external_id must not be blank',
    });
    await expect(problem(CursorQueryDto, { limit: '500' })).resolves.toMatchObject({
      message: 'Invalid request: limit must not be greater than 100',
    });
    await expect(problem(RowsLike, { rows: ['a', 'b', 'c', 'd'] })).resolves.toMatchObject({
      message: 'Invalid request: rows holds at most 3 rows',
    });
  });

  it('names an unknown field', async () => {
    await expect(
      problem(CreateCustomerDto, { external_id: 'a', name: 'x', extra: 1 }),
    ).resolves.toMatchObject({
      message: 'Invalid request: extra is not an accepted field',
    });
  });
});
