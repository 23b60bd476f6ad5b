import type { EInvoiceSyntax } from '../../../domain/extraction.js';
import { SUM_SEPARATOR, sumDecimals } from '../../../domain/extraction-evidence.js';
import { isoDate } from '../../../domain/extraction-values.js';
import { all, first, joinedText, type XmlNode } from './xml-tree.js';

/**
 * The values of a structured invoice (issue 29; docs/processing.md "E-invoices"), read from its XML as it is: UN/CEFACT
 * Cross Industry Invoice (Factur-X, ZUGFeRD 2.x, XRechnung CII: `rsm:CrossIndustryInvoice`), ZUGFeRD 1.0's older Cross
 * Industry Document (`urn:ferd:CrossIndustryDocument:invoice:1p0`), and OASIS UBL 2.x `Invoice` and `CreditNote`
 * (XRechnung UBL, Peppol BIS), and the Italian FatturaPA (`FatturaElettronica` 1.x, SdI, and the simplified
 * `FatturaElettronicaSemplificata` 1.0). Elements are found by their local names under the root (the two CII
 * generations name their aggregates differently: both are tried); the root's namespace decides the syntax.
 *
 * Every value keeps the element it came from (its path and text are the evidence). Values are normalised as the other
 * engines give them: dates `YYYY-MM-DD`, amounts and quantities as the XML writes them (plain decimals, a leading `+`
 * dropped), currencies ISO 4217 codes, VAT ids and IBANs compact, text with its whitespace made single.
 */

export const CII_NAMESPACES = [
  'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  'urn:ferd:CrossIndustryDocument:invoice:1p0',
  'urn:un:unece:uncefact:data:standard:CrossIndustryDocument:invoice:1p0',
] as const;
export const UBL_NAMESPACES = [
  'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
] as const;
/**
 * FatturaPA 1.2.x (Agenzia delle Entrate), and the earlier versions' namespaces on fatturapa.gov.it: 1.0 and 1.1's own
 * schema declares `http://www.fatturapa.gov.it/sdi/fatturapa/v1.x` (senders of those years wrote it so); the
 * `sv/sdi/fatture` spelling is kept as it was accepted before.
 */
export const FATTURAPA_NAMESPACE =
  /^http:\/\/(?:(?:ivaservizi\.agenziaentrate\.gov\.it\/docs\/xsd|www\.fatturapa\.gov\.it\/sv\/sdi)\/fatture|www\.fatturapa\.gov\.it\/sdi\/fatturapa)\/v1\.\d$/u;
/** The root elements' local names of the invoices this reader knows (any namespace; syntaxOf checks it). */
export const EINVOICE_ROOTS = [
  'CrossIndustryInvoice',
  'CrossIndustryDocument',
  'Invoice',
  'CreditNote',
  'FatturaElettronica',
  'FatturaElettronicaSemplificata',
] as const;
/**
 * Per syntax, the elements whose value is made of their children's, listed with their joined text for the evidence
 * check (xml-tree.ts leafTexts): a FatturaPA's VAT id (IdPaese + IdCodice) and a person's name (Nome + Cognome; in
 * the simplified FatturaPA they are the party's own children, CedentePrestatore or AltriDatiIdentificativi).
 */
export const COMPOSITE_ELEMENTS: Record<EInvoiceSyntax, ReadonlySet<string>> = {
  cii: new Set(),
  ubl: new Set(),
  fatturapa: new Set(['IdFiscaleIVA', 'Anagrafica', 'CedentePrestatore', 'AltriDatiIdentificativi']),
};

/** The syntax of a root element, or null when it is no invoice this reader knows. */
export function syntaxOf(root: XmlNode): EInvoiceSyntax | null {
  if (
    (root.local === 'CrossIndustryInvoice' || root.local === 'CrossIndustryDocument') &&
    (CII_NAMESPACES as readonly string[]).includes(root.uri)
  )
    return 'cii';
  if (
    (root.local === 'Invoice' || root.local === 'CreditNote') &&
    (UBL_NAMESPACES as readonly string[]).includes(root.uri)
  )
    return 'ubl';
  if (
    (root.local === 'FatturaElettronica' || root.local === 'FatturaElettronicaSemplificata') &&
    FATTURAPA_NAMESPACE.test(root.uri)
  )
    return 'fatturapa';
  return null;
}

/** A value and the element it was read from. */
export interface XmlValue {
  value: string;
  node: XmlNode;
}

