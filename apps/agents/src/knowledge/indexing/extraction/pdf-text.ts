import { extractText, getDocumentProxy } from 'unpdf';
import { PermanentJobError } from '../../jobs/kb-job';

/**
 * The text of a PDF, pages separated by blank lines, through unpdf (PDF.js built for servers: no native
 * dependencies, nothing fetched at run time). A file PDF.js cannot open is a permanent failure.
 */
export async function pdfText(bytes: Buffer): Promise<string> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // PDF.js takes ownership of the array it is given: hand it a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: false });
  } catch (err) {
    throw new PermanentJobError(`not a readable PDF: ${(err as Error).message}`);
  }
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    return text.join('\n\n');
  } finally {
    await pdf.destroy();
  }
}
