import { describe, expect, it } from 'vitest';
import { withEInvoices } from '../../../../adapters/extraction/einvoice/einvoice-engine.js';
import { OfflineExtractionEngine } from '../../../../adapters/extraction/offline-engine.js';
import { InvalidSourceError } from '../../../../adapters/providers/provider-errors.js';
import { checkEvidence, sumDecimals } from '../../../../domain/extraction-evidence.js';
import type { ExtractionResult, PositionedText } from '../../../../domain/extraction.js';
import { sourceReader } from '../../../helpers/source-reader.js';

/**
 * FatturaPA (the Italian FatturaElettronica 1.2, SdI) uploaded as XML is read from its elements like CII and UBL
 * (issue 29, item 2): number, date, currency, both parties with their VAT ids (IdPaese + IdCodice), the totals (the
 * subtotal and tax summed over the VAT summaries), the due date and IBAN of the payment, every line; evidence names
 * the element(s). The invoice below is this test's own, written to the public schema.
 */
const NS_12 = 'http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2';
const NS_11 = 'http://www.fatturapa.gov.it/sv/sdi/fatture/v1.1';
/** The target namespace of FatturaPA 1.0 and 1.1's own schema (odoo's l10n_it_fatturapa_in 11.0 test X11111 uses 1.1). */
const NS_11_SCHEMA = 'http://www.fatturapa.gov.it/sdi/fatturapa/v1.1';
const NS_10_SCHEMA = 'http://www.fatturapa.gov.it/sdi/fatturapa/v1.0';

interface Body {
  number: string;
  date: string;
  total: string | null;
}

function body(b: Body): string {
  return `
  <FatturaElettronicaBody>
    <DatiGenerali>
      <DatiGeneraliDocumento>
        <TipoDocumento>TD01</TipoDocumento>
        <Divisa>EUR</Divisa>
        <Data>${b.date}</Data>
        <Numero>${b.number}</Numero>
        ${b.total === null ? '' : `<ImportoTotaleDocumento>${b.total}</ImportoTotaleDocumento>`}
        <Causale>Manutenzione &amp; ricambi</Causale>
      </DatiGeneraliDocumento>
      <DatiOrdineAcquisto>
        <IdDocumento>ORD-77</IdDocumento>
      </DatiOrdineAcquisto>
    </DatiGenerali>
    <DatiBeniServizi>
      <DettaglioLinee>
        <NumeroLinea>1</NumeroLinea>
        <Descrizione>Revisione impianto
          frenante</Descrizione>
        <Quantita>2.00</Quantita>
        <PrezzoUnitario>450.00000000</PrezzoUnitario>
        <PrezzoTotale>900.00</PrezzoTotale>
        <AliquotaIVA>22.00</AliquotaIVA>
      </DettaglioLinee>
      <DettaglioLinee>
        <NumeroLinea>2</NumeroLinea>
        <Descrizione>Manuale d'uso &lt;libro&gt;</Descrizione>
        <Quantita>3.00</Quantita>
        <PrezzoUnitario>35.00</PrezzoUnitario>
        <PrezzoTotale>105.00</PrezzoTotale>
        <AliquotaIVA>4.00</AliquotaIVA>
      </DettaglioLinee>
      <DettaglioLinee>
        <NumeroLinea>3</NumeroLinea>
        <Descrizione>Diritto fisso pratica</Descrizione>
        <PrezzoUnitario>50.00</PrezzoUnitario>
        <PrezzoTotale>50.00</PrezzoTotale>
        <AliquotaIVA>0.00</AliquotaIVA>
        <Natura>N2.2</Natura>
      </DettaglioLinee>
      <DatiRiepilogo>
        <AliquotaIVA>22.00</AliquotaIVA>
        <ImponibileImporto>900.00</ImponibileImporto>
        <Imposta>198.00</Imposta>
        <EsigibilitaIVA>I</EsigibilitaIVA>
      </DatiRiepilogo>
      <DatiRiepilogo>
        <AliquotaIVA>4.00</AliquotaIVA>
        <ImponibileImporto>105.00</ImponibileImporto>
        <Imposta>4.20</Imposta>
      </DatiRiepilogo>
      <DatiRiepilogo>
        <AliquotaIVA>0.00</AliquotaIVA>
        <Natura>N2.2</Natura>
        <ImponibileImporto>50.00</ImponibileImporto>
        <Imposta>0.00</Imposta>
      </DatiRiepilogo>
    </DatiBeniServizi>
    <DatiPagamento>
      <CondizioniPagamento>TP02</CondizioniPagamento>
      <DettaglioPagamento>
        <ModalitaPagamento>MP05</ModalitaPagamento>
        <DataScadenzaPagamento>2026-05-20</DataScadenzaPagamento>
        <ImportoPagamento>1257.20</ImportoPagamento>
        <IBAN>IT60 X054 2811 1010 0000 0123 456</IBAN>
      </DettaglioPagamento>
    </DatiPagamento>
  </FatturaElettronicaBody>`;
}

