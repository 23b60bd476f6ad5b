import { SaxesParser, type SaxesTagNS } from 'saxes';
import type { XmlElementText } from '../../../domain/extraction.js';

/**
 * A safe, small XML reader for e-invoices (issue 29): saxes (a strict, non-validating SAX parser that never fetches
 * anything) builds a tree of elements with their namespaces and text. Refused, with an XmlRefused naming why:
 * a DOCTYPE (so no entity can be declared: no XXE, no "billion laughs"; saxes itself expands only the five
 * predefined entities and character references), more than MAX_XML_BYTES, more than MAX_ELEMENTS elements, nesting
 * deeper than MAX_DEPTH, and XML that is not well-formed.
 */

/** Bytes of an e-invoice XML read at most (real ones are tens of kilobytes; 5 MB is some thousands of lines). */
export const MAX_XML_BYTES = 5_000_000;
/** Elements of one XML read at most. */
export const MAX_ELEMENTS = 200_000;
/** Nesting depth read at most (CII reaches about 10). */
export const MAX_DEPTH = 64;

/** The XML was refused or is not well-formed; the message says why, for the client. */
export class XmlRefused extends Error {}

export interface XmlNode {
  /** The qualified name as written (`ram:ID`). */
  name: string;
  local: string;
  /** The namespace URI ('' for none). */
  uri: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  /** The element's own text (its text and CDATA children joined), trimmed. */
  text: string;
  /** Its path (XmlElementText.path). */
  path: string;
}

/** Parses `xml` into its root element; throws XmlRefused. */
export function parseXml(xml: string | Buffer): XmlNode {
  const bytes = typeof xml === 'string' ? Buffer.byteLength(xml) : xml.length;
  if (bytes > MAX_XML_BYTES) throw new XmlRefused(`the XML has ${bytes} bytes, more than the ${MAX_XML_BYTES} read`);
  const text = (typeof xml === 'string' ? xml : decodeXml(xml)).replace(/^\uFEFF/u, '');
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: Array<{ node: XmlNode; text: string[]; seen: Map<string, number> }> = [];
  let root: XmlNode | null = null;
  let count = 0;
  let failure: Error | null = null;
  parser.on('error', (e) => {
    failure ??= new XmlRefused(`the XML is not well-formed (${e.message.replace(/^[^:]*:\d+:\d+: /u, '')})`);
  });
  parser.on('doctype', () => {
    failure ??= new XmlRefused(
      'the XML declares a DOCTYPE; document type declarations and entities are not accepted in an e-invoice',
    );
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (failure) return;
    if (++count > MAX_ELEMENTS) failure = new XmlRefused(`the XML has more than ${MAX_ELEMENTS} elements`);
    if (stack.length >= MAX_DEPTH) failure = new XmlRefused(`the XML nests elements deeper than ${MAX_DEPTH} levels`);
    const parent = stack.at(-1);
    const n = parent ? (parent.seen.get(tag.name) ?? 0) + 1 : 1;
    parent?.seen.set(tag.name, n);
    const attributes: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) attributes[a.local] = a.value;
    const node: XmlNode = {
      name: tag.name,
      local: tag.local,
      uri: tag.uri,
      attributes,
      children: [],
      text: '',
      path: `${parent?.node.path ?? ''}/${tag.name}${n > 1 ? `[${n}]` : ''}`,
    };
    if (parent) parent.node.children.push(node);
    else root = node;
    stack.push({ node, text: [], seen: new Map() });
  });
  const addText = (t: string) => stack.at(-1)?.text.push(t);
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    const top = stack.pop();
    if (top) top.node.text = top.text.join('').trim();
  });
  try {
    // In pieces, so a refusal stops the work early.
    for (let i = 0; i < text.length && !failure; i += 65_536) parser.write(text.slice(i, i + 65_536));
    if (!failure) parser.close();
  } catch (e) {
    failure ??= new XmlRefused(`the XML is not well-formed (${(e as Error).message})`);
  }
  if (failure) throw failure instanceof XmlRefused ? failure : new XmlRefused(failure.message);
  if (!root) throw new XmlRefused('the XML has no root element');
  return root;
}

/** The bytes as text: UTF-8 (with or without a BOM) or UTF-16 with a BOM; an `encoding="ISO-8859-1"` declaration is honoured. */
export function decodeXml(buf: Buffer): string {
  if (buf.length > MAX_XML_BYTES)
    throw new XmlRefused(`the XML has ${buf.length} bytes, more than the ${MAX_XML_BYTES} read`);
  if (buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf);
  if (buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf);
  const head = buf.subarray(0, 200).toString('latin1');
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/u.exec(head)?.[1]?.toLowerCase();
  if (declared && declared !== 'utf-8' && declared !== 'utf8') {
    try {
      const text = new TextDecoder(declared).decode(buf);
      // saxes reads the declaration too; the text is now Unicode.
      return text.replace(/^(\s*<\?xml[^>]*encoding\s*=\s*["'])[^"']+/u, '$1UTF-8');
    } catch {
      throw new XmlRefused(`the XML's encoding ${declared} is not supported`);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    throw new XmlRefused('the XML is not valid UTF-8');
  }
}

/**
 * Every element without child elements and with text, in document order (what evidence of `source: 'xml'` names),
 * and each element whose local name is in `composites` (a value made of its children's: XmlElementText), with its
 * joinedText, before its children.
 */
export function leafTexts(root: XmlNode, composites: ReadonlySet<string> = new Set()): XmlElementText[] {
  const out: XmlElementText[] = [];
  const walk = (n: XmlNode) => {
    if (n.children.length === 0) {
      if (n.text) out.push({ path: n.path, text: n.text });
      return;
    }
    if (composites.has(n.local)) {
      const text = joinedText(n);
      if (text) out.push({ path: n.path, text });
    }
    n.children.forEach(walk);
  };
  walk(root);
  return out;
}

/** The texts of the element and its descendants, in document order, joined by a space. */
export function joinedText(node: XmlNode): string {
  const parts: string[] = [];
  const walk = (n: XmlNode) => {
    if (n.text) parts.push(n.text);
    n.children.forEach(walk);
  };
  walk(node);
  return parts.join(' ').replace(/\s+/gu, ' ').trim();
}

/** The children of `node` with one of the local names (namespaces are checked by the root, not per step). */
export function childrenOf(node: XmlNode | null | undefined, ...locals: string[]): XmlNode[] {
  return node ? node.children.filter((c) => locals.includes(c.local)) : [];
}

/** The first node reached by the steps (each step a local name, or alternatives `A|B`), or null. */
export function first(node: XmlNode | null | undefined, ...steps: string[]): XmlNode | null {
  let cur: XmlNode | null | undefined = node;
  for (const step of steps) {
    cur = childrenOf(cur, ...step.split('|'))[0];
    if (!cur) return null;
  }
  return cur ?? null;
}

/** Every node reached by the steps (the last step may match several), in document order. */
export function all(node: XmlNode | null | undefined, ...steps: string[]): XmlNode[] {
  if (!node) return [];
  if (steps.length === 0) return [node];
  const [head, ...rest] = steps;
  return childrenOf(node, ...head!.split('|')).flatMap((c) => all(c, ...rest));
}
