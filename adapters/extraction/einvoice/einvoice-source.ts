import { readFile, stat } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFString,
  type PDFObject,
} from 'pdf-lib';
import type { EInvoiceXml } from '../../../domain/extraction.js';
import { COMPOSITE_ELEMENTS, EINVOICE_ROOTS, syntaxOf } from './read-einvoice.js';
import { decodeXml, leafTexts, MAX_XML_BYTES, parseXml, XmlRefused, type XmlNode } from './xml-tree.js';

/**
 * Where a `flow-extract` source's e-invoice comes from (issue 29; docs/processing.md "E-invoices"):
 * - a PDF's embedded files (the catalog's EmbeddedFiles name tree and its associated files, `/AF`, as PDF/A-3 and
 *   Factur-X attach them), read with pdf-lib: `factur-x.xml`, `zugferd-invoice.xml`, `ZUGFeRD-invoice.xml` (1.0),
 *   `xrechnung.xml` first, then any other `.xml` attachment; the first that is a CII or UBL invoice is taken;
 * - an uploaded text source that is such an invoice itself (its root element `rsm:CrossIndustryInvoice`,
 *   ZUGFeRD 1.0's `rsm:CrossIndustryDocument`, UBL `Invoice` or `CreditNote`, FatturaPA `p:FatturaElettronica` or its
 *   simplified `FatturaElettronicaSemplificata`; a signed FatturaPA, `.xml.p7m`, is a CMS envelope, not XML, and stays
 *   unread).
 * The XML is parsed safely (xml-tree.ts: no DOCTYPE or entities, at most MAX_XML_BYTES); an attachment is inflated
 * with a cap on its output, so a compressed bomb is refused without being expanded.
 */

/** A parsed e-invoice: what the evidence check is given (EInvoiceXml) and the tree the engine reads. */
export interface SourceEInvoice {
  xml: EInvoiceXml;
  root: XmlNode;
}

/** The names e-invoice standards give their embedded XML, most specific first (compared case-insensitively). */
const STANDARD_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'order-x.xml'];
/** PDFs larger than this are not searched for an embedded invoice (e-invoice PDFs are some hundred kilobytes). */
export const MAX_PDF_BYTES = 50_000_000;
/** Attachments looked at, at most. */
const MAX_ATTACHMENTS = 20;

function parsed(bytes: Buffer, file: string | null): SourceEInvoice | null {
  const text = decodeXml(bytes);
  const root = parseXml(text);
  const syntax = syntaxOf(root);
  return syntax ? { root, xml: { file, syntax, text, elements: leafTexts(root, COMPOSITE_ELEMENTS[syntax]) } } : null;
}

/** An uploaded text source: its e-invoice when it is one (null for any other text); an XmlRefused when it is a refused one. */
export function einvoiceOfText(bytes: Buffer): SourceEInvoice | null {
  const head = bytes
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/u, '');
  if (!/^\s*</u.test(head)) return null;
  // The root element's local name, after the declaration, comments, processing instructions and a DOCTYPE.
  const root =
    /^\s*(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>\s*)*<(?:[\w.-]+:)?([\w.-]+)/u.exec(
      head,
    )?.[1];
  if (!root || !(EINVOICE_ROOTS as readonly string[]).includes(root)) return null;
  // An invoice's root: parsed (a DOCTYPE, entities or malformed XML are refused with XmlRefused), and read as an
  // e-invoice when its namespace is one (an `Invoice` element of another vocabulary stays text).
  return parsed(bytes, null);
}

const str = (o: PDFObject | undefined): string | null =>
  o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : null;