export interface EInvoiceTax {
  rate: XmlValue | null;
  base: XmlValue | null;
  amount: XmlValue | null;
  category: string | null;
}

export interface EInvoiceLine {
  description: XmlValue | null;
  quantity: XmlValue | null;
  unit_price: XmlValue | null;
  /** The quantity the price is for (a price per 100 units), when not 1. */
  price_basis: string | null;
  amount: XmlValue | null;
}

export interface EInvoiceData {
  syntax: EInvoiceSyntax;
  /** Invoices the file holds (a FatturaPA batch has several FatturaElettronicaBody); the first is the one read. */
  invoices: number;
  /** UNTDID 1001 document type (380 invoice, 381 credit note…). */
  type_code: string | null;
  credit_note: boolean;
  number: XmlValue | null;
  issue_date: XmlValue | null;
  due_date: XmlValue | null;
  currency: XmlValue | null;
  seller_name: XmlValue | null;
  seller_vat_id: XmlValue | null;
  /** A national tax number (CII scheme FC; UBL another scheme than VAT). */
  seller_tax_number: XmlValue | null;
  seller_email: XmlValue | null;
  buyer_name: XmlValue | null;
  buyer_vat_id: XmlValue | null;
  buyer_tax_number: XmlValue | null;
  buyer_email: XmlValue | null;
  order_reference: XmlValue | null;
  iban: XmlValue | null;
  /** Sum of the line net amounts (CII LineTotalAmount, UBL LineExtensionAmount). */
  line_total: XmlValue | null;
  /** Total without VAT (CII TaxBasisTotalAmount, UBL TaxExclusiveAmount). */
  net_total: XmlValue | null;
  tax_total: XmlValue | null;
  /** Total with VAT (CII GrandTotalAmount, UBL TaxInclusiveAmount). */
  grand_total: XmlValue | null;
  /** Amount due for payment (CII DuePayableAmount, UBL PayableAmount). */
  due_payable: XmlValue | null;
  taxes: EInvoiceTax[];
  lines: EInvoiceLine[];
}

const text = (node: XmlNode | null): XmlValue | null => {
  const v = node?.text.replace(/\s+/gu, ' ').trim();
  return node && v ? { value: v, node } : null;
};

const decimal = (node: XmlNode | null): XmlValue | null => {
  const v = node?.text.trim().replace(/^\+/u, '');
  return node && v && /^-?\d{1,15}(\.\d{1,10})?$/u.test(v) ? { value: v, node } : null;
};

const code = (node: XmlNode | null): XmlValue | null => {
  const v = node?.text.trim().toUpperCase();
  return node && v && /^[A-Z]{3}$/u.test(v) ? { value: v, node } : null;
};

const compact = (node: XmlNode | null): XmlValue | null => {
  const v = node?.text.replace(/\s+/gu, '').toUpperCase();
  return node && v ? { value: v, node } : null;
};

/** An IBAN as the XML gives it (compact): one with a wrong checksum is kept, and the evidence check flags it. */
const iban = compact;

/** UBL `YYYY-MM-DD` (a time zone may follow), or CII `DateTimeString` of format 102 (`YYYYMMDD`). */
const date = (node: XmlNode | null): XmlValue | null => {
  const s = node?.text.trim() ?? '';
  const m = /^(\d{4})-?(\d{2})-?(\d{2})(?:Z|[+-]\d{2}:\d{2})?$/u.exec(s);
  const iso = m ? isoDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
  return node && iso ? { value: iso, node } : null;
};

/** The first of the values that is there. */
const either = <T>(...vs: Array<T | null>): T | null => vs.find((v) => v !== null) ?? null;

/** Reads the invoice of `root` (syntaxOf must have recognised it). */
export function readEInvoice(root: XmlNode): EInvoiceData {
  const syntax = syntaxOf(root);
  if (syntax === 'cii') return readCii(root);
  if (syntax === 'ubl') return readUbl(root);
  if (syntax === 'fatturapa')
    return root.local === 'FatturaElettronicaSemplificata' ? readFatturaPASemplificata(root) : readFatturaPA(root);
  throw new Error(`${root.name} is not an invoice this reader knows`);
}

