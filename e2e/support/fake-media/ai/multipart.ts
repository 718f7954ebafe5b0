// multipart/form-data reading for the fake transcription endpoint (RFC 7578): fields and files by name.

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** Splits a multipart body; throws when the content type has no boundary or the body is malformed. */
export function parseMultipart(contentType: string, body: Buffer): MultipartPart[] {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!/^multipart\/form-data/i.test(contentType) || !m)
    throw new Error('not multipart/form-data with a boundary');
  const delimiter = Buffer.from(`--${m[1] ?? m[2]}`);
  const parts: MultipartPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw new Error('multipart body without its boundary');
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') return parts;
    if (body.subarray(at, at + 2).toString() !== '\r\n') throw new Error('malformed multipart boundary line');
    at += 2;
    const headerEnd = body.indexOf('\r\n\r\n', at);
    if (headerEnd < 0) throw new Error('multipart part without headers');
    const headers = body.subarray(at, headerEnd).toString('utf8').split('\r\n');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
    if (next < 0) throw new Error('multipart part without a closing boundary');
    const disposition = headers.find((h) => /^content-disposition:/i.test(h)) ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) throw new Error('multipart part without a name');
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    const type = headers
      .find((h) => /^content-type:/i.test(h))
      ?.split(':')[1]
      ?.trim();
    parts.push({ name, filename, contentType: type, data: body.subarray(headerEnd + 4, next) });
    at = next + 2;
  }
}
