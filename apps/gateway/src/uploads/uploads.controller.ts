import { Controller, Get, HttpCode, Inject, Param, Put, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { DOCUMENT_MIME_TYPES } from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { Public } from '@vap/runtime';
import {
  BLOB_STORAGE,
  BlobGrant,
  BlobSizeMismatchError,
  BlobStorage,
  BlobTooLargeError,
  BlobUrlSigner,
  contentDisposition,
  SignedMethod,
} from '@vap/storage';
import { ApiEnvelope, ApiErrors } from '../http/openapi.decorators';
import { UploadReceiptDto } from './upload-receipt.dto';
import { UPLOADS_PATH } from './uploads.route';
import { RateLimitBucket } from '../rate-limit/rate-limit-bucket';

const REFUSALS = {
  malformed: 'This URL is not a valid signed URL',
  bad_signature: 'The signature of this URL is invalid',
  expired: 'This signed URL has expired; request a new one',
  wrong_method: 'This signed URL does not allow this method',
} as const;

function sizeMismatch(actual: number, expected: number): AppError {
  return AppError.validation([
    { field: 'body', message: `the file has ${actual} bytes, but file_size declared ${expected}` },
  ]);
}

const BINARY = { schema: { type: 'string', format: 'binary' } };
/** What a signed URL holds: a knowledge-base document, or a call recording (calls service). */
const STORED_TYPES = [...new Set(Object.values(DOCUMENT_MIME_TYPES).flat())];
const DOWNLOAD_TYPES = [...STORED_TYPES, 'audio/wav', 'audio/mpeg', 'application/octet-stream'];

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Signed URLs of the local blob driver, like S3 presigned URLs: no API key, the HMAC signature in the URL
 * is the authorisation, and it fixes the object, the method, the expiry and (for uploads) the exact size
 * and Content-Type. With BLOB_STORAGE_DRIVER=s3 the services hand out S3's own presigned URLs instead.
 * Every gateway replica and the agents service must share the storage: one BLOB_STORAGE_DIR locally (a
 * shared volume across machines), one S3 bucket in production, and the same signing key.
 */
@Public()
@ApiTags('Uploads')
@RateLimitBucket('uploads')
@Controller(UPLOADS_PATH)
export class UploadsController {
  constructor(
    @Inject(BLOB_STORAGE) private readonly storage: BlobStorage,
    private readonly signer: BlobUrlSigner,
  ) {}

  @Put(':token')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Upload a file to a signed upload_url',
    description:
      'The upload_url of POST /documents. No Authorization header: the signature in the URL authorises the ' +
      'request. Send exactly the file_size declared for the document, with the Content-Type from upload_headers ' +
      '(parameters such as charset are ignored). The URL stays valid until upload_expires_at; uploading again ' +
      'replaces the file. Then call POST /documents/{id}/confirm.<br>' +
      'Storage: the file lands in the platform blob storage that the gateway and the agents service share ' +
      '(one directory in a local deployment; in production an S3-compatible bucket, and upload_url then ' +
      'points at the bucket itself with an S3 presigned signature, so this route is not used).',
    // The signature in the URL is the authorisation: no API key (OpenAPI's "no security" is []).
    security: [],
  })
  @ApiParam({ name: 'token', description: 'The signed part of the URL, as returned' })
  @ApiConsumes(...STORED_TYPES)
  @ApiBody({ schema: BINARY.schema })
  @ApiEnvelope(UploadReceiptDto, 'Stored')
  @ApiErrors(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.FORBIDDEN,
    ErrorCode.PAYLOAD_TOO_LARGE,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    ErrorCode.RATE_LIMITED,
  )
  async upload(
    @Param('token') token: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UploadReceiptDto> {
    const grant = this.granted(token, 'PUT');
    const contentType = grant.contentType ?? 'application/octet-stream';
    const expected = grant.contentLength ?? 0;
    const declared =
      req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
    // Refused before reading the body: close the connection rather than drain a body nobody wants.
    const refuse = (err: AppError) => {
      res.setHeader('Connection', 'close');
      return err;
    };
    if (mediaType(req.headers['content-type']) !== contentType.toLowerCase()) {
      throw refuse(
        new AppError(
          ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          `Content-Type must be ${contentType}, as the URL was signed for`,
        ),
      );
    }
    if (declared !== undefined && declared > expected) {
      throw refuse(
        new AppError(ErrorCode.PAYLOAD_TOO_LARGE, `The file must be exactly ${expected} bytes (file_size)`),
      );
    }
    if (declared !== undefined && declared < expected) throw refuse(sizeMismatch(declared, expected));
    let stored: { size: number };
    try {
      stored = await this.storage.put(grant.key, req, { contentType, exactBytes: expected });
    } catch (err) {
      if (err instanceof BlobTooLargeError) {
        throw refuse(
          new AppError(ErrorCode.PAYLOAD_TOO_LARGE, `The file must be exactly ${expected} bytes (file_size)`),
        );
      }
      if (err instanceof BlobSizeMismatchError) throw sizeMismatch(err.actual, expected);
      if (req.destroyed || (err as NodeJS.ErrnoException).code === 'ECONNRESET') {
        throw AppError.validation([{ field: 'body', message: 'the upload was interrupted' }]);
      }
      throw err;
    }
    return { size: stored.size, content_type: contentType };
  }

  @Get(':token')
  @ApiOperation({
    summary: 'Download a file from a signed URL',
    description: 'No Authorization header: the signature in the URL authorises the request until it expires.',
    security: [],
  })
  @ApiParam({ name: 'token', description: 'The signed part of the URL, as returned' })
  @ApiResponse({
    status: 200,
    description: 'The file, in the Content-Type it was stored with',
    content: Object.fromEntries(DOWNLOAD_TYPES.map((type) => [type, BINARY])),
  })
  @ApiErrors(ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED)
  async download(@Param('token') token: string, @Res() res: Response): Promise<void> {
    const grant = this.granted(token, 'GET');
    const found = await this.storage.stream(grant.key);
    if (!found) throw AppError.notFound('File');
    res.status(200);
    res.setHeader('Content-Type', found.head.contentType ?? 'application/octet-stream');
    res.setHeader('Content-Length', String(found.head.size));
    res.setHeader('Cache-Control', 'private, no-store');
    if (grant.fileName) res.setHeader('Content-Disposition', contentDisposition(grant.fileName));
    await pipeline(found.body, res);
  }

  private granted(token: string, method: SignedMethod): BlobGrant {
    const check = this.signer.verify(token, method);
    if (!check.ok) throw new AppError(ErrorCode.FORBIDDEN, REFUSALS[check.reason]);
    return check.grant;
  }
}