function readCii(root: XmlNode): EInvoiceData {
  const doc = first(root, 'ExchangedDocument|HeaderExchangedDocument');
  const tx = first(root, 'SupplyChainTradeTransaction|SpecifiedSupplyChainTradeTransaction');
  const agreement = first(tx, 'ApplicableHeaderTradeAgreement|ApplicableSupplyChainTradeAgreement');
  const settlement = first(tx, 'ApplicableHeaderTradeSettlement|ApplicableSupplyChainTradeSettlement');
  const sum = first(
    settlement,
    'SpecifiedTradeSettlementHeaderMonetarySummation|SpecifiedTradeSettlementMonetarySummation',
  );
  const currency = code(first(settlement, 'InvoiceCurrencyCode'));
  const seller = first(agreement, 'SellerTradeParty');
  const buyer = first(agreement, 'BuyerTradeParty');
  /** The VAT number (scheme VA), and the national tax number (FC). */
  const taxId = (party: XmlNode | null, scheme: 'VA' | 'FC') =>
    compact(all(party, 'SpecifiedTaxRegistration', 'ID').find((i) => i.attributes['schemeID'] === scheme) ?? null);
  const email = (party: XmlNode | null) =>
    text(
      either(
        first(party, 'URIUniversalCommunication', 'URIID'),
        first(party, 'DefinedTradeContact', 'EmailURIUniversalCommunication', 'URIID'),
      ),
    );
  // The tax total may be given twice, in the invoice's currency and in the accounting currency: the invoice's.
  const taxTotals = all(sum, 'TaxTotalAmount');
  const taxTotal =
    taxTotals.find((t) => !currency || !t.attributes['currencyID'] || t.attributes['currencyID'] === currency.value) ??
    taxTotals[0] ??
    null;
  const typeCode = first(doc, 'TypeCode')?.text.trim() ?? null;
  const lines = all(tx, 'IncludedSupplyChainTradeLineItem')
    // A note line (IncludedNote only) has no product, quantity or amount.
    .filter((line) => first(line, 'SpecifiedTradeProduct'))
    .map((line): EInvoiceLine => {
      const lineAgreement = first(line, 'SpecifiedLineTradeAgreement|SpecifiedSupplyChainTradeAgreement');
      const delivery = first(line, 'SpecifiedLineTradeDelivery|SpecifiedSupplyChainTradeDelivery');
      const lineSettlement = first(line, 'SpecifiedLineTradeSettlement|SpecifiedSupplyChainTradeSettlement');
      const price = first(lineAgreement, 'NetPriceProductTradePrice');
      const basis = first(price, 'BasisQuantity')?.text.trim() ?? null;
      const product = first(line, 'SpecifiedTradeProduct');
      return {
        description: text(either(first(product, 'Name'), first(product, 'Description'))),
        quantity: decimal(first(delivery, 'BilledQuantity')),
        unit_price: decimal(first(price, 'ChargeAmount')),
        price_basis: basis !== null && Number(basis) !== 1 && Number(basis) !== 0 ? basis : null,
        amount: decimal(
          first(
            lineSettlement,
            'SpecifiedTradeSettlementLineMonetarySummation|SpecifiedTradeSettlementMonetarySummation',
            'LineTotalAmount',
          ),
        ),
      };
    });
  return {
    syntax: 'cii',
    invoices: 1,
    type_code: typeCode,
    credit_note: typeCode === '381' || typeCode === '261' || typeCode === '396',
    number: text(first(doc, 'ID')),
    issue_date: date(first(doc, 'IssueDateTime', 'DateTimeString')),
    due_date: date(first(settlement, 'SpecifiedTradePaymentTerms', 'DueDateDateTime', 'DateTimeString')),
    currency,
    seller_name: text(first(seller, 'Name')),
    seller_vat_id: taxId(seller, 'VA'),
    seller_tax_number: taxId(seller, 'FC'),
    seller_email: email(seller),
    buyer_name: text(first(buyer, 'Name')),
    buyer_vat_id: taxId(buyer, 'VA'),
    buyer_tax_number: taxId(buyer, 'FC'),
    buyer_email: email(buyer),
    order_reference: text(first(agreement, 'BuyerOrderReferencedDocument', 'IssuerAssignedID')),
    iban: either(
      ...all(settlement, 'SpecifiedTradeSettlementPaymentMeans', 'PayeePartyCreditorFinancialAccount', 'IBANID').map(
        iban,
      ),
    ),
    line_total: decimal(first(sum, 'LineTotalAmount')),
    net_total: decimal(first(sum, 'TaxBasisTotalAmount')),
    tax_total: decimal(taxTotal),
    grand_total: decimal(first(sum, 'GrandTotalAmount')),
    due_payable: decimal(first(sum, 'DuePayableAmount')),
    taxes: all(settlement, 'ApplicableTradeTax').map((t) => ({
      rate: decimal(either(first(t, 'RateApplicablePercent'), first(t, 'ApplicablePercent'))),
      base: decimal(first(t, 'BasisAmount')),
      amount: decimal(first(t, 'CalculatedAmount')),
      category: first(t, 'CategoryCode')?.text.trim() ?? null,
    })),
    lines,
  };
}

