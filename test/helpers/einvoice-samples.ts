import { AFRelationship, PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * Small e-invoices written here for the tests (issue 29): the real ones that public packages ship are AGPL/EUPL and
 * are not committed. CII (Factur-X / ZUGFeRD 2.x), ZUGFeRD 1.0's older CII, UBL Invoice and CreditNote, and a PDF
 * that shows an invoice and carries its XML as an attachment (pdf-lib), optionally printing another total than its XML.
 */

export interface SampleLine {
  description: string;
  quantity: string;
  unit_price: string;
  amount: string;
  /** VAT rate in %. */
  rate: string;
}

export interface SampleInvoice {
  number: string;
  /** YYYY-MM-DD */
  issue_date: string;
  due_date: string | null;
  currency: string;
  seller: { name: string; vat_id: string; email?: string };
  buyer: { name: string; vat_id: string | null };
  iban: string | null;
  lines: SampleLine[];
  /** Per rate: base and tax. */
  taxes: Array<{ rate: string; base: string; amount: string }>;
  net_total: string;
  tax_total: string;
  grand_total: string;
  due_payable: string;
}

/** Two lines at 19 % and one at 7 %: two tax rates. */
export const SAMPLE: SampleInvoice = {
  number: 'RE-2026-0815',
  issue_date: '2026-03-15',
  due_date: '2026-04-14',
  currency: 'EUR',
  seller: { name: 'Muster Lieferant GmbH', vat_id: 'DE123456788', email: 'billing@muster.example' },
  buyer: { name: 'Käufer & Söhne AG', vat_id: 'DE987654328' },
  iban: 'DE89370400440532013000',
  lines: [
    { description: 'Beratung & Konzept', quantity: '10.0000', unit_price: '95.00', amount: '950.00', rate: '19.00' },
    { description: 'Druckerpapier A4 <80 g>', quantity: '4', unit_price: '12.50', amount: '50.00', rate: '19.00' },
    { description: 'Fachbuch Rechnungswesen', quantity: '2', unit_price: '49.90', amount: '99.80', rate: '7.00' },
  ],
  taxes: [
    { rate: '19.00', base: '1000.00', amount: '190.00' },
    { rate: '7.00', base: '99.80', amount: '6.99' },
  ],
  net_total: '1099.80',
  tax_total: '196.99',
  grand_total: '1296.79',
  due_payable: '1296.79',
};

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const d102 = (iso: string) => iso.replace(/-/g, '');

/** A Factur-X / ZUGFeRD 2.x (EN 16931) CII invoice; `zugferd1` writes ZUGFeRD 1.0's CrossIndustryDocument instead. */
export function ciiXml(inv: SampleInvoice, opts: { zugferd1?: boolean; typeCode?: string } = {}): string {
  const z1 = opts.zugferd1 ?? false;
  const party = (tag: string, p: { name: string; vat_id: string | null; email?: string }) => `
      <ram:${tag}>
        <ram:Name>${esc(p.name)}</ram:Name>${
          p.email
            ? `
        <ram:URIUniversalCommunication><ram:URIID schemeID="EM">${esc(p.email)}</ram:URIID></ram:URIUniversalCommunication>`
            : ''
        }
        <ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">201/113/40209</ram:ID></ram:SpecifiedTaxRegistration>${
          p.vat_id
            ? `
        <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${p.vat_id}</ram:ID></ram:SpecifiedTaxRegistration>`
            : ''
        }
      </ram:${tag}>`;
  const lines = inv.lines
    .map(
      (l, i) => `
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>${
        z1
          ? ''
          : `
      <ram:SpecifiedTradeProduct><ram:Name>${esc(l.description)}</ram:Name></ram:SpecifiedTradeProduct>`
      }
      <ram:${z1 ? 'SpecifiedSupplyChainTradeAgreement' : 'SpecifiedLineTradeAgreement'}>
        <ram:NetPriceProductTradePrice><ram:ChargeAmount>${l.unit_price}</ram:ChargeAmount></ram:NetPriceProductTradePrice>
      </ram:${z1 ? 'SpecifiedSupplyChainTradeAgreement' : 'SpecifiedLineTradeAgreement'}>
      <ram:${z1 ? 'SpecifiedSupplyChainTradeDelivery' : 'SpecifiedLineTradeDelivery'}><ram:BilledQuantity unitCode="C62">${l.quantity}</ram:BilledQuantity></ram:${z1 ? 'SpecifiedSupplyChainTradeDelivery' : 'SpecifiedLineTradeDelivery'}>
      <ram:${z1 ? 'SpecifiedSupplyChainTradeSettlement' : 'SpecifiedLineTradeSettlement'}>
        <ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:${z1 ? 'ApplicablePercent' : 'RateApplicablePercent'}>${l.rate}</ram:${z1 ? 'ApplicablePercent' : 'RateApplicablePercent'}></ram:ApplicableTradeTax>
        <ram:${z1 ? 'SpecifiedTradeSettlementMonetarySummation' : 'SpecifiedTradeSettlementLineMonetarySummation'}><ram:LineTotalAmount>${l.amount}</ram:LineTotalAmount></ram:${z1 ? 'SpecifiedTradeSettlementMonetarySummation' : 'SpecifiedTradeSettlementLineMonetarySummation'}>
      </ram:${z1 ? 'SpecifiedSupplyChainTradeSettlement' : 'SpecifiedLineTradeSettlement'}>${
        z1
          ? `
      <ram:SpecifiedTradeProduct><ram:Name>${esc(l.description)}</ram:Name></ram:SpecifiedTradeProduct>`
          : ''
      }
    </ram:IncludedSupplyChainTradeLineItem>`,
    )
    .join('');
  const taxes = inv.taxes
    .map(
      (t) => `
      <ram:ApplicableTradeTax>
        <ram:CalculatedAmount${z1 ? ` currencyID="${inv.currency}"` : ''}>${t.amount}</ram:CalculatedAmount>
        <ram:TypeCode>VAT</ram:TypeCode>
        <ram:BasisAmount${z1 ? ` currencyID="${inv.currency}"` : ''}>${t.base}</ram:BasisAmount>
        <ram:CategoryCode>S</ram:CategoryCode>
        <ram:${z1 ? 'ApplicablePercent' : 'RateApplicablePercent'}>${t.rate}</ram:${z1 ? 'ApplicablePercent' : 'RateApplicablePercent'}>
      </ram:ApplicableTradeTax>`,
    )
    .join('');
  const payment = inv.iban
    ? `
      <ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>${inv.iban}</ram:IBANID></ram:PayeePartyCreditorFinancialAccount></ram:SpecifiedTradeSettlementPaymentMeans>`
    : '';
  const terms = inv.due_date
    ? `
      <ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime><udt:DateTimeString format="102">${d102(inv.due_date)}</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>`
    : '';
  const cur = (tag: string, v: string) => `<ram:${tag}${z1 ? ` currencyID="${inv.currency}"` : ''}>${v}</ram:${tag}>`;
  const summation = `
      <ram:${z1 ? 'SpecifiedTradeSettlementMonetarySummation' : 'SpecifiedTradeSettlementHeaderMonetarySummation'}>
        ${cur('LineTotalAmount', inv.net_total)}
        ${cur('TaxBasisTotalAmount', inv.net_total)}
        <ram:TaxTotalAmount currencyID="${inv.currency}">${inv.tax_total}</ram:TaxTotalAmount>
        ${cur('GrandTotalAmount', inv.grand_total)}
        ${cur('DuePayableAmount', inv.due_payable)}
      </ram:${z1 ? 'SpecifiedTradeSettlementMonetarySummation' : 'SpecifiedTradeSettlementHeaderMonetarySummation'}>`;
  if (z1) {
    return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
  <rsm:SpecifiedExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:ferd:CrossIndustryDocument:invoice:1p0:comfort</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:SpecifiedExchangedDocumentContext>
  <rsm:HeaderExchangedDocument>
    <ram:ID>${esc(inv.number)}</ram:ID>
    <ram:Name>RECHNUNG</ram:Name>
    <ram:TypeCode>${opts.typeCode ?? '380'}</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">${d102(inv.issue_date)}</udt:DateTimeString></ram:IssueDateTime>
  </rsm:HeaderExchangedDocument>
  <rsm:SpecifiedSupplyChainTradeTransaction>
    <ram:ApplicableSupplyChainTradeAgreement>${party('SellerTradeParty', inv.seller)}${party('BuyerTradeParty', inv.buyer)}
      <ram:BuyerOrderReferencedDocument><ram:IssuerAssignedID>PO-4711</ram:IssuerAssignedID></ram:BuyerOrderReferencedDocument>
    </ram:ApplicableSupplyChainTradeAgreement>
    <ram:ApplicableSupplyChainTradeSettlement>
      <ram:InvoiceCurrencyCode>${inv.currency}</ram:InvoiceCurrencyCode>${payment}${taxes}${terms}${summation}
    </ram:ApplicableSupplyChainTradeSettlement>${lines}
  </rsm:SpecifiedSupplyChainTradeTransaction>
</rsm:CrossIndustryDocument>
`;
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100" xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100">
  <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument>
    <ram:ID>${esc(inv.number)}</ram:ID>
    <ram:TypeCode>${opts.typeCode ?? '380'}</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">${d102(inv.issue_date)}</udt:DateTimeString></ram:IssueDateTime>
  </rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>${lines}
    <ram:ApplicableHeaderTradeAgreement>${party('SellerTradeParty', inv.seller)}${party('BuyerTradeParty', inv.buyer)}
      <ram:BuyerOrderReferencedDocument><ram:IssuerAssignedID>PO-4711</ram:IssuerAssignedID></ram:BuyerOrderReferencedDocument>
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeDelivery/>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:InvoiceCurrencyCode>${inv.currency}</ram:InvoiceCurrencyCode>${payment}${taxes}${terms}${summation}
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
`;
}

/** A UBL 2.1 invoice (XRechnung / Peppol BIS style), or a credit note. */
export function ublXml(inv: SampleInvoice, opts: { creditNote?: boolean } = {}): string {
  const credit = opts.creditNote ?? false;
  const root = credit ? 'CreditNote' : 'Invoice';
  const party = (tag: string, p: { name: string; vat_id: string | null; email?: string }) => `
  <cac:${tag}>
    <cac:Party>
      <cac:PartyName><cbc:Name>${esc(p.name)}</cbc:Name></cac:PartyName>${
        p.vat_id
          ? `
      <cac:PartyTaxScheme><cbc:CompanyID>${p.vat_id}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>`
          : ''
      }
      <cac:PartyLegalEntity><cbc:RegistrationName>${esc(p.name)}</cbc:RegistrationName></cac:PartyLegalEntity>${
        p.email
          ? `
      <cac:Contact><cbc:ElectronicMail>${esc(p.email)}</cbc:ElectronicMail></cac:Contact>`
          : ''
      }
    </cac:Party>
  </cac:${tag}>`;
  const c = `currencyID="${inv.currency}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>
  <cbc:ID>${esc(inv.number)}</cbc:ID>
  <cbc:IssueDate>${inv.issue_date}</cbc:IssueDate>${
    inv.due_date && !credit
      ? `
  <cbc:DueDate>${inv.due_date}</cbc:DueDate>`
      : ''
  }
  <cbc:${credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'}>${credit ? '381' : '380'}</cbc:${credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'}>
  <cbc:DocumentCurrencyCode>${inv.currency}</cbc:DocumentCurrencyCode>
  <cac:OrderReference><cbc:ID>PO-4711</cbc:ID></cac:OrderReference>${party('AccountingSupplierParty', inv.seller)}${party('AccountingCustomerParty', inv.buyer)}
  <cac:PaymentMeans>
    <cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>${
      inv.due_date && credit
        ? `
    <cbc:PaymentDueDate>${inv.due_date}</cbc:PaymentDueDate>`
        : ''
    }${
      inv.iban
        ? `
    <cac:PayeeFinancialAccount><cbc:ID>${inv.iban}</cbc:ID></cac:PayeeFinancialAccount>`
        : ''
    }
  </cac:PaymentMeans>
  <cac:TaxTotal>
    <cbc:TaxAmount ${c}>${inv.tax_total}</cbc:TaxAmount>${inv.taxes
      .map(
        (t) => `
    <cac:TaxSubtotal>
      <cbc:TaxableAmount ${c}>${t.base}</cbc:TaxableAmount>
      <cbc:TaxAmount ${c}>${t.amount}</cbc:TaxAmount>
      <cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>${t.rate}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>
    </cac:TaxSubtotal>`,
      )
      .join('')}
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount ${c}>${inv.net_total}</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount ${c}>${inv.net_total}</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount ${c}>${inv.grand_total}</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount ${c}>${inv.due_payable}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>${inv.lines
    .map(
      (l, i) => `
  <cac:${root}Line>
    <cbc:ID>${i + 1}</cbc:ID>
    <cbc:${credit ? 'CreditedQuantity' : 'InvoicedQuantity'} unitCode="C62">${l.quantity}</cbc:${credit ? 'CreditedQuantity' : 'InvoicedQuantity'}>
    <cbc:LineExtensionAmount ${c}>${l.amount}</cbc:LineExtensionAmount>
    <cac:Item><cbc:Name>${esc(l.description)}</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>${l.rate}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item>
    <cac:Price><cbc:PriceAmount ${c}>${l.unit_price}</cbc:PriceAmount></cac:Price>
  </cac:${root}Line>`,
    )
    .join('')}
</${root}>
`;
}

/** `1296.79` → `1.296,79` (the German way the sample PDFs print amounts). */
export const deAmount = (v: string) => {
  const [int, dec] = v.split('.');
  return `${int!.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${dec ?? '00'}`;
};
const deDate = (iso: string) => iso.split('-').reverse().join('.');

/**
 * A one-page PDF that shows the invoice (German labels and formats) with `xml` attached as `filename` (an associated
 * file of the document, as Factur-X asks). `printedTotal` prints another total than the XML's; `number` another
 * invoice number.
 */
export async function pdfWithXml(
  inv: SampleInvoice,
  xml: string | Buffer | null,
  filename: string,
  opts: { printedTotal?: string; printedNumber?: string } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  let y = 790;
  const text = (s: string, x: number, size = 10) => page.drawText(s, { x, y, size, font });
  const row = (...cells: Array<[string, number]>) => {
    for (const [s, x] of cells) text(s, x);
    y -= 16;
  };
  text(inv.seller.name, 50, 12);
  y -= 30;
  text('RECHNUNG', 50, 16);
  y -= 30;
  row(['Rechnungsnummer:', 50], [opts.printedNumber ?? inv.number, 200]);
  row(['Rechnungsdatum:', 50], [deDate(inv.issue_date), 200]);
  if (inv.due_date) row(['Fällig am:', 50], [deDate(inv.due_date), 200]);
  row(['Kunde:', 50], [inv.buyer.name.replace('&', 'und'), 200]);
  row(['USt-IdNr.:', 50], [inv.seller.vat_id, 200]);
  y -= 20;
  row(['Beschreibung', 50], ['Menge', 300], ['Einzelpreis', 380], ['Betrag', 480]);
  for (const l of inv.lines)
    row(
      [l.description.replace(/[<>]/g, ''), 50],
      [l.quantity, 300],
      [deAmount(l.unit_price), 380],
      [deAmount(l.amount), 480],
    );
  y -= 20;
  row(['Nettobetrag', 300], [deAmount(inv.net_total), 480]);
  for (const t of inv.taxes) row([`MwSt ${t.rate.replace('.00', '')} %`, 300], [deAmount(t.amount), 480]);
  row(['Gesamtbetrag', 300], [deAmount(opts.printedTotal ?? inv.grand_total), 480]);
  if (xml !== null) {
    await doc.attach(Buffer.from(xml), filename, {
      mimeType: 'text/xml',
      description: 'Factur-X invoice',
      creationDate: new Date('2026-03-15T00:00:00Z'),
      modificationDate: new Date('2026-03-15T00:00:00Z'),
      afRelationship: AFRelationship.Data,
    });
  }
  return doc.save();
}
