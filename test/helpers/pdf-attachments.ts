import type { PDFString, PDFHexString } from 'pdf-lib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream } from 'pdf-lib';

/** Reads the embedded files of a PDF (name -> bytes) through its EmbeddedFiles name tree. */
export async function readAttachments(pdf: Uint8Array): Promise<Map<string, Buffer>> {
  const doc = await PDFDocument.load(pdf);
  const out = new Map<string, Buffer>();
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const embedded = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const list = embedded?.lookupMaybe(PDFName.of('Names'), PDFArray);
  if (!list) return out;
  for (let i = 0; i < list.size(); i += 2) {
    const name = list.lookup(i) as PDFString | PDFHexString;
    const spec = list.lookup(i + 1, PDFDict);
    const ef = spec.lookup(PDFName.of('EF'), PDFDict);
    const stream = ef.lookup(PDFName.of('F'));
    if (!(stream instanceof PDFRawStream)) throw new Error(`attachment ${name.decodeText()} has no raw stream`);
    out.set(name.decodeText(), Buffer.from(decodePDFRawStream(stream).decode()));
  }
  return out;
}
