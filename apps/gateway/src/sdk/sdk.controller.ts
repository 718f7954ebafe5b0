import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppError } from '@vap/messages';
import { Public } from '@vap/runtime';
import { SdkFiles } from './sdk-files';

/** Browsers and CDNs may keep a copy for five minutes, then revalidate it with its ETag (304). */
export const SDK_CACHE_CONTROL = 'public, max-age=300, must-revalidate';

/**
 * The browser client (docs/web-client.md): `GET /sdk/voice-client.js`, an ES module partners' pages import,
 * its TypeScript declarations, and `GET /sdk/widget.js`, the one-tag widget (a classic script). Static, no
 * API key; cross-origin pages may load it (a module script is
 * fetched with CORS). Outside the JSON API, so outside the OpenAPI document.
 */
@Public()
@ApiExcludeController()
@Controller('sdk')
export class SdkController {
  constructor(private readonly files: SdkFiles) {}

  @Get(':file')
  serve(@Param('file') name: string, @Req() req: Request, @Res() res: Response): void {
    const file = this.files.get(name);
    if (!file) throw AppError.notFound('File');
    res.setHeader('Cache-Control', SDK_CACHE_CONTROL);
    res.setHeader('ETag', file.etag);
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (req.headers['if-none-match'] === file.etag) {
      res.status(304).end();
      return;
    }
    res.status(200);
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Length', String(file.body.length));
    res.end(file.body);
  }
}
