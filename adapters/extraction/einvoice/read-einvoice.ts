import type { EInvoiceSyntax } from '../../../domain/extraction.js';
import { isoDate } from '../../../domain/extraction-values.js';
import { all, first, type XmlNode } from './xml-tree.js';

/**
 * The values of a structured invoice (issue 29; docs/processing.md "E-invoices"), read from its XML as it is: UN/CEFACT
 * Cross Industry Invoice (Factur-X, ZUGFeRD 2.x, XRechnung CII: `rsm:CrossIndustryInvoice`), ZUGFeRD 1.0's older
 * Cross Industry Document (`urn:ferd:CrossIndustryDocument:invoice:1p0`), and OASIS UBL 2.x `Invoice` and
 * `CreditNote` (XRechnung UBL, Peppol BIS). Elements are found by their local names under the root (the two CII
 * generations name their aggregates differently: both are tried); the root's namespace decides the syntax.
 *
 * Every value keeps the element it came from (its path and text are the evidence). Values are normalised as the
 * other engines give them: dates `YYYY-MM-DD`, amounts and quantities as the XML writes them (plain decimals, a
 * leading `+` dropped), currencies ISO 4217 codes, VAT ids and IBANs compact, text with its whitespace made single.
 */

export const CII_NAMESPACES = [
  'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  'urn:ferd:CrossIndustryDocument:invoice:1p0',
  'urn:un:unece:uncefact:data:standard:CrossIndustryDocument:invoice:1p0',
] as const;
export const UBL_NAMESPACES = ['urn:oasis:names:specification:ubl:schema:xsd:Invoice-2', 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2'] as const;

/** The syntax of a root element, or null when it is no invoice this reader knows. */
export function syntaxOf(root: XmlNode): EInvoiceSyntax | null {
  if ((root.local === 'CrossIndustryInvoice' || root.local === 'CrossIndustryDocument') && (CII_NAMESPACES as readonly string[]).includes(root.uri)) return 'cii';
  if ((root.local === 'Invoice' || root.local === 'CreditNote') && (UBL_NAMESPACES as readonly string[]).includes(root.uri)) return 'ubl';
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
  throw new Error(`${root.name} is not an invoice this reader knows`);
}

function readCii(root: XmlNode): EInvoiceData {
  const doc = first(root, 'ExchangedDocument|HeaderExchangedDocument');
  const tx = first(root, 'SupplyChainTradeTransaction|SpecifiedSupplyChainTradeTransaction');
  const agreement = first(tx, 'ApplicableHeaderTradeAgreement|ApplicableSupplyChainTradeAgreement');
  const settlement = first(tx, 'ApplicableHeaderTradeSettlement|ApplicableSupplyChainTradeSettlement');
  const sum = first(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation|SpecifiedTradeSettlementMonetarySummation');
  const currency = code(first(settlement, 'InvoiceCurrencyCode'));
  const seller = first(agreement, 'SellerTradeParty');
  const buyer = first(agreement, 'BuyerTradeParty');
  /** The VAT number (scheme VA), and the national tax number (FC). */
  const taxId = (party: XmlNode | null, scheme: 'VA' | 'FC') => compact(all(party, 'SpecifiedTaxRegistration', 'ID').find((i) => i.attributes['schemeID'] === scheme) ?? null);
  const email = (party: XmlNode | null) => text(either(first(party, 'URIUniversalCommunication', 'URIID'), first(party, 'DefinedTradeContact', 'EmailURIUniversalCommunication', 'URIID')));
  // The tax total may be given twice, in the invoice's currency and in the accounting currency: the invoice's.
  const taxTotals = all(sum, 'TaxTotalAmount');
  const taxTotal = taxTotals.find((t) => !currency || !t.attributes['currencyID'] || t.attributes['currencyID'] === currency.value) ?? taxTotals[0] ?? null;
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
        amount: decimal(first(lineSettlement, 'SpecifiedTradeSettlementLineMonetarySummation|SpecifiedTradeSettlementMonetarySummation', 'LineTotalAmount')),
      };
    });
  return {
    syntax: 'cii',
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
    iban: either(...all(settlement, 'SpecifiedTradeSettlementPaymentMeans', 'PayeePartyCreditorFinancialAccount', 'IBANID').map(iban)),
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
  const name = (p: XmlNode | null) => text(either(first(p, 'PartyLegalEntity', 'RegistrationName'), first(p, 'PartyName', 'Name')));
  /** The CompanyID of the VAT scheme, and of another scheme (a national tax number). */
  const taxId = (p: XmlNode | null, vat: boolean) =>
    compact(first(all(p, 'PartyTaxScheme').find((s) => (first(s, 'TaxScheme', 'ID')?.text.trim().toUpperCase() === 'VAT') === vat) ?? null, 'CompanyID'));
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
    }) ?? taxTotals[0] ?? null;
  const typeCode = first(root, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode')?.text.trim() ?? null;
  return {
    syntax: 'ubl',
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
