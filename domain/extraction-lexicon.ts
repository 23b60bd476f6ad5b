/**
 * The label lexicon of field extraction (issue 29): which printed labels name each concept (invoice number, dates,
 * totals, tax, parties, tax ids…) in English, German, French, Spanish, Italian and Dutch, the words around a label that
 * make it another concept's, and the labels of values no field names (other dates, customer and order numbers, phone
 * numbers). One lexicon for the offline engine, which pairs labels with values (adapters/extraction/offline-labels.ts),
 * and the document checks, which judge the values any engine gave (extraction-checks.ts).
 *
 * Pure: no I/O.
 */
import { fieldKind, type ValueKind } from './extraction.js';

/** "ATTN: ACME Ltd", "z. Hd. Frau Muster": a name follows, with this before it. */
export const ATTENTION = /^(?:attn|attention|z\.\s?hd|zu\s+händen|à\s+l'attention\s+de|a\s+la\s+atención\s+de|alla\s+c\.a|t\.a\.v)\.?\s*:?\s*/iu;

/** Salutations printed before (or on the line above) a person's name in an address block. */
export const SALUTATIONS = ['herrn', 'herr', 'frau', 'mr', 'mrs', 'ms', 'miss', 'monsieur', 'madame', 'mademoiselle', 'mme', 'mlle', 'señor', 'señora', 'sr', 'sra', 'don', 'doña', 'signor', 'signora', 'sig', 'sig.ra', 'dhr', 'mevr', 'mevrouw', 'de heer'];

/** The languages of the lexicon, and `nordic` (Danish, Swedish, Norwegian, Finnish tax names only). */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'nordic'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Names of a sales tax or VAT printed on an invoice, as whole words, per language. */
export const TAX_NAMES: Readonly<Record<Language, readonly string[]>> = {
  en: ['tax', 'taxes', 'vat', 'gst', 'hst', 'pst', 'qst', 'sales tax'],
  de: ['mwst', 'ust', 'umsatzsteuer', 'mehrwertsteuer', 'steuer'],
  fr: ['tva', 'taxe', 'taxes', 'tps', 'tvq'],
  es: ['iva', 'igic', 'impuesto', 'impuestos'],
  it: ['iva', 'imposta', 'imposte'],
  nl: ['btw'],
  nordic: ['moms', 'mva', 'alv'],
};
/** Parts of words that name a tax inside compounds ("Versicherungsteuer", "impuestos", "taxes"). */
export const TAX_STEMS = ['steuer', 'imposta', 'impuest', 'taxe'];

/** Words saying a tax is included in the amounts ("incl. 19% VAT", "dont TVA"), per language. */
export const TAX_INCLUDED_WORDS: Readonly<Record<Language, readonly string[]>> = {
  en: ['incl', 'included', 'including', 'inclusive'],
  de: ['inkl', 'inklusive', 'enthalten', 'enth'],
  fr: ['dont', 'incluse', 'inclus'],
  es: ['incluido', 'incluida', 'incluidos'],
  it: ['inclusa', 'incluso'],
  nl: ['inclusief', 'inbegrepen'],
  nordic: [],
};

/** Words of charges and deductions between the lines and the totals (shipping, discount, rounding…), per language. */
export const CHARGE_WORDS: Readonly<Record<Language, readonly string[]>> = {
  en: ['shipping', 'freight', 'delivery', 'handling', 'postage', 'discount', 'rebate', 'deposit', 'rounding', 'service charge', 'tip'],
  de: ['rabatt', 'skonto', 'versand', 'fracht', 'porto', 'pfand', 'rundung'],
  fr: ['remise', 'escompte', 'frais', 'livraison', 'arrondi'],
  es: ['envío', 'envio', 'descuento', 'gastos'],
  it: ['sconto', 'spedizione', 'trasporto', 'arrotondamento'],
  nl: ['korting', 'verzend', 'afronding', 'bezorg'],
  nordic: [],
};

/** Words of a company's registration or registered office (legal footers), per language. */
export const REGISTRATION_WORDS: Readonly<Record<Language, readonly string[]>> = {
  en: ['capital', 'company no', 'company number', 'company registration', 'registered office', 'registered in'],
  de: ['kapital', 'stammkapital', 'handelsregister', 'registergericht', 'amtsgericht', 'hrb', 'hra'],
  fr: ['siret', 'siren', 'rcs', 'rsc', 'ape', 'naf', 'siège social', 'siege social', 'immatriculée', 'immatriculé', 'inscrite'],
  es: ['registro mercantil'],
  it: ['registro delle imprese', 'sede legale'],
  nl: ['kvk', 'kamer van koophandel'],
  nordic: [],
};

/** Every word of a per-language list, once. */
export const allWords = (lists: Readonly<Record<Language, readonly string[]>>): string[] => [...new Set(LANGUAGES.flatMap((l) => lists[l]))];
/** `s` as a literal in a regular expression. */
export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
/** Labels as alternatives of a pattern: a dot may follow each word, any spacing between them ("Rechnungs-Nr.", "No ."). */
export const labelAlternation = (labels: readonly string[]) => labels.map((l) => l.split(/\s+/u).map(escapeRegExp).join('\\.?\\s*')).join('|');
/** A pattern matching any of `words` as whole words (spaces inside a phrase match any spacing). */
export const wordsPattern = (words: readonly string[], flags = 'iu'): RegExp =>
  new RegExp(`(?<![\\p{L}])(?:${[...words].sort((a, b) => b.length - a.length).map((w) => w.split(/\s+/u).map(escapeRegExp).join('\\s+')).join('|')})(?![\\p{L}])`, flags);

/** How a concept's value is read after its label. */
export type Reader = ValueKind | 'identifier';

export interface Concept {
  id: string;
  reader: Reader;
  /** Printed labels, most specific first (the engine tries them in this order). */
  labels: readonly string[];
  /** Words that, right before a label, mean it is another label ("Sub" total, "Due" date). */
  notAfter?: readonly string[];
  /** Words that, right after a label, mean it is another label ("Total excl." VAT, "VAT no."). */
  notBefore?: readonly string[];
  /** Whether a value found nowhere near a label may be taken when the document has exactly one candidate. */
  soleCandidate?: boolean;
  /** Whether, without a label, the letterhead (the top line of page 1) may be the value (the vendor's name). */
  letterhead?: boolean;
  /** A party's name: a value without letters (an account number after "N° de compte client") is none. */
  name?: boolean;
}

/**
 * Words that, right after a total's label, make it a pre-tax, partial or other total ("Total excl. VAT", "Gesamtbetrag
 * netto", "Total HT", "Totaal excl. BTW", "Total (excl. tax)"), in the six languages the engine reads.
 */
const NET_WORDS = ['excl', 'excluding', 'exclusive', 'exkl', 'exklusive', 'before', 'pre-tax', 'pretax', 'net', 'netto', 'nett', 'ht', 'h.t', 'hors', 'sans', 'sin', 'senza', 'ohne', 'zzgl', 'vor', 'exclusief', 'ex', 'imponibile', 'imponible', 'base', 'without'];
const TOTAL_NOT_BEFORE = [...NET_WORDS, 'tax', 'taxes', 'vat', 'mwst', 'ust', 'tva', 'iva', 'btw', 'steuer', 'impuestos', 'impuesto', 'imposte', 'parcial', 'parziale', 'partiel', 'qty', 'quantity', 'items', 'hours', 'weight', 'pages', 'discount', 'paid', 'rabatt', 'remise', 'descuento', 'sconto', 'korting', 'for this line', 'pour cette ligne', 'der position', 'position', 'line', 'ligne', 'lines', 'positionen', 'stunden', 'menge', 'anzahl', 'quantité', 'cantidad', 'quantità', 'aantal', 'de la ligne'];
/** Words that, right before a label, make it another concept's ("Sub total", "Due date", "Original invoice date"). */
const TOTAL_NOT_AFTER = ['sub', 'sub-', 'zwischen', 'sous', 'sous-', 'net', 'netto', 'teil', 'line', 'running', 'page', 'seiten', 'übertrag', 'carried', 'previous', 'prior'];
/** A tax label followed by these is a tax id, a rate or an exemption ("VAT no.", "USt-IdNr.", "TVA non applicable"). */
const TAX_NOT_BEFORE = ['id', 'idnr', 'id-nr', 'ident', 'identnr', 'identnummer', 'identification', 'identifikationsnummer', 'no', 'nr', 'n°', 'nº', 'number', 'nummer', 'numéro', 'numero', 'número', 'reg', 'registration', 'registered', 'rate', 'code', 'intracom', 'intracommunautaire', 'intracomm', 'non', 'not', 'exempt', 'exemption', 'free', 'frei', 'befreit', 'esente', 'exenta', 'exento', 'vrijgesteld', 'reverse', 'pflichtig', 'identificación', 'identificatie', 'nummer', 'point', 'invoice', 'period', 'treatment', 'regime', 'régime'];
const TAX_NOT_AFTER = ['tasa', 'taux', 'steuersatz', 'aliquota', 'tarief', 'steuerbasisbetrag', 'basisbetrag', 'bemessungsgrundlage', 'basis', 'base', 'grundlage', 'netto', 'net', 'soumis', 'subject', 'excl', 'excluding', 'exclusive', 'exkl', 'before', 'ohne', 'hors', 'sans', 'sin', 'senza', 'exclusief', 'your', 'our', 'ihre', 'unsere', 'votre', 'notre', 'n°', 'nº', 'no', 'nr', 'numéro', 'numero', 'número', 'customer', 'client', 'kunden', 'buyer', 'supplier', 'seller', 'ex', 'without'];
/** A date label preceded by these names another document's or event's date. */
const DATE_NOT_AFTER = ['due', 'delivery', 'order', 'ship', 'shipping', 'service', 'payment', 'expiry', 'expiration', 'print', 'birth', 'start', 'end', 'valid', 'supply', 'original', 'related', 'referenced', 'reference', 'previous', 'corrected', 'cancelled', 'ursprüngliches', 'ursprüngliche', 'ursprünglichen', 'bezugs', 'storno', 'liefer', 'lieferschein', 'leistungs', 'bestell', 'auftrag', 'auftrags', 'vertrag', 'vertrags', 'druck', 'buchungs', 'zahlungs', 'booking', 'travel', 'departure', 'arrival', 'check-in', 'check-out', 'dispatch', 'posting', 'value', 'last', 'next'];
const DATE_NOT_BEFORE = ['due', 'of delivery', 'of supply', 'of service', 'of payment', 'of order', 'of birth', "d'échéance", 'd’échéance', 'de livraison', 'de commande', 'de paiement', 'de prestation', 'de vencimiento', 'de entrega', 'de pago', 'di scadenza', 'di consegna', 'di pagamento', 'van levering', 'levering', 'der lieferung', 'der leistung', 'de la commande', 'du bon', 'limite', 'valeur', 'range', 'from', 'to'];
/** A customer label followed (or preceded) by these is an account or customer number, not the customer's name. */
const PARTY_NOT_BEFORE = ['no', 'nr', 'n°', 'nº', 'number', 'nummer', 'numéro', 'numero', 'número', 'id', 'ref', 'reference', 'référence', 'code', 'account', 'vat', 'tax', 'ust-idnr', 'tva', 'iva', 'btw', 'since', 'service', 'care', 'portal', 'order', 'signature'];
const PARTY_NOT_AFTER = ['n°', 'nº', 'no', 'nr', 'numéro', 'numero', 'número', 'compte', 'account', 'code', 'ref', 'référence', 'espace', 'dear', 'cher', 'chère', 'liebe', 'lieber', 'sehr', 'geehrte', 'geehrter', 'estimado', 'gentile', 'beste', 'your', 'votre', 'ihre', 'our'];

export const CONCEPTS: readonly (Concept & { names: readonly string[] })[] = [
  {
    id: 'invoice_number', reader: 'identifier',
    names: ['invoice_number', 'invoice_no', 'invoice_num', 'invoice_nr', 'invoice_id', 'invoice_ref', 'invoice_reference', 'receipt_number', 'receipt_no', 'document_number', 'bill_number', 'number'],
    labels: [
      'invoice number', 'invoice no', 'invoice nr', 'invoice #', 'invoice id', 'invoice ref', 'inv number', 'inv no', 'inv #', 'receipt number', 'receipt no', 'receipt #', 'bill number', 'bill no', 'document number', 'document no', 'credit note number', 'credit note no',
      'rechnungsnummer', 'rechnungs-nr', 'rechnungs nr', 'rechnung nr', 'rechnung-nr', 'rechnungsnr', 're-nr', 'belegnummer', 'beleg-nr', 'gutschriftsnummer', 'gutschrift nr',
      'numéro de facture', 'numero de facture', 'n° de facture', 'nº de facture', 'no de facture', 'n° facture', 'facture n°', 'facture nº', 'facture no', 'facture numéro',
      'número de factura', 'nº de factura', 'n° de factura', 'nº factura', 'núm. factura', 'num. factura', 'factura nº', 'factura n°', 'factura no', 'factura núm', 'factura número',
      'numero fattura', 'numero della fattura', 'numero documento', 'n. fattura', 'nr. fattura', 'fattura n.', 'fattura n°', 'fattura nr', 'fattura numero', 'fattura n',
      'factuurnummer', 'factuur nummer', 'factuurnr', 'factuur nr', 'factuur-nr',
      'invoice', 'receipt', 'rechnung', 'facture', 'factura', 'fattura', 'factuur',
    ],
    notBefore: ['date', 'total', 'amount', 'to', 'address', 'period', 'due', 'datum', 'betrag', 'vom', 'du', 'de', 'del', 'van', 'montant', 'importe', 'importo', 'bedrag', 'data', 'fecha', 'adresse', 'dirección', 'indirizzo', 'adres', 'an', 'à', 'a', 'aan', 'for', 'pour', 'zu', 'summary', 'details'],
    notAfter: ['original', 'related', 'referenced', 'previous', 'corrected', 'cancelled', 'ursprüngliche', 'ursprünglichen', 'bezug', 'zur', 'zu', 'your', 'ihre'],
  },
  {
    id: 'invoice_date', reader: 'date', soleCandidate: true,
    names: ['date', 'invoice_date', 'issue_date', 'issued_date', 'date_of_issue', 'issued', 'issued_on', 'document_date', 'receipt_date', 'bill_date', 'billing_date', 'invoice_issued'],
    labels: [
      'invoice date', 'date of issue', 'issue date', 'date issued', 'issued on', 'issued', 'billing date', 'bill date', 'receipt date', 'document date', 'credit note date', 'date of invoice', 'tax point',
      'rechnungsdatum', 'belegdatum', 'beleg-datum', 'ausstellungsdatum', 'datum der rechnung', 'rechnungs-datum',
      'date de facture', 'date de facturation', "date d'émission", 'date d’émission', 'date facture', 'date de la facture',
      'fecha de factura', 'fecha de emisión', 'fecha de expedición', 'fecha factura', 'fecha',
      'data fattura', 'data della fattura', 'data di emissione', 'data documento', 'data emissione',
      'factuurdatum', 'datum factuur', 'factuur datum',
      'date', 'datum', 'data',
    ],
    notAfter: DATE_NOT_AFTER,
    notBefore: DATE_NOT_BEFORE,
  },
  {
    id: 'due_date', reader: 'date',
    names: ['due_date', 'payment_due_date', 'date_due', 'due', 'due_on', 'payment_due', 'pay_by'],
    labels: [
      'payment due date', 'due date', 'date due', 'payment due', 'due on', 'due by', 'pay by', 'payable by', 'payable on',
      'fälligkeitsdatum', 'fällig am', 'fällig bis', 'zahlbar bis', 'fälligkeit', 'zahlungsziel',
      "date d'échéance", 'date d’échéance', 'date limite de paiement', 'échéance', 'à payer avant le',
      'fecha de vencimiento', 'vencimiento', 'fecha límite de pago',
      'data di scadenza', 'data scadenza', 'scadenza',
      'vervaldatum', 'vervaldag', 'uiterste betaaldatum', 'te betalen voor',
      'due', 'zahlbar', 'payable'
    ],
    notBefore: ['amount', 'total', 'balance'],
  },
  {
    id: 'total', reader: 'amount',
    names: ['total', 'total_amount', 'amount_due', 'grand_total', 'total_due', 'invoice_total', 'balance_due', 'amount', 'total_incl_tax', 'total_gross', 'gross_total', 'amount_total', 'total_price', 'total_payable'],
    labels: [
      'grand total', 'total amount due', 'total amount payable', 'total amount', 'total due', 'amount due', 'balance due', 'total to pay', 'total payable', 'amount payable', 'invoice total', 'total incl. vat', 'total incl vat', 'total including vat', 'total incl. tax', 'total including tax', 'total gross', 'gross total', 'gross amount',
      'gesamtbetrag brutto', 'rechnungssumme brutto', 'rechnungsbetrag', 'rechnungsbeitrag', 'bruttobetrag', 'gesamtsumme brutto', 'summe brutto', 'gesamt brutto', 'rechnungssumme', 'endbetrag', 'zahlbetrag', 'zu zahlender betrag', 'zu zahlen', 'total brutto', 'gesamtbetrag', 'gesamtsumme', 'bruttosumme',
      'total ttc', 'montant ttc', 'net à payer', 'montant total ttc', 'total à payer', 'montant à payer', 'reste à payer', 'total facture', 'montant total',
      'total factura', 'importe total', 'total a pagar', 'importe a pagar', 'total con iva', 'saldo adeudado', 'importe adeudado', 'saldo pendiente',
      'totale documento', 'totale fattura', 'totale da pagare', 'importo totale', 'netto a pagare', 'totale complessivo', 'totale ivato',
      'totaal incl. btw', 'totaal incl btw', 'totaal inclusief btw', 'totaal te betalen', 'te betalen', 'totaalbedrag', 'factuurbedrag',
      'totale', 'totaal', 'total',
    ],
    notAfter: TOTAL_NOT_AFTER, notBefore: TOTAL_NOT_BEFORE,
  },
  {
    id: 'subtotal', reader: 'amount',
    names: ['subtotal', 'sub_total', 'net_total', 'total_net', 'net_amount', 'total_excl_tax', 'total_before_tax', 'amount_before_tax'],
    // The total before tax first; "Subtotal" and its translations last (on some invoices it comes before a discount
    // or shipping, and the net total after them is the one tax is charged on).
    labels: [
      'net total', 'total net', 'net amount', 'total (excl. vat)', 'total (excl. tax)', 'total excl. vat', 'total excl vat', 'total excluding vat', 'total excl. tax', 'total excluding tax', 'total before tax', 'amount before tax', 'total ex vat', 'total ex. vat',
      'rechnungssumme netto', 'gesamtbetrag netto', 'gesamtsumme netto', 'summe netto', 'nettosumme', 'gesamt netto', 'total netto', 'netto gesamt', 'warenwert netto', 'rechnungsbetrag netto', 'nettobetrag', 'gesamtbeitrag', 'nettobeitrag',
      'total ht', 'montant ht', 'total hors taxes', 'montant hors taxes', 'montant total ht', 'total hors tva', 'base ht',
      'base imponible', 'total sin iva', 'importe neto', 'subtotal sin iva',
      'totale imponibile', 'imponibile', 'totale netto', 'totale merce',
      'totaal excl. btw', 'totaal excl btw', 'totaal exclusief btw', 'totaal exl. btw', 'netto bedrag', 'nettobedrag',
      'subtotal', 'sub-total', 'sub total', 'zwischensumme', 'sous-total', 'sous total', 'total parcial', 'subtotale', 'subtotaal',
    ],
    notAfter: ['tax', 'vat', 'mwst', 'tva', 'iva', 'btw'],
  },
  {
    id: 'tax', reader: 'amount',
    names: ['tax', 'vat', 'tax_amount', 'vat_amount', 'total_tax', 'total_vat', 'sales_tax', 'gst', 'gst_amount'],
    labels: [
      'total tax', 'total vat', 'vat amount', 'tax amount', 'sales tax', 'vat total', 'tax total',
      'summe umsatzsteuer', 'versicherungsteuer', 'versicherungssteuer', 'summe mwst', 'summe ust', 'umsatzsteuer gesamt', 'mwst.-betrag', 'mwst-betrag', 'umsatzsteuerbetrag', 'umsatzsteuer', 'mehrwertsteuer', 'mwst', 'ust',
      'montant tva', 'montant de la tva', 'total tva', 'total taxes', 'montant taxes', 'tva', 'taxes',
      'cuota iva', 'total iva', 'importe iva', 'total impuestos', 'impuestos', 'impuesto', 'iva',
      'totale iva', 'imposta', 'importo iva',
      'btw-bedrag', 'btw bedrag', 'totaal btw', 'btw',
      'vat', 'tax', 'gst',
      // Every other name of a tax the lexicon knows (the checks know a document names a tax by the same names).
      ...allWords(TAX_NAMES).filter((n) => !['vat', 'tax', 'gst', 'umsatzsteuer', 'mwst', 'ust', 'tva', 'taxes', 'iva', 'impuestos', 'impuesto', 'imposta', 'btw', 'mehrwertsteuer'].includes(n)),
    ],
    notBefore: TAX_NOT_BEFORE, notAfter: TAX_NOT_AFTER,
  },
  {
    id: 'buyer_tax_id', reader: 'tax_id',
    names: ['buyer_vat_id', 'buyer_vat_number', 'buyer_vat_no', 'buyer_tax_id', 'customer_vat_id', 'customer_vat_number', 'customer_vat_no', 'customer_tax_id', 'client_vat_id', 'client_vat_number', 'recipient_vat_id'],
    labels: [
      'customer vat number', 'customer vat no', 'customer vat id', 'customer vat', 'customer tax id', 'buyer vat number', 'buyer vat id', 'buyer vat', 'client vat number', 'client vat', 'your vat number', 'your vat no', 'your vat id', 'vat no. of customer',
      'ust-idnr. des kunden', 'ust-id des kunden', 'kunden-ust-idnr', 'kunden ust-idnr', 'ihre ust.-identnr', 'ihre ust-identnr', 'ihre ust.-idnr', 'ihre ust-idnr', 'ihre ust-id', 'ihre ust-id-nr', 'ust-idnr. kunde', 'ust-idnr kunde',
      'n° tva client', 'tva client', 'numéro de tva client', 'votre n° tva', 'votre numéro de tva', 'tva intracommunautaire client',
      'nif cliente', 'cif cliente', 'nif del cliente', 'cif del cliente',
      'partita iva cliente', 'p.iva cliente', 'p. iva cliente', 'p.iva del cliente',
      'btw-nummer klant', 'btw nummer klant', 'uw btw-nummer', 'btw-nr klant',
    ],
  },
  {
    id: 'tax_id', reader: 'tax_id', soleCandidate: true, names: [],
    labels: [
      'vat registration number', 'vat reg no', 'vat reg', 'vat number', 'vat no', 'vat id', 'tax id', 'tax number', 'tax no', 'vat identification number',
      'umsatzsteuer-identifikationsnummer', 'ust.-identnr', 'ust-identnr', 'ust-identnummer', 'umsatzsteuer-id', 'ust-idnr', 'ust-id-nr', 'ust-id', 'ust id', 'ust.-id', 'ust.-idnr', 'ust.-id-nr', 'steuernummer', 'st.-nr',
      'tva intracommunautaire', 'n° tva intracommunautaire', 'n° tva intracom', 'tva intracom', 'numéro de tva', 'n° tva', 'nº tva', 'n° de tva',
      'nif/cif', 'nif', 'cif', 'n.i.f', 'c.i.f',
      'partita iva', 'p.iva', 'p. iva', 'p iva', 'codice fiscale',
      'btw-nummer', 'btw nummer', 'btw-nr', 'btw nr', 'btw-id', 'btw id',
      'gst number', 'gst no', 'tin', 'ein', 'abn', 'uid', 'vat',
    ],
    notAfter: ['customer', 'client', 'buyer', 'your', 'ihre', 'votre', 'kunden', 'cliente', 'klant', 'uw'],
    notBefore: ['of customer', 'des kunden', 'client', 'cliente', 'klant', 'kunde', 'del cliente', 'du client'],
  },
  { id: 'email', reader: 'email', soleCandidate: true, names: [], labels: ['e-mail', 'email', 'e mail', 'mail', 'courriel', 'correo', 'posta elettronica'] },
  { id: 'iban', reader: 'iban', soleCandidate: true, names: [], labels: ['iban'] },
  { id: 'currency', reader: 'currency', names: [], labels: ['currency', 'amounts in', 'all amounts in', 'währung', 'beträge in', 'alle beträge in', 'devise', 'montants en', 'moneda', 'importes en', 'valuta', 'divisa', 'importi in', 'bedragen in'] },
  {
    id: 'vendor_name', reader: 'text', letterhead: true, name: true,
    names: ['vendor', 'vendor_name', 'supplier', 'supplier_name', 'seller', 'seller_name', 'merchant', 'merchant_name', 'issuer', 'issuer_name'],
    labels: ['service provider', 'vendor', 'supplier', 'seller', 'merchant', 'issued by', 'from', 'prestataire', 'dienstleister', 'rechnungsersteller', 'rechnungsaussteller', 'lieferant', 'verkäufer', 'rechnungssteller', 'fournisseur', 'vendeur', 'émetteur', 'proveedor', 'vendedor', 'emisor', 'fornitore', 'venditore', 'cedente', 'leverancier', 'verkoper'],
    notBefore: PARTY_NOT_BEFORE, notAfter: PARTY_NOT_AFTER,
  },
  {
    id: 'customer_name', reader: 'text', name: true,
    names: ['customer', 'customer_name', 'buyer', 'buyer_name', 'client', 'client_name', 'bill_to', 'billed_to', 'recipient'],
    labels: [
      'bill to address', 'bill to', 'billed to', 'invoice to', 'sold to', 'customer', 'buyer', 'client', 'recipient', 'cobrar a',
      'rechnungsempfänger', 'rechnungsadresse', 'kunde', 'käufer', 'empfänger', 'auftraggeber',
      'facturé à', 'facturer à', 'adresse de facturation', 'destinataire',
      'facturar a', 'facturado a', 'cliente', 'destinatario',
      'spett.le', 'committente', 'cessionario',
      'factuur aan', 'klant', 'afnemer',
    ],
    notBefore: PARTY_NOT_BEFORE, notAfter: PARTY_NOT_AFTER,
  },
  {
    id: 'po_number', reader: 'identifier',
    names: ['po_number', 'po', 'purchase_order', 'purchase_order_number', 'order_number', 'order_no', 'order_id'],
    labels: ['purchase order number', 'purchase order', 'po number', 'po no', 'po #', 'p.o. number', 'p.o.', 'order number', 'order no', 'order #', 'order id', 'bestellnummer', 'bestell-nr', 'auftragsnummer', 'bon de commande', 'n° de commande', 'numéro de commande', 'número de pedido', 'pedido', "numero d'ordine", 'ordine n.', 'bestelnummer', 'ordernummer'],
  },
];

/** Labels of a customer's or account's number (EN, DE, FR, ES, IT, NL): its value is no invoice number. */
export const CUSTOMER_NUMBER_LABELS = [
  'customer number', 'customer no', 'customer id', 'account number', 'account no', 'kundennummer', 'kunden-nr', 'kundennr', 'n° de client', 'numéro client', 'n° client', 'n° de compte', 'numéro de dossier', 'número de cliente', 'codice cliente', 'klantnummer',
];
/** Labels of a phone or fax number. */
export const PHONE_LABELS = ['phone', 'tel', 'telephone', 'fax', 'mobile', 'telefon', 'téléphone', 'teléfono', 'telefono', 'telefoon', 'tél'];

/**
 * Labels of values no field of the engine's concepts names but that own the value printed after them: another date,
 * an account or booking number, a phone number. A value after one of these is not read for a field whose label came
 * before it ("Invoice date:   Delivery date: 02/05/2024").
 */
export const OTHER_LABELS = [
  'delivery date', 'date of delivery', 'order date', 'ship date', 'shipping date', 'service date', 'service period', 'period', 'payment date', 'booking date', 'travel date', 'valid until', 'expiry date',
  'lieferdatum', 'leistungsdatum', 'leistungszeitraum', 'bestelldatum', 'auftragsdatum', 'zahlungsdatum', 'date de livraison', 'date de commande', 'période', 'fecha de entrega', 'fecha de pedido', 'periodo', 'data di consegna', 'data ordine', 'leverdatum', 'besteldatum', 'periode',
  ...CUSTOMER_NUMBER_LABELS, 'booking reference', 'booking number', 'booking id', 'reference', 'ref', 'contract number', 'referenz', 'référence', 'referencia', 'riferimento', 'referentie',
  'ship to', 'deliver to', 'delivery address', 'lieferadresse', 'lieferanschrift', 'warenempfänger', 'livré à', 'livrer à', 'adresse de livraison', 'enviar a', 'envie a', 'envíe a', 'dirección de envío', 'spedire a', 'destinazione', 'afleveradres', 'leveradres', 'verzenden naar',
  ...PHONE_LABELS, 'bic', 'swift', 'siret', 'siren', 'rcs', 'hrb', 'page', 'seite',
];
/** Words of a field name: `invoiceDate` / `invoice_date` / `Invoice-Date` → ["invoice", "date"]. */
export function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/gu, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * The concept a field name asks for: a known name, else a kind the value grammars read (tax id, e-mail, IBAN,
 * currency), else only the field name's own words as its label, read as text (or by its kind).
 */
export function conceptOf(field: string): Concept {
  const words = nameWords(field);
  const key = words.join('_');
  const own = words.join(' ');
  const known = CONCEPTS.find((c) => c.names.includes(key));
  const kind = fieldKind(field);
  const byKind = known ?? CONCEPTS.find((c) => c.names.length === 0 && c.reader === kind);
  if (byKind) return { ...byKind, labels: byKind.labels.includes(own) ? byKind.labels : [own, ...byKind.labels] };
  return { id: key, reader: kind, labels: [own] };
}
