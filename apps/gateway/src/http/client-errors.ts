import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorEnvelope } from '@vap/api';
import { ErrorCode } from '@vap/messages';

/**
 * Requests Node's HTTP parser refuses before Express sees them (a URL or headers over the size limit, a
 * malformed request line) get the contract's envelope too, instead of Node's bare 400/431.
 */
export function envelopeClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const body: ErrorEnvelope = {
      success: false,
      error: {
        code: ErrorCode.VALIDATION_ERROR,
        message: tooLarge ? 'The URL or the request headers are too large' : 'Malformed HTTP request',
      },
    };
    const json = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(json)}\r\n` +
        'Connection: close\r\n\r\n' +
        json,
    );
  });
}