/** The PDF's embedded e-invoice, and notes on attachments that were refused. Never throws for the PDF's sake. */
export async function einvoiceOfPdf(path: string): Promise<{ einvoice: SourceEInvoice | null; warnings: string[] }> {
  const warnings: string[] = [];
  // E-invoice PDFs are small; a large PDF (a long scan) is not parsed a second time to look for one.
  if ((await stat(path)).size > MAX_PDF_BYTES) return { einvoice: null, warnings };
  const bytes = await readFile(path);
  // A file specification names /EF and an attachment's stream dictionary (never in an object stream) mostly
  // /EmbeddedFile; without these and without object streams the PDF has no attachment, and pdf-lib need not read it.
  if (!bytes.includes('/EF') && !bytes.includes('/EmbeddedFile') && !bytes.includes('/ObjStm'))
    return { einvoice: null, warnings };
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
  } catch {
    return { einvoice: null, warnings };
  }
  let specs: Array<{ name: string; dict: PDFDict }>;
  try {
    specs = fileSpecs(doc);
  } catch {
    return { einvoice: null, warnings };
  }
  const ranked = specs
    .map((s) => ({ ...s, rank: STANDARD_NAMES.indexOf(s.name.toLowerCase()) }))
    .filter((s) => s.rank >= 0 || /\.xml$/iu.test(s.name))
    .sort((a, b) => (a.rank < 0 ? 99 : a.rank) - (b.rank < 0 ? 99 : b.rank));
  for (const spec of ranked.slice(0, MAX_ATTACHMENTS)) {
    try {
      const data = attachmentBytes(spec.dict);
      if (!data) continue;
      const found = parsed(data, spec.name);
      if (found) return { einvoice: found, warnings };
    } catch (e) {
      warnings.push(
        `the PDF's attached ${spec.name} was not read: ${e instanceof XmlRefused ? e.message : 'it could not be unpacked'}`,
      );
    }
  }
  return { einvoice: null, warnings };
}

/** The file specifications of the PDF's EmbeddedFiles name tree and of its catalog's /AF, each once. */
function fileSpecs(doc: PDFDocument): Array<{ name: string; dict: PDFDict }> {
  const out: Array<{ name: string; dict: PDFDict }> = [];
  const seen = new Set<PDFDict>();
  const lookup = (o: PDFObject | undefined) => (o === undefined ? undefined : doc.context.lookup(o));
  const add = (spec: PDFObject | undefined, key: string | null) => {
    const dict = lookup(spec);
    if (!(dict instanceof PDFDict) || seen.has(dict)) return;
    seen.add(dict);
    const name = str(lookup(dict.get(PDFName.of('UF')))) ?? str(lookup(dict.get(PDFName.of('F')))) ?? key ?? '';
    out.push({ name: name.split(/[\\/]/u).pop() ?? name, dict });
  };
  const walk = (node: PDFObject | undefined, depth: number) => {
    const dict = lookup(node);
    if (!(dict instanceof PDFDict) || depth > 10 || out.length > 100) return;
    const names = lookup(dict.get(PDFName.of('Names')));
    if (names instanceof PDFArray)
      for (let i = 0; i + 1 < names.size(); i += 2) add(names.get(i + 1), str(lookup(names.get(i))));
    const kids = lookup(dict.get(PDFName.of('Kids')));
    if (kids instanceof PDFArray) for (let i = 0; i < kids.size(); i++) walk(kids.get(i), depth + 1);
  };
  const catalogNames = lookup(doc.catalog.get(PDFName.of('Names')));
  if (catalogNames instanceof PDFDict) walk(catalogNames.get(PDFName.of('EmbeddedFiles')), 0);
  const af = lookup(doc.catalog.get(PDFName.of('AF')));
  if (af instanceof PDFArray) for (let i = 0; i < af.size(); i++) add(af.get(i), null);
  return out;
}

/** An attachment's bytes (its /EF /F stream), uncompressed (FlateDecode or none), at most MAX_XML_BYTES; else null. */
function attachmentBytes(spec: PDFDict): Buffer | null {
  const ctx = spec.context;
  const ef = ctx.lookup(spec.get(PDFName.of('EF')));
  if (!(ef instanceof PDFDict)) return null;
  const stream = ctx.lookup(ef.get(PDFName.of('F')) ?? ef.get(PDFName.of('UF')));
  if (!(stream instanceof PDFRawStream)) return null;
  const filter = ctx.lookup(stream.dict.get(PDFName.of('Filter')));
  const filters = filter instanceof PDFArray ? filter.asArray().map((f) => ctx.lookup(f)) : filter ? [filter] : [];
  const contents = Buffer.from(stream.contents);
  if (filters.length === 0) {
    if (contents.length > MAX_XML_BYTES) throw new XmlRefused(`it has more than ${MAX_XML_BYTES} bytes`);
    return contents;
  }
  if (filters.length !== 1 || !(filters[0] instanceof PDFName) || filters[0].asString() !== '/FlateDecode') return null;
  try {
    return inflateSync(contents, { maxOutputLength: MAX_XML_BYTES });
  } catch (e) {
    if (e instanceof RangeError) throw new XmlRefused(`it unpacks to more than ${MAX_XML_BYTES} bytes`);
    throw new XmlRefused('its compressed data is damaged');
  }
}