const FIRST: Body = { number: 'FT-2026/118', date: '2026-04-20', total: '1257.20' };

/** A FatturaPA of this test: a company seller, a person (Nome + Cognome) as buyer, three VAT summaries. */
function fatturapa(opts: { ns?: string; bodies?: Body[]; prolog?: string } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${opts.prolog ?? ''}
<p:FatturaElettronica versione="FPR12" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" xmlns:p="${opts.ns ?? NS_12}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <FatturaElettronicaHeader>
    <DatiTrasmissione>
      <IdTrasmittente>
        <IdPaese>IT</IdPaese>
        <IdCodice>01234567890</IdCodice>
      </IdTrasmittente>
      <ProgressivoInvio>00042</ProgressivoInvio>
      <FormatoTrasmissione>FPR12</FormatoTrasmissione>
      <CodiceDestinatario>ABC1234</CodiceDestinatario>
    </DatiTrasmissione>
    <CedentePrestatore>
      <DatiAnagrafici>
        <IdFiscaleIVA>
          <IdPaese>IT</IdPaese>
          <IdCodice>04567890123</IdCodice>
        </IdFiscaleIVA>
        <CodiceFiscale>04567890123</CodiceFiscale>
        <Anagrafica>
          <Denominazione>Officina Rossi S.r.l.</Denominazione>
        </Anagrafica>
        <RegimeFiscale>RF01</RegimeFiscale>
      </DatiAnagrafici>
      <Sede>
        <Indirizzo>Via Roma 12</Indirizzo>
        <CAP>40121</CAP>
        <Comune>Bologna</Comune>
        <Nazione>IT</Nazione>
      </Sede>
      <Contatti>
        <Email>fatture@officinarossi.example</Email>
      </Contatti>
    </CedentePrestatore>
    <CessionarioCommittente>
      <DatiAnagrafici>
        <IdFiscaleIVA>
          <IdPaese>IT</IdPaese>
          <IdCodice>09876543210</IdCodice>
        </IdFiscaleIVA>
        <CodiceFiscale>VRDGLI80A41A944X</CodiceFiscale>
        <Anagrafica>
          <Nome>Giulia</Nome>
          <Cognome>Verdi</Cognome>
        </Anagrafica>
      </DatiAnagrafici>
      <Sede>
        <Indirizzo>Via Dante 3</Indirizzo>
        <CAP>20121</CAP>
        <Comune>Milano</Comune>
        <Nazione>IT</Nazione>
      </Sede>
    </CessionarioCommittente>
  </FatturaElettronicaHeader>${(opts.bodies ?? [FIRST]).map(body).join('')}
</p:FatturaElettronica>
`;
}

const FIELDS = [
  'invoice_number',
  'invoice_date',
  'due_date',
  'seller_name',
  'buyer_name',
  'seller_vat_id',
  'buyer_vat_id',
  'currency',
  'subtotal',
  'tax',
  'total',
  'iban',
];
const ROOT = '/p:FatturaElettronica';
const HEADER = `${ROOT}/FatturaElettronicaHeader`;
const BODY = `${ROOT}/FatturaElettronicaBody`;
const DOC = `${BODY}/DatiGenerali/DatiGeneraliDocumento`;

const readSource = sourceReader('fatturapa');
const einvoices = withEInvoices(new OfflineExtractionEngine());
const read = (xml: string): Promise<PositionedText> => readSource(xml, 'xml');
async function extract(text: PositionedText, fields = FIELDS) {
  const result = await einvoices.extract({ document: text, fields });
  return { result, reviewed: checkEvidence(result, text) };
}
const values = (r: ExtractionResult) => Object.fromEntries(Object.entries(r.fields).map(([k, v]) => [k, v.value]));
const evidence = (r: ExtractionResult, f: string) => r.fields[f]!.evidence;

describe('FatturaPA uploaded as XML', () => {
  it('is recognised as an e-invoice (FatturaElettronica 1.2 and the older fatturapa.gov.it namespace)', async () => {
    expect((await read(fatturapa())).einvoice).toMatchObject({ file: null, syntax: 'fatturapa' });
    expect((await read(fatturapa({ ns: NS_11 }))).einvoice).toMatchObject({ file: null, syntax: 'fatturapa' });
    for (const ns of [NS_11_SCHEMA, NS_10_SCHEMA]) {
      expect((await read(fatturapa({ ns }))).einvoice).toMatchObject({ file: null, syntax: 'fatturapa' });
      const { result } = await extract(await read(fatturapa({ ns })), ['invoice_number', 'seller_name']);
      expect(values(result)).toEqual({ invoice_number: 'FT-2026/118', seller_name: 'Officina Rossi S.r.l.' });
    }
    // A FatturaElettronica element of another vocabulary stays text.
    expect(
      (
        await read(
          '<?xml version="1.0"?><FatturaElettronica xmlns="urn:example:other"><Numero>1</Numero></FatturaElettronica>',
        )
      ).einvoice,
    ).toBeUndefined();
  });

  it('reads the number, date and currency of DatiGeneraliDocumento, with evidence naming the element', async () => {
    const { result, reviewed } = await extract(await read(fatturapa()), ['invoice_number', 'invoice_date', 'currency']);
    expect(values(result)).toEqual({ invoice_number: 'FT-2026/118', invoice_date: '2026-04-20', currency: 'EUR' });
    expect(evidence(result, 'invoice_number')).toEqual({
      page: null,
      box: null,
      source: 'xml',
      file: null,
      snippet: 'FT-2026/118',
      path: `${DOC}/Numero`,
    });
    expect(evidence(result, 'invoice_date')).toMatchObject({ snippet: '2026-04-20', path: `${DOC}/Data` });
    expect(evidence(result, 'currency')).toMatchObject({ snippet: 'EUR', path: `${DOC}/Divisa` });
    expect(reviewed.review_reasons).toEqual([]);
    expect(result.warnings).toContain('the values come from the e-invoice FatturaPA data of the uploaded XML');
  });

  it('reads the parties: Denominazione or Nome + Cognome, the VAT id as IdPaese + IdCodice (not the tax code)', async () => {
    const { result, reviewed } = await extract(await read(fatturapa()), [
      'seller_name',
      'buyer_name',
      'seller_vat_id',
      'buyer_vat_id',
      'vendor_email',
      'po_number',
    ]);
    expect(values(result)).toEqual({
      seller_name: 'Officina Rossi S.r.l.',
      buyer_name: 'Giulia Verdi',
      seller_vat_id: 'IT04567890123',
      buyer_vat_id: 'IT09876543210',
      vendor_email: 'fatture@officinarossi.example',
      po_number: 'ORD-77',
    });
    expect(evidence(result, 'seller_name')).toMatchObject({
      snippet: 'Officina Rossi S.r.l.',
      path: `${HEADER}/CedentePrestatore/DatiAnagrafici/Anagrafica/Denominazione`,
    });
    // A name or VAT id made of two elements names their parent, whose text is theirs joined by a space.
    expect(evidence(result, 'buyer_name')).toMatchObject({
      snippet: 'Giulia Verdi',
      path: `${HEADER}/CessionarioCommittente/DatiAnagrafici/Anagrafica`,
    });
    expect(evidence(result, 'seller_vat_id')).toMatchObject({
      source: 'xml',
      snippet: 'IT 04567890123',
      path: `${HEADER}/CedentePrestatore/DatiAnagrafici/IdFiscaleIVA`,
    });
    expect(reviewed.review_reasons).toEqual([]);
    expect(reviewed.checks.every((c) => c.ok)).toBe(true);
  });

  it('reads the totals: ImportoTotaleDocumento, and the subtotal and tax summed over the VAT summaries (DatiRiepilogo)', async () => {
    const { result, reviewed } = await extract(await read(fatturapa()), ['subtotal', 'tax', 'total', 'vat_rate']);
    expect(values(result)).toEqual({ subtotal: '1055.00', tax: '202.20', total: '1257.20', vat_rate: null });
    expect(evidence(result, 'total')).toMatchObject({ snippet: '1257.20', path: `${DOC}/ImportoTotaleDocumento` });
    const sums = `${BODY}/DatiBeniServizi/DatiRiepilogo`;
    expect(evidence(result, 'subtotal')).toMatchObject({
      source: 'xml',
      snippet: '900.00 + 105.00 + 50.00',
      path: `${sums}/ImponibileImporto + ${sums}[2]/ImponibileImporto + ${sums}[3]/ImponibileImporto`,
    });
    expect(evidence(result, 'tax')).toMatchObject({ snippet: '198.00 + 4.20 + 0.00' });
    expect(reviewed.review_reasons).toEqual([]);

    // Without ImportoTotaleDocumento (it is optional) the total is not guessed.
    const untotalled = await extract(await read(fatturapa({ bodies: [{ ...FIRST, total: null }] })), [
      'total',
      'subtotal',
    ]);
    expect(values(untotalled.result)).toEqual({ total: null, subtotal: '1055.00' });
  });

  it('reads the due date and IBAN of the payment (DettaglioPagamento), and the amount due', async () => {
    const { result, reviewed } = await extract(await read(fatturapa()), ['due_date', 'iban', 'amount_due']);
    expect(values(result)).toEqual({
      due_date: '2026-05-20',
      iban: 'IT60X0542811101000000123456',
      amount_due: '1257.20',
    });
    expect(evidence(result, 'due_date')).toMatchObject({
      path: `${BODY}/DatiPagamento/DettaglioPagamento/DataScadenzaPagamento`,
    });
    expect(evidence(result, 'iban')).toMatchObject({
      snippet: 'IT60 X054 2811 1010 0000 0123 456',
      path: `${BODY}/DatiPagamento/DettaglioPagamento/IBAN`,
    });
    expect(reviewed.review_reasons).toEqual([]);
  });

  it('reads every line (DettaglioLinee): description, quantity (absent on a service line), unit price, total', async () => {
    const { result, reviewed } = await extract(await read(fatturapa()), ['invoice_number']);
    expect(
      result.items.map((it) => [it.description.value, it.quantity.value, it.unit_price.value, it.amount.value]),
    ).toEqual([
      ['Revisione impianto frenante', '2.00', '450.00000000', '900.00'],
      ["Manuale d'uso <libro>", '3.00', '35.00', '105.00'],
      ['Diritto fisso pratica', null, '50.00', '50.00'],
    ]);
    expect(result.items[2]!.amount.evidence).toMatchObject({
      source: 'xml',
      path: `${BODY}/DatiBeniServizi/DettaglioLinee[3]/PrezzoTotale`,
    });
    expect(reviewed.review_reasons).toEqual([]);
    expect(reviewed.checks.every((c) => c.ok)).toBe(true);
  });

  it('a file of several invoices (a batch of FatturaElettronicaBody): the first is read, and the document needs review', async () => {
    const second: Body = { number: 'FT-2026/119', date: '2026-04-21', total: '1257.20' };
    const { result, reviewed } = await extract(await read(fatturapa({ bodies: [FIRST, second] })), [
      'invoice_number',
      'total',
    ]);
    expect(values(result)).toEqual({ invoice_number: 'FT-2026/118', total: '1257.20' });
    const why =
      'invoice_number: the FatturaPA file holds 2 invoices (FatturaElettronicaBody); only the first (FT-2026/118) was read: upload each invoice on its own';
    expect(reviewed.review_reasons).toEqual([why]);
    expect(result.warnings).toContain(
      'the FatturaPA file holds 2 invoices (FatturaElettronicaBody); only the first (FT-2026/118) was read',
    );
    expect(result.items).toHaveLength(3);
  });

  it('is refused like the other kinds: a DOCTYPE (entities) or malformed XML, with a clear error', async () => {
    const xxe = fatturapa({
      prolog: '<!DOCTYPE p:FatturaElettronica [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
    }).replace('FT-2026/118', '&x;');
    await expect(read(xxe)).rejects.toThrow(
      new InvalidSourceError(
        'the e-invoice XML cannot be read: the XML declares a DOCTYPE; document type declarations and entities are not accepted in an e-invoice',
      ),
    );
    await expect(read(fatturapa().replace('</DatiGenerali>', ''))).rejects.toThrow(
      /the e-invoice XML cannot be read: the XML is not well-formed/u,
    );
  });

  it('a tampered sum is caught by the evidence check', async () => {
    const text = await read(fatturapa());
    const { result } = await extract(text, ['subtotal']);
    const wrong = structuredClone(result);
    wrong.fields['subtotal']!.value = '1005.00';
    expect(checkEvidence(wrong, text).review_reasons[0]).toMatch(
      /^subtotal: the value "1005.00" is not the sum of the XML elements/u,
    );
    // A summand the XML does not have, or a snippet that is not the elements' texts.
    const missing = structuredClone(result);
    missing.fields['subtotal']!.evidence!.path = missing.fields['subtotal']!.evidence!.path!.replace(
      'DatiRiepilogo[3]',
      'DatiRiepilogo[4]',
    );
    expect(checkEvidence(missing, text).review_reasons[0]).toMatch(
      /^subtotal: the evidence names the XML element .*DatiRiepilogo\[4\].*, which the e-invoice XML does not have$/u,
    );
    const snippet = structuredClone(result);
    snippet.fields['subtotal']!.evidence!.snippet = '900.00 + 155.00';
    expect(checkEvidence(snippet, text).review_reasons[0]).toMatch(
      /^subtotal: the snippet "900.00 \+ 155.00" is not the text of the XML elements /u,
    );
    // A sum is no evidence for a date or a text.
    const { result: named } = await extract(text, ['invoice_date']);
    named.fields['invoice_date']!.evidence = { ...result.fields['subtotal']!.evidence! };
    named.fields['invoice_date']!.value = '2026-04-20';
    expect(checkEvidence(named, text).review_reasons[0]).toMatch(
      /^invoice_date: the value "2026-04-20" is not the sum of the XML elements/u,
    );
  });
});

/** A simplified FatturaPA of this test (FatturaElettronicaSemplificata 1.0): a person sells, a company buys. */
function semplificata(vat: [string, string]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><ns2:FatturaElettronicaSemplificata versione="FSM10" xmlns:ns2="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.0"><FatturaElettronicaHeader><DatiTrasmissione><IdTrasmittente><IdPaese>IT</IdPaese><IdCodice>BNCLRA70A41F205X</IdCodice></IdTrasmittente><ProgressivoInvio>7</ProgressivoInvio><FormatoTrasmissione>FSM10</FormatoTrasmissione><CodiceDestinatario>0000000</CodiceDestinatario></DatiTrasmissione><CedentePrestatore><IdFiscaleIVA><IdPaese>IT</IdPaese><IdCodice>04567890123</IdCodice></IdFiscaleIVA><CodiceFiscale>BNCLRA70A41F205X</CodiceFiscale><Nome>Laura</Nome><Cognome>Bianchi</Cognome><Sede><Indirizzo>Via Po 5</Indirizzo><CAP>10123</CAP><Comune>Torino</Comune><Nazione>IT</Nazione></Sede><RegimeFiscale>RF01</RegimeFiscale></CedentePrestatore><CessionarioCommittente><IdentificativiFiscali><IdFiscaleIVA><IdPaese>IT</IdPaese><IdCodice>09876543210</IdCodice></IdFiscaleIVA></IdentificativiFiscali><AltriDatiIdentificativi><Denominazione>Bar Centrale SNC</Denominazione><Sede><Indirizzo>Piazza Castello 1</Indirizzo><CAP>10121</CAP><Comune>Torino</Comune><Nazione>IT</Nazione></Sede></AltriDatiIdentificativi></CessionarioCommittente></FatturaElettronicaHeader><FatturaElettronicaBody><DatiGenerali><DatiGeneraliDocumento><TipoDocumento>TD07</TipoDocumento><Divisa>EUR</Divisa><Data>2026-03-02</Data><Numero>S-12</Numero></DatiGeneraliDocumento></DatiGenerali><DatiBeniServizi><Descrizione>Consulenza marzo</Descrizione><Importo>122.00</Importo><DatiIVA>${vat[0]}</DatiIVA></DatiBeniServizi><DatiBeniServizi><Descrizione>Rimborso spese</Descrizione><Importo>10.40</Importo><DatiIVA>${vat[1]}</DatiIVA></DatiBeniServizi></FatturaElettronicaBody></ns2:FatturaElettronicaSemplificata>`;
}

