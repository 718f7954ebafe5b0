import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Gauge } from 'prom-client';
import {
  CAMPAIGN_CSV_BODY_LIMIT,
  CreateDoNotCallDto,
  DO_NOT_CALL_CSV_COLUMNS,
  DO_NOT_CALL_ID_EXAMPLE,
  DO_NOT_CALL_IMPORT_MAX_ROWS,
  DoNotCallDeletedDto,
  DoNotCallEntryDto,
  DoNotCallExportPage,
  DoNotCallImportDto,
  DoNotCallImportReportDto,
  DoNotCallListDto,
  DoNotCallLookupDto,
  DoNotCallLookupQueryDto,
  doNotCallRowsFromCsv,
  formatCsv,
  ListDoNotCallQueryDto,
  UpdateDoNotCallDto,
} from '@vap/api';
import { DoNotCallId, ErrorCode, Subjects } from '@vap/messages';
import { createValidationPipe, RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { idParam } from '../http/id-param';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { DoNotCallImporter } from './do-not-call-import';

const ID_PARAM = { name: 'id', example: DO_NOT_CALL_ID_EXAMPLE };
/** Rows per page the export asks the calls service for while it streams (pages are bounded in bytes too). */
const EXPORT_PAGE_ROWS = 2000;

/** Exports being written: each ends when its list is out or its client has gone away. */
export const doNotCallExportsInProgress = new Gauge({
  name: 'vap_do_not_call_exports_in_progress',
  help: 'GET /do-not-call/export responses being written',
});

const IMPORT_DESCRIPTION = `Adds many entries at once, with a report for every row. The body is JSON (\`entries\`, as below) or
\`text/csv\` (up to ${CAMPAIGN_CSV_BODY_LIMIT}): a header row naming the columns \`number\` and/or \`prefix\`, \`reason\`,
and optionally \`source\` and \`note\`; other columns (such as an export's \`created_at\`) are ignored, so an export
imports back as it is. At most ${DO_NOT_CALL_IMPORT_MAX_ROWS} rows.

Each row is judged on its own: \`added\`; \`already_listed\` (the number or prefix was listed before, or earlier in
this import: the entry is left as it was); or \`rejected\` with the error (\`missing_number\`, \`number_and_prefix\`,
\`invalid_number\`, \`invalid_prefix\`, \`invalid_reason\`, \`invalid_source\`, \`invalid_note\`). Rejected rows do not
stop the others. Source defaults to \`import\`.

The rows are added in batches of consecutive rows, each in one transaction. An import answered with an error after it
started adding (a 502 \`INTERNAL_ERROR\`) may have added its first batches: send it again, those rows then report
\`already_listed\`.`;

/**
 * The account's do-not-call list: numbers and prefixes no dial of the account reaches (POST /calls/start is
 * refused with DO_NOT_CALL, campaign contacts are skipped), with bulk import, export and lookup.
 */
@ApiTags('Contact policy')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/do-not-call`)
export class DoNotCallController {
  private readonly validation = createValidationPipe();

  constructor(
    private readonly rpc: RpcClient,
    private readonly importer: DoNotCallImporter,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Add a number or prefix to the do-not-call list',
    description:
      'From then on every dial of the account to the number (or to any number starting with the prefix) is stopped: ' +
      'POST /calls/start answers 409 DO_NOT_CALL and nothing is dialled; a campaign skips the contact ' +
      '(skip_reason DO_NOT_CALL). Each stopped dial is in GET /contact-policy/decisions. ' +
      'A number or prefix already listed is 409 CONFLICT.',
  })
  @ApiEnvelope(DoNotCallEntryDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.CONFLICT)
  create(@CurrentPartner() auth: AuthContext, @Body() body: CreateDoNotCallDto): Promise<DoNotCallEntryDto> {
    return this.rpc.request(Subjects.calls.doNotCallCreate, auth.partner, body);
  }

  @Get()
  @ApiOperation({
    summary: 'List the do-not-call entries, newest first (cursor pagination; filter by reason, kind)',
  })
  @ApiEnvelope(DoNotCallListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(
    @CurrentPartner() auth: AuthContext,
    @Query() query: ListDoNotCallQueryDto,
  ): Promise<DoNotCallListDto> {
    return this.rpc.request(Subjects.calls.doNotCallList, auth.partner, query);
  }

  @Get('lookup')
  @ApiOperation({
    summary: 'Is a number on the do-not-call list?',
    description:
      'listed is true when a dial to the number would be stopped; matches are the entries covering it.',
  })
  @ApiEnvelope(DoNotCallLookupDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  lookup(
    @CurrentPartner() auth: AuthContext,
    @Query() query: DoNotCallLookupQueryDto,
  ): Promise<DoNotCallLookupDto> {
    return this.rpc.request(Subjects.calls.doNotCallLookup, auth.partner, query);
  }

  @Get('export')
  @ApiOperation({
    summary: 'Export the whole do-not-call list as CSV',
    description:
      `text/csv, oldest entry first, with the header ${DO_NOT_CALL_CSV_COLUMNS.join(',')}; streamed, so a list of ` +
      'any size comes in one response. A source or note that a spreadsheet would run as a formula (starting with =, ' +
      '+, -, @, a tab or a carriage return) is written with a leading apostrophe, shown as text; the import removes it, so ' +
      'the file imports back with POST /do-not-call/import as it was.',
  })
  @ApiResponse({
    status: 200,
    description: 'The list as CSV (Content-Disposition: attachment; filename="do-not-call.csv")',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  async export(@CurrentPartner() auth: AuthContext, @Res() res: Response): Promise<void> {
    // The first page is read before anything is sent, so a failure there is still an error envelope.
    const first = await this.exportPage(auth, null);
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="do-not-call.csv"');
    res.setHeader('Cache-Control', 'private, no-store');
    doNotCallExportsInProgress.inc();
    try {
      // The next page is asked for only when the client has taken the last one (a byte of buffer, so at most
      // one page waits in memory), and a client that goes away ends the export: pipeline stops reading the
      // pages when the response closes, and destroys the response when a page fails.
      await pipeline(
        Readable.from(this.exportCsv(auth, first), { objectMode: false, highWaterMark: 1 }),
        res,
      );
    } catch {
      // Headers are out: a cut connection is the only way left to say the file is incomplete.
      res.destroy();
    } finally {
      doNotCallExportsInProgress.dec();
    }
  }

  private async *exportCsv(auth: AuthContext, first: DoNotCallExportPage): AsyncGenerator<string> {
    let page = first;
    yield formatCsv([[...DO_NOT_CALL_CSV_COLUMNS], ...page.rows]);
    while (page.after) {
      page = await this.exportPage(auth, page.after);
      yield formatCsv(page.rows);
    }
  }

  private exportPage(auth: AuthContext, after: string | null): Promise<DoNotCallExportPage> {
    return this.rpc.request(Subjects.calls.doNotCallExportPage, auth.partner, {
      after,
      limit: EXPORT_PAGE_ROWS,
    });
  }

  @Post('import')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import entries (JSON or CSV) with a per-row report',
    description: IMPORT_DESCRIPTION,
  })
  @ApiConsumes('application/json', 'text/csv')
  @ApiBody({ type: DoNotCallImportDto, description: 'JSON as below, or a text/csv body with a header row' })
  @ApiEnvelope(DoNotCallImportReportDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.PAYLOAD_TOO_LARGE, ErrorCode.UNSUPPORTED_MEDIA_TYPE)
  async import(
    @CurrentPartner() auth: AuthContext,
    @Body() body: unknown,
    @Req() req: Request,
  ): Promise<DoNotCallImportReportDto> {
    const rows: unknown[] = req.is('text/csv')
      ? doNotCallRowsFromCsv(typeof body === 'string' ? body : '')
      : (await this.validation.transform(body, { type: 'body', metatype: DoNotCallImportDto })).entries;
    return this.importer.import(auth.partner, rows);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a do-not-call entry' })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(DoNotCallEntryDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Do-not-call entry', DoNotCallId)) id: string,
  ): Promise<DoNotCallEntryDto> {
    return this.rpc.request(Subjects.calls.doNotCallGet, auth.partner, { id });
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change an entry’s reason, source or note (the number itself: delete and add)' })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(DoNotCallEntryDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Do-not-call entry', DoNotCallId)) id: string,
    @Body() body: UpdateDoNotCallDto,
  ): Promise<DoNotCallEntryDto> {
    return this.rpc.request(Subjects.calls.doNotCallUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Remove an entry: its number (or prefix) may be dialled again' })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(DoNotCallDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Do-not-call entry', DoNotCallId)) id: string,
  ): Promise<DoNotCallDeletedDto> {
    return this.rpc.request(Subjects.calls.doNotCallDelete, auth.partner, { id });
  }
}