function readUbl(root: XmlNode): EInvoiceData {
  const credit = root.local === 'CreditNote';
  const party = (role: string) => first(root, role, 'Party');
  const name = (p: XmlNode | null) =>
    text(either(first(p, 'PartyLegalEntity', 'RegistrationName'), first(p, 'PartyName', 'Name')));
  /** The CompanyID of the VAT scheme, and of another scheme (a national tax number). */
  const taxId = (p: XmlNode | null, vat: boolean) =>
    compact(
      first(
        all(p, 'PartyTaxScheme').find(
          (s) => (first(s, 'TaxScheme', 'ID')?.text.trim().toUpperCase() === 'VAT') === vat,
        ) ?? null,
        'CompanyID',
      ),
    );
  const email = (p: XmlNode | null) => text(either(first(p, 'Contact', 'ElectronicMail'), null));
  const seller = party('AccountingSupplierParty');
  const buyer = party('AccountingCustomerParty');
  const currency = code(first(root, 'DocumentCurrencyCode'));
  const totals = first(root, 'LegalMonetaryTotal');
  // A second TaxTotal may give the tax in the accounting currency: the one in the document's currency.
  const taxTotals = all(root, 'TaxTotal');
  const taxTotal =
    taxTotals.find((t) => {
      const cur = first(t, 'TaxAmount')?.attributes['currencyID'];
      return !currency || !cur || cur === currency.value;
    }) ??
    taxTotals[0] ??
    null;
  const typeCode = first(root, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode')?.text.trim() ?? null;
  return {
    syntax: 'ubl',
    invoices: 1,
    type_code: typeCode,
    credit_note: credit || typeCode === '381',
    number: text(first(root, 'ID')),
    issue_date: date(first(root, 'IssueDate')),
    due_date: either(date(first(root, 'DueDate')), date(first(root, 'PaymentMeans', 'PaymentDueDate'))),
    currency,
    seller_name: name(seller),
    seller_vat_id: taxId(seller, true),
    seller_tax_number: taxId(seller, false),
    seller_email: email(seller),
    buyer_name: name(buyer),
    buyer_vat_id: taxId(buyer, true),
    buyer_tax_number: taxId(buyer, false),
    buyer_email: email(buyer),
    order_reference: text(first(root, 'OrderReference', 'ID')),
    iban: either(...all(root, 'PaymentMeans', 'PayeeFinancialAccount', 'ID').map(iban)),
    line_total: decimal(first(totals, 'LineExtensionAmount')),
    net_total: decimal(first(totals, 'TaxExclusiveAmount')),
    tax_total: decimal(first(taxTotal, 'TaxAmount')),
    grand_total: decimal(first(totals, 'TaxInclusiveAmount')),
    due_payable: decimal(first(totals, 'PayableAmount')),
    taxes: all(taxTotal, 'TaxSubtotal').map((t) => ({
      rate: decimal(first(t, 'TaxCategory', 'Percent')),
      base: decimal(first(t, 'TaxableAmount')),
      amount: decimal(first(t, 'TaxAmount')),
      category: first(t, 'TaxCategory', 'ID')?.text.trim() ?? null,
    })),
    lines: all(root, credit ? 'CreditNoteLine' : 'InvoiceLine').map((line): EInvoiceLine => {
      const basis = first(line, 'Price', 'BaseQuantity')?.text.trim() ?? null;
      return {
        description: text(either(first(line, 'Item', 'Name'), first(line, 'Item', 'Description'))),
        quantity: decimal(first(line, credit ? 'CreditedQuantity' : 'InvoicedQuantity|CreditedQuantity')),
        unit_price: decimal(first(line, 'Price', 'PriceAmount')),
        price_basis: basis !== null && Number(basis) !== 1 && Number(basis) !== 0 ? basis : null,
        amount: decimal(first(line, 'LineExtensionAmount')),
      };
    }),
  };
}

/** A value made of several elements: `node` stands for them (its path and text are the evidence's). */
const made = (value: string, path: string, snippet: string, like: XmlNode): XmlValue => ({
  value,
  node: { ...like, children: [], path, text: snippet },
});

/** The exact sum of the elements' decimals (their paths and texts joined by SUM_SEPARATOR); one element as it is. */
const sum = (nodes: Array<XmlNode | null>): XmlValue | null => {
  const parts = nodes.map(decimal);
  if (parts.length === 0 || parts.some((p) => p === null)) return null;
  if (parts.length === 1) return parts[0]!;
  const total = sumDecimals(parts.map((p) => p!.value));
  const join = (f: (n: XmlNode) => string) => nodes.map((n) => f(n!)).join(SUM_SEPARATOR);
  return total === null
    ? null
    : made(
        total,
        join((n) => n.path),
        join((n) => n.text),
        nodes[0]!,
      );
};

/** A FatturaPA's bodies, the first one and its DatiGeneraliDocumento, and the header's two parties. */
function fpaParts(root: XmlNode) {
  const header = first(root, 'FatturaElettronicaHeader');
  const bodies = all(root, 'FatturaElettronicaBody');
  const body = bodies[0] ?? null;
  return {
    bodies,
    body,
    doc: first(body, 'DatiGenerali', 'DatiGeneraliDocumento'),
    seller: first(header, 'CedentePrestatore'),
    buyer: first(header, 'CessionarioCommittente'),
  };
}

/** A FatturaPA party's Denominazione, or Nome + Cognome (their parent `reg` is the evidence). */
function fpaName(reg: XmlNode | null): XmlValue | null {
  const company = text(first(reg, 'Denominazione'));
  if (company || !reg) return company;
  const person = [first(reg, 'Nome'), first(reg, 'Cognome')]
    .map((n) => text(n)?.value)
    .filter(Boolean)
    .join(' ');
  return person ? made(person, reg.path, joinedText(reg), reg) : null;
}

/**
 * The IdFiscaleIVA under `holder` as IdPaese + IdCodice (the IdFiscaleIVA is the evidence); an IdCodice that already
 * starts with its IdPaese ("BE" and "BE0477472701", as some senders write a foreign party's) is not given the country
 * twice.
 */
function fpaVatId(holder: XmlNode | null): XmlValue | null {
  const id = first(holder, 'IdFiscaleIVA');
  const country = compact(first(id, 'IdPaese'));
  const number = compact(first(id, 'IdCodice'));
  if (!id || !country || !number) return null;
  const prefixed = number.value.toUpperCase().startsWith(country.value.toUpperCase());
  return made(prefixed ? number.value : `${country.value}${number.value}`, id.path, joinedText(id), id);
}

/**
 * FatturaPA (FatturaElettronica 1.x): the parties are the header's (CedentePrestatore, CessionarioCommittente), the
 * invoice is the first FatturaElettronicaBody (a file may hold several: `invoices` says how many). The total is
 * ImportoTotaleDocumento (optional: not computed when absent); the subtotal and tax are the sums of ImponibileImporto
 * and Imposta over the VAT summaries (DatiRiepilogo), as the format has no such totals; the due date and IBAN are the
 * first payment detail's that gives them.
 */
function readFatturaPA(root: XmlNode): EInvoiceData {
  const { bodies, body, doc, seller, buyer } = fpaParts(root);
  const name = (party: XmlNode | null) => fpaName(first(party, 'DatiAnagrafici', 'Anagrafica'));
  const vatId = (party: XmlNode | null) => fpaVatId(first(party, 'DatiAnagrafici'));
  const goods = first(body, 'DatiBeniServizi');
  const summaries = all(goods, 'DatiRiepilogo');
  const payments = all(body, 'DatiPagamento', 'DettaglioPagamento');
  const typeCode = first(doc, 'TipoDocumento')?.text.trim() ?? null;
  return {
    syntax: 'fatturapa',
    invoices: bodies.length,
    type_code: typeCode,
    // TD04 nota di credito, TD08 nota di credito semplificata.
    credit_note: typeCode === 'TD04' || typeCode === 'TD08',
    number: text(first(doc, 'Numero')),
    issue_date: date(first(doc, 'Data')),
    due_date: either(...payments.map((p) => date(first(p, 'DataScadenzaPagamento')))),
    currency: code(first(doc, 'Divisa')),
    seller_name: name(seller),
    seller_vat_id: vatId(seller),
    seller_tax_number: compact(first(seller, 'DatiAnagrafici', 'CodiceFiscale')),
    seller_email: text(first(seller, 'Contatti', 'Email')),
    buyer_name: name(buyer),
    buyer_vat_id: vatId(buyer),
    buyer_tax_number: compact(first(buyer, 'DatiAnagrafici', 'CodiceFiscale')),
    buyer_email: null,
    order_reference: text(first(body, 'DatiGenerali', 'DatiOrdineAcquisto', 'IdDocumento')),
    iban: either(...payments.map((p) => iban(first(p, 'IBAN')))),
    line_total: null,
    // Both are mandatory in each summary: a summary without one leaves the sum out rather than a part of it.
    net_total: sum(summaries.map((r) => first(r, 'ImponibileImporto'))),
    tax_total: sum(summaries.map((r) => first(r, 'Imposta'))),
    grand_total: decimal(first(doc, 'ImportoTotaleDocumento')),
    // The amount of the one payment (with split payment or a withholding it is less than the total); with
    // instalments there is no single amount due.
    due_payable: payments.length === 1 ? decimal(first(payments[0], 'ImportoPagamento')) : null,
    taxes: summaries.map((r) => ({
      rate: decimal(first(r, 'AliquotaIVA')),
      base: decimal(first(r, 'ImponibileImporto')),
      amount: decimal(first(r, 'Imposta')),
      category: first(r, 'Natura')?.text.trim() ?? null,
    })),
    lines: all(goods, 'DettaglioLinee').map((line): EInvoiceLine => ({
      description: text(first(line, 'Descrizione')),
      quantity: decimal(first(line, 'Quantita')),
      unit_price: decimal(first(line, 'PrezzoUnitario')),
      price_basis: null,
      amount: decimal(first(line, 'PrezzoTotale')),
    })),
  };
}

/**
 * The simplified FatturaPA (FatturaElettronicaSemplificata 1.0, FSM10: invoices up to a small amount, TD07-TD09): the
 * seller's name and VAT id are CedentePrestatore's own children, the buyer's under IdentificativiFiscali and
 * AltriDatiIdentificativi; each DatiBeniServizi is a line of a description and an amount that includes its VAT
 * (Importo), the VAT given as an amount (DatiIVA/Imposta) or only as a rate (DatiIVA/Aliquota). The total is the sum of
 * the amounts; the tax the sum of the VAT amounts when every line states one (a rate alone states no amount); no
 * subtotal is stated. No payment data, quantities or unit prices exist in this format.
 */
function readFatturaPASemplificata(root: XmlNode): EInvoiceData {
  const { bodies, body, doc, seller, buyer } = fpaParts(root);
  const goods = all(body, 'DatiBeniServizi');
  const taxes = goods.map((g) => first(g, 'DatiIVA', 'Imposta'));
  const typeCode = first(doc, 'TipoDocumento')?.text.trim() ?? null;
  return {
    syntax: 'fatturapa',
    invoices: bodies.length,
    type_code: typeCode,
    // TD08 nota di credito semplificata.
    credit_note: typeCode === 'TD08',
    number: text(first(doc, 'Numero')),
    issue_date: date(first(doc, 'Data')),
    due_date: null,
    currency: code(first(doc, 'Divisa')),
    seller_name: fpaName(seller),
    seller_vat_id: fpaVatId(seller),
    seller_tax_number: compact(first(seller, 'CodiceFiscale')),
    seller_email: null,
    buyer_name: fpaName(first(buyer, 'AltriDatiIdentificativi')),
    buyer_vat_id: fpaVatId(first(buyer, 'IdentificativiFiscali')),
    buyer_tax_number: compact(first(buyer, 'IdentificativiFiscali', 'CodiceFiscale')),
    buyer_email: null,
    order_reference: null,
    iban: null,
    line_total: null,
    net_total: null,
    tax_total: goods.length > 0 && taxes.every((t) => t !== null) ? sum(taxes) : null,
    grand_total: goods.length > 0 ? sum(goods.map((g) => first(g, 'Importo'))) : null,
    due_payable: null,
    taxes: goods.map((g, i) => ({
      rate: decimal(first(g, 'DatiIVA', 'Aliquota')),
      base: null,
      amount: decimal(taxes[i] ?? null),
      category: first(g, 'Natura')?.text.trim() ?? null,
    })),
    lines: goods.map((g): EInvoiceLine => ({
      description: text(first(g, 'Descrizione')),
      quantity: null,
      unit_price: null,
      price_basis: null,
      amount: decimal(first(g, 'Importo')),
    })),
  };
}