describe('simplified FatturaPA (FatturaElettronicaSemplificata) uploaded as XML', () => {
  it('reads the parties, the number and date, each line (description, amount with VAT), the total and the VAT', async () => {
    const text = await read(semplificata(['<Imposta>22.00</Imposta>', '<Imposta>0.40</Imposta>']));
    expect(text.einvoice).toMatchObject({ file: null, syntax: 'fatturapa' });
    const { result, reviewed } = await extract(text);
    expect(values(result)).toEqual({
      invoice_number: 'S-12',
      invoice_date: '2026-03-02',
      due_date: null,
      seller_name: 'Laura Bianchi',
      buyer_name: 'Bar Centrale SNC',
      seller_vat_id: 'IT04567890123',
      buyer_vat_id: 'IT09876543210',
      currency: 'EUR',
      subtotal: null,
      tax: '22.40',
      total: '132.40',
      iban: null,
    });
    expect(
      result.items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value]),
    ).toEqual([
      ['Consulenza marzo', null, null, '122.00'],
      ['Rimborso spese', null, null, '10.40'],
    ]);
    expect(reviewed.review_reasons).toEqual([]);
  });

  it('a line whose VAT is given only as a rate states no tax amount: the tax is not given', async () => {
    const { result } = await extract(
      await read(semplificata(['<Imposta>22.00</Imposta>', '<Aliquota>4.00</Aliquota>'])),
      ['tax', 'total'],
    );
    expect(values(result)).toEqual({ tax: null, total: '132.40' });
  });
});

describe('sumDecimals', () => {
  it('adds plain decimals exactly, with the most decimals any has; null when one is not a plain decimal', () => {
    expect(sumDecimals(['900.00', '105.00', '50.00'])).toBe('1055.00');
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['23.27', '0.00000001'])).toBe('23.27000001');
    expect(sumDecimals(['-10.50', '+3', '2.25'])).toBe('-5.25');
    expect(sumDecimals(['-0.05', '0.04'])).toBe('-0.01');
    expect(sumDecimals(['12'])).toBe('12');
    expect(sumDecimals(['1,5', '2'])).toBeNull();
    expect(sumDecimals(['1e3'])).toBeNull();
  });
});
