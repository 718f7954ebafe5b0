import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@vap/runtime';
import { DEMO_PAGE_CSP, DEMO_PAGE_HTML } from '@vap/web-client';

/** GET /demo/voice: registered in development only (NODE_ENV=development); elsewhere the route does not exist. */
@Public()
@ApiExcludeController()
@Controller('demo')
export class DemoController {
  @Get('voice')
  voice(@Res() res: Response): void {
    res.status(200);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', DEMO_PAGE_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.end(DEMO_PAGE_HTML);
  }
}
