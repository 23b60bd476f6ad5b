/**
 * The language of a page from words read off it (docs/processing.md, "Source text"): a first OCR pass in the default
 * language reads most letters of any Latin-script page, accents aside; the language whose common words (articles,
 * prepositions, pronouns) and invoice words (invoice, total, tax, due, amount…) the page carries most is its language.
 * Words are compared without case and accents, so "fur" read by the English model still counts for German "für".
 * A word common to several languages ("de", "total", "data") counts for each, divided among them.
 */
const LEXICONS: Record<string, readonly string[]> = {
  eng: [
    'the', 'and', 'of', 'to', 'for', 'from', 'with', 'your', 'you', 'our', 'we', 'this', 'by', 'on', 'at', 'is', 'are', 'please', 'thank', 'invoice', 'bill',
    'receipt', 'total', 'subtotal', 'amount', 'due', 'date', 'tax', 'vat', 'payment', 'paid', 'balance', 'number', 'quantity', 'qty', 'price', 'description',
    'customer', 'order', 'terms', 'account', 'item', 'items', 'rate', 'sales', 'shipping', 'address',
  ],
  deu: [
    'der', 'die', 'das', 'und', 'mit', 'von', 'fur', 'den', 'dem', 'des', 'ist', 'wir', 'sie', 'ihre', 'ihr', 'bei', 'auf', 'zu', 'zur', 'zum', 'im', 'nicht',
    'bitte', 'rechnung', 'rechnungsnummer', 'rechnungsdatum', 'betrag', 'datum', 'gesamt', 'gesamtbetrag', 'summe', 'mwst', 'ust', 'umsatzsteuer', 'steuer',
    'netto', 'brutto', 'zahlbar', 'menge', 'preis', 'einzelpreis', 'bezeichnung', 'kunde', 'kundennummer', 'lieferung', 'leistung', 'zahlung', 'bankverbindung',
  ],
  fra: [
    'le', 'la', 'les', 'et', 'des', 'du', 'de', 'pour', 'par', 'au', 'aux', 'vous', 'votre', 'vos', 'nous', 'notre', 'avec', 'sur', 'est', 'une', 'un', 'facture',
    'montant', 'tva', 'date', 'paiement', 'prix', 'quantite', 'echeance', 'client', 'reglement', 'ht', 'ttc', 'total', 'designation', 'taux', 'remise', 'net',
    'payer', 'livraison', 'conditions', 'adresse', 'siret', 'merci',
  ],
  spa: [
    'el', 'la', 'los', 'las', 'y', 'del', 'de', 'para', 'por', 'con', 'su', 'en', 'una', 'al', 'factura', 'importe', 'iva', 'fecha', 'pago', 'cliente',
    'cantidad', 'precio', 'total', 'base', 'imponible', 'vencimiento', 'descripcion', 'concepto', 'forma', 'numero', 'gracias', 'unidades', 'subtotal', 'nif', 'cif',
  ],
  ita: [
    'il', 'lo', 'la', 'gli', 'le', 'e', 'del', 'della', 'dei', 'delle', 'di', 'per', 'con', 'da', 'in', 'una', 'fattura', 'importo', 'iva', 'data', 'pagamento',
    'cliente', 'quantita', 'prezzo', 'totale', 'imponibile', 'scadenza', 'descrizione', 'numero', 'aliquota', 'partita', 'codice', 'fiscale', 'grazie',
  ],
  por: [
    'o', 'a', 'os', 'as', 'e', 'do', 'da', 'dos', 'das', 'de', 'para', 'com', 'em', 'no', 'na', 'um', 'uma', 'fatura', 'factura', 'valor', 'iva', 'data',
    'pagamento', 'cliente', 'quantidade', 'preco', 'total', 'vencimento', 'descricao', 'numero', 'contribuinte', 'nif', 'obrigado', 'imposto',
  ],
  nld: [
    'de', 'het', 'een', 'en', 'van', 'voor', 'met', 'op', 'te', 'is', 'uw', 'wij', 'niet', 'aan', 'bij', 'factuur', 'factuurnummer', 'factuurdatum', 'bedrag',
    'btw', 'datum', 'betaling', 'klant', 'klantnummer', 'aantal', 'prijs', 'totaal', 'omschrijving', 'vervaldatum', 'excl', 'incl', 'graag', 'betalen', 'rekening',
  ],
};

/** The languages a page's language is chosen from. */
export const DETECTABLE_LANGUAGES = Object.keys(LEXICONS);

const fold = (w: string) => w.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');

/** Each lexicon word with the languages it belongs to. */
const SHARED = new Map<string, string[]>();
for (const [lang, words] of Object.entries(LEXICONS)) for (const w of words) SHARED.set(w, [...(SHARED.get(w) ?? []), lang]);

/** Each candidate's score on `words`: the lexicon words among them, a word shared by n languages counting 1/n. */
export function languageScores(words: readonly string[], candidates: readonly string[]): Map<string, number> {
  const scores = new Map(candidates.map((c) => [c, 0]));
  for (const raw of words) {
    const langs = SHARED.get(fold(raw));
    if (!langs) continue;
    for (const l of langs) if (scores.has(l)) scores.set(l, scores.get(l)! + 1 / langs.length);
  }
  return scores;
}

/** Least score of the chosen language, and how much more than the default's it must be. */
const MIN_SCORE = 3;
const MARGIN = 1.5;

/**
 * The page's language among `candidates` (installed languages with a lexicon): the best scoring one when it scores at
 * least MIN_SCORE and MARGIN times the default's; else `fallback` (the caller's language).
 */
export function pageLanguage(words: readonly string[], candidates: readonly string[], fallback: string): string {
  const primary = fallback.split('+')[0]!;
  const scores = languageScores(words, candidates.filter((c) => c in LEXICONS));
  const [best, score] = [...scores.entries()].sort((a, b) => b[1] - a[1])[0] ?? [primary, 0];
  if (best === primary || score < MIN_SCORE || score < MARGIN * (scores.get(primary) ?? 0)) return fallback;
  return best;
}
