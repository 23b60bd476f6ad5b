import { describe, expect, it } from 'vitest';
import { withEInvoices } from '../../../../adapters/extraction/einvoice/einvoice-engine.js';
import { reviewExtraction } from '../../../../adapters/extraction/extraction-runner.js';
import { OfflineExtractionEngine } from '../../../../adapters/extraction/offline-engine.js';
import { sourceReader } from '../../../helpers/source-reader.js';

/**
 * The document checks on an e-invoice read from its XML (issue 29, session 17, s17-xml). Measured on the tune part's
 * new XMLs: every value right, but a line that Odoo's delivery-note add-on writes into a FatturaPA
 * (`Delivery Note "DDT/00001" of 07/08/2019`, quantity 0) was flagged "has no word: it may be misread", a check of a
 * page's reading: an XML's text is not misread. And an uploaded XML written on one line (as many SdI files are) had
 * its markup read as a printed page by the page checks ("total 12.20 is less than 22.00 printed on a tax line
 * (\"<DatiRiepilogo><AliquotaIVA>22.00…\")"): an uploaded XML has no printed page. The invoice below is this test's
 * own, written to the public schema.
 */
const read = sourceReader('einvoice-review-s17-xml');
const einvoices = withEInvoices(new OfflineExtractionEngine());
const FIELDS = ['invoice_number', 'invoice_date', 'currency', 'subtotal', 'tax', 'total'];

async function reviewed(xml: string) {
  const text = await read(xml, 'xml');
  const result = await einvoices.extract({ document: text, fields: FIELDS });
  return { result, review: reviewExtraction(result, text) };
}

const FPA_NS = 'http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2';

function line(n: number, description: string, qty: string, price: string, total: string): string {
  return `
      <DettaglioLinee>
        <NumeroLinea>${n}</NumeroLinea>
        <Descrizione>${description}</Descrizione>
        <Quantita>${qty}</Quantita>
        <PrezzoUnitario>${price}</PrezzoUnitario>
        <PrezzoTotale>${total}</PrezzoTotale>
        <AliquotaIVA>22.00</AliquotaIVA>
      </DettaglioLinee>`;
}

/** A delivery-note reference line (more digits and signs than letters) before the goods. */
/** A party of the header: its VAT id and name. */
const party = (role: string, vat: string, name: string) => `
    <${role}>
      <DatiAnagrafici>
        <IdFiscaleIVA><IdPaese>IT</IdPaese><IdCodice>${vat}</IdCodice></IdFiscaleIVA>
        <Anagrafica><Denominazione>${name}</Denominazione></Anagrafica>
      </DatiAnagrafici>
    </${role}>`;

const FATTURAPA = `<?xml version="1.0" encoding="UTF-8"?>
<p:FatturaElettronica versione="FPR12" xmlns:p="${FPA_NS}">
  <FatturaElettronicaHeader>${party('CedentePrestatore', '01234567897', 'Officina Ponte SRL')}${party(
    'CessionarioCommittente',
    '09876543217',
    'Trasporti Valle SPA',
  )}
  </FatturaElettronicaHeader>
  <FatturaElettronicaBody>
    <DatiGenerali>
      <DatiGeneraliDocumento>
      <TipoDocumento>TD01</TipoDocumento>
      <Divisa>EUR</Divisa>
      <Data>2026-10-05</Data>
      <Numero>78/2026</Numero>
      <ImportoTotaleDocumento>12.20</ImportoTotaleDocumento>
      </DatiGeneraliDocumento>
    </DatiGenerali>
    <DatiBeniServizi>
      ${line(1, 'Delivery Note &quot;DDT/00001&quot; of 07/08/2019', '0.00', '0.00', '0.00')}
      ${line(2, 'Ricambio', '1.00', '10.00', '10.00')}
      <DatiRiepilogo>
        <AliquotaIVA>22.00</AliquotaIVA>
        <ImponibileImporto>10.00</ImponibileImporto>
        <Imposta>2.20</Imposta>
      </DatiRiepilogo>
    </DatiBeniServizi>
  </FatturaElettronicaBody>
</p:FatturaElettronica>`;

/** The same XML written on one line, without the whitespace between its elements. */
const ONE_LINE = FATTURAPA.replace(/>\s+</gu, '><');

describe('document checks on values read from an e-invoice XML (s17-xml)', () => {
  it('a line description read from the XML is not "misread" for having more digits and signs than letters', async () => {
    const { result, review } = await reviewed(FATTURAPA);
    expect(result.items.map((i) => i.description.value)).toEqual([
      'Delivery Note "DDT/00001" of 07/08/2019',
      'Ricambio',
    ]);
    expect(review.reasons).toEqual([]);
  });

  it('an uploaded XML written on one line: its markup is not a printed page to check the values against', async () => {
    const { result, review } = await reviewed(ONE_LINE);
    expect(result.fields['total']?.value).toBe('12.20');
    expect(result.fields['tax']?.value).toBe('2.20');
    expect(review.reasons).toEqual([]);
  });

  it("FatturaPA's welfare-fund contribution and withholding explain its subtotal and total, on one line or many", async () => {
    // Lines 100.00 + cassa 4.00 = 104.00 taxable; tax 22.88; the total written net of the 20.00 withholding (as Odoo
    // writes it): 106.88. Nothing else on the XML explains 104.00 or 106.88.
    const xml = FATTURAPA.replace(
      '<ImportoTotaleDocumento>12.20</ImportoTotaleDocumento>',
      `
      <DatiRitenuta><TipoRitenuta>RT01</TipoRitenuta><ImportoRitenuta>20.00</ImportoRitenuta>
        <AliquotaRitenuta>20.00</AliquotaRitenuta><CausalePagamento>A</CausalePagamento></DatiRitenuta>
      <DatiCassaPrevidenziale><TipoCassa>TC04</TipoCassa><AlCassa>4.00</AlCassa>
        <ImportoContributoCassa>4.00</ImportoContributoCassa><ImponibileCassa>100.00</ImponibileCassa>
        <AliquotaIVA>22.00</AliquotaIVA></DatiCassaPrevidenziale>
      <ImportoTotaleDocumento>106.88</ImportoTotaleDocumento>`,
    )
      .replace(line(2, 'Ricambio', '1.00', '10.00', '10.00'), line(2, 'Ricambio', '1.00', '100.00', '100.00'))
      .replace('<ImponibileImporto>10.00</ImponibileImporto>', '<ImponibileImporto>104.00</ImponibileImporto>')
      .replace('<Imposta>2.20</Imposta>', '<Imposta>22.88</Imposta>');
    for (const text of [xml, xml.replace(/>\s+</gu, '><')]) {
      const { result, review } = await reviewed(text);
      expect(result.fields['subtotal']?.value).toBe('104.00');
      expect(result.fields['total']?.value).toBe('106.88');
      expect(review.reasons).toEqual([]);
    }
  });
});
