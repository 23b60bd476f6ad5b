"""Derives a corpus document's truth from the e-invoice XML it carries (or is), independently of the engine.

Usage: python truth_from_xml.py INVOICE.(xml|pdf) [--member NAME]

Reads CII (ZUGFeRD 1.0 CrossIndustryDocument, Factur-X / ZUGFeRD 2.x CrossIndustryInvoice), UBL 2.1 (Invoice,
CreditNote), FatturaPA (FatturaElettronica 1.2: the header's parties and the first body; subtotal and tax are the
sums over its DatiRiepilogo) and the simplified FatturaPA (FatturaElettronicaSemplificata 1.0), matching elements by local name so the namespace versions do not matter. For a PDF the embedded XML is
taken with poppler's `pdfdetach`; for a UBL invoice carrying its PDF (AdditionalDocumentReference), `--pdf OUT`
writes that PDF out. Prints the truth JSON (canonical fields and line items, normalised: dates YYYY-MM-DD, amounts
as plain decimals, VAT ids and IBANs without spaces) on stdout. Standard library only.
"""

import base64
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from decimal import Decimal


CANONICAL_FIELDS = ("invoice_number", "invoice_date", "due_date", "seller_name", "buyer_name", "seller_vat_id", "buyer_vat_id",
                    "currency", "subtotal", "tax", "total", "iban")


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def kids(el, *path):
    """Descendants along a path of local names (each step: direct children)."""
    cur = [el] if el is not None else []
    for name in path:
        cur = [c for p in cur for c in p if local(c.tag) == name]
    return cur


def first(el, *path):
    found = kids(el, *path) if el is not None else []
    return found[0] if found else None


def either(*els):
    """The first element that exists (an element without children is falsy, so `or` cannot be used)."""
    return next((e for e in els if e is not None), None)


def text(el, *path):
    e = first(el, *path)
    return e.text.strip() if e is not None and e.text and e.text.strip() else None


def day(s):
    """An xs:date as YYYY-MM-DD: a timezone written after it ("2015-06-03+02:00") is not part of the day."""
    if s and len(s) > 10 and s[4] == "-" and s[7] == "-" and s[10] in "Z+-":
        return s[:10]
    return s


def amount(s):
    if s is None:
        return None
    d = Decimal(s.strip())
    q = d.quantize(Decimal("0.01")) if d == d.quantize(Decimal("0.01")) else d.normalize()
    return format(q, "f")


def number(s):
    if s is None:
        return None
    d = Decimal(s.strip()).normalize()
    return format(d, "f")


def cii_date(el):
    if el is None:
        return None
    s = text(el, "DateTimeString")
    if s and len(s) == 8 and s.isdigit():
        return f"{s[0:4]}-{s[4:6]}-{s[6:8]}"
    return s


def line_item(description, quantity, unit_price, line_amount):
    """A line item of the truth, normalised (quantity a plain number, prices and amount plain decimals)."""
    return {"description": description, "quantity": number(quantity), "unit_price": amount(unit_price), "amount": amount(line_amount)}


def compact(s):
    return s.replace(" ", "").upper() if s else None


def from_cii(root):
    doc = either(first(root, "HeaderExchangedDocument"), first(root, "ExchangedDocument"))
    tx = either(first(root, "SpecifiedSupplyChainTradeTransaction"), first(root, "SupplyChainTradeTransaction"))
    agreement = either(first(tx, "ApplicableSupplyChainTradeAgreement"), first(tx, "ApplicableHeaderTradeAgreement"))
    settlement = either(first(tx, "ApplicableSupplyChainTradeSettlement"), first(tx, "ApplicableHeaderTradeSettlement"))
    seller = first(agreement, "SellerTradeParty")
    buyer = first(agreement, "BuyerTradeParty")

    def vat(party):
        for reg in kids(party, "SpecifiedTaxRegistration"):
            i = first(reg, "ID")
            if i is not None and i.get("schemeID") == "VA":
                return compact(i.text)
        return None

    summation = either(first(settlement, "SpecifiedTradeSettlementMonetarySummation"), first(settlement, "SpecifiedTradeSettlementHeaderMonetarySummation"))
    due = None
    terms = first(settlement, "SpecifiedTradePaymentTerms")
    if terms is not None:
        due = cii_date(first(terms, "DueDateDateTime"))
    iban = None
    for means in kids(settlement, "SpecifiedTradeSettlementPaymentMeans"):
        iban = iban or compact(text(means, "PayeePartyCreditorFinancialAccount", "IBANID"))
    subtotal = text(summation, "TaxBasisTotalAmount") or text(summation, "LineTotalAmount")
    items = []
    for line in kids(tx, "IncludedSupplyChainTradeLineItem"):
        product = first(line, "SpecifiedTradeProduct")
        line_agreement = either(first(line, "SpecifiedSupplyChainTradeAgreement"), first(line, "SpecifiedLineTradeAgreement"))
        delivery = either(first(line, "SpecifiedSupplyChainTradeDelivery"), first(line, "SpecifiedLineTradeDelivery"))
        line_settlement = either(first(line, "SpecifiedSupplyChainTradeSettlement"), first(line, "SpecifiedLineTradeSettlement"))
        price = first(line_agreement, "NetPriceProductTradePrice")
        basis = text(price, "BasisQuantity")
        unit_price = text(price, "ChargeAmount")
        if unit_price is not None and basis is not None and Decimal(basis) not in (Decimal(0), Decimal(1)):
            unit_price = str(Decimal(unit_price) / Decimal(basis))
        line_amount = text(line_settlement, "SpecifiedTradeSettlementMonetarySummation", "LineTotalAmount") or text(
            line_settlement, "SpecifiedTradeSettlementLineMonetarySummation", "LineTotalAmount")
        if product is None:
            continue  # a note line (IncludedNote only): no product, quantity or amount
        items.append(line_item(text(product, "Name"), text(delivery, "BilledQuantity"), unit_price, line_amount))
    return {
        "fields": {
            "invoice_number": text(doc, "ID"),
            "invoice_date": cii_date(first(doc, "IssueDateTime")),
            "due_date": due,
            "seller_name": text(seller, "Name"),
            "buyer_name": text(buyer, "Name"),
            "seller_vat_id": vat(seller),
            "buyer_vat_id": vat(buyer),
            "currency": text(settlement, "InvoiceCurrencyCode"),
            "subtotal": amount(subtotal),
            "tax": amount(text(summation, "TaxTotalAmount")),
            "total": amount(text(summation, "GrandTotalAmount")),
            "iban": iban,
        },
        "items": items,
        "document_type": text(doc, "TypeCode"),
    }


def from_ubl(root):
    def party(role):
        p = first(root, role, "Party")
        name = text(p, "PartyLegalEntity", "RegistrationName") or text(p, "PartyName", "Name")
        vat = None
        for scheme in kids(p, "PartyTaxScheme"):
            # BT-31/BT-48 (VAT identifier) only: a tax registration under another scheme (BT-32, e.g. a German
            # Steuernummer) is not a VAT id, as the CII path takes schemeID VA only.
            if text(scheme, "TaxScheme", "ID") == "VAT":
                vat = vat or compact(text(scheme, "CompanyID"))
        return name, vat

    seller, seller_vat = party("AccountingSupplierParty")
    buyer, buyer_vat = party("AccountingCustomerParty")
    totals = first(root, "LegalMonetaryTotal")
    tax = None
    for t in kids(root, "TaxTotal"):
        tax = tax or text(t, "TaxAmount")
    iban = None
    for means in kids(root, "PaymentMeans"):
        iban = iban or compact(text(means, "PayeeFinancialAccount", "ID"))
    due = day(text(root, "DueDate") or text(root, "PaymentMeans", "PaymentDueDate"))
    items = []
    for line in kids(root, "InvoiceLine") + kids(root, "CreditNoteLine"):
        qty = text(line, "InvoicedQuantity") or text(line, "CreditedQuantity")
        price = first(line, "Price")
        unit_price = text(price, "PriceAmount")
        basis = text(price, "BaseQuantity")
        if unit_price is not None and basis is not None and Decimal(basis) not in (Decimal(0), Decimal(1)):
            unit_price = str(Decimal(unit_price) / Decimal(basis))
        items.append(line_item(text(line, "Item", "Name") or text(line, "Item", "Description"), qty, unit_price,
                               text(line, "LineExtensionAmount")))
    return {
        "fields": {
            "invoice_number": text(root, "ID"),
            "invoice_date": day(text(root, "IssueDate")),
            "due_date": due,
            "seller_name": seller,
            "buyer_name": buyer,
            "seller_vat_id": seller_vat,
            "buyer_vat_id": buyer_vat,
            "currency": text(root, "DocumentCurrencyCode"),
            "subtotal": amount(text(totals, "TaxExclusiveAmount")),
            "tax": amount(tax),
            "total": amount(text(totals, "TaxInclusiveAmount")),
            "iban": iban,
        },
        "items": items,
        "document_type": text(root, "InvoiceTypeCode") or local(root.tag),
    }


def embedded_pdf(root, out):
    for ref in kids(root, "AdditionalDocumentReference"):
        obj = first(ref, "Attachment", "EmbeddedDocumentBinaryObject")
        if obj is not None and obj.get("mimeCode") == "application/pdf":
            with open(out, "wb") as f:
                f.write(base64.b64decode(obj.text))
            return True
    return False


def from_fatturapa(root):
    """FatturaPA (Italian FatturaElettronica 1.2): the header's parties and the first body."""
    header = first(root, "FatturaElettronicaHeader")
    body = first(root, "FatturaElettronicaBody")
    general = first(body, "DatiGenerali", "DatiGeneraliDocumento")

    def party(role):
        data = first(header, role, "DatiAnagrafici")
        reg = first(data, "Anagrafica")
        name = text(reg, "Denominazione") or " ".join(x for x in (text(reg, "Nome"), text(reg, "Cognome")) if x) or None
        vat = first(data, "IdFiscaleIVA")
        country, code = (text(vat, "IdPaese"), text(vat, "IdCodice")) if vat is not None else (None, None)
        # An IdCodice already starting with its IdPaese ("BE" + "BE0477472701") does not repeat the country.
        vat_id = compact(code if country and code and code.upper().startswith(country.upper()) else f"{country}{code}") if vat is not None else None
        return name, vat_id

    seller, seller_vat = party("CedentePrestatore")
    buyer, buyer_vat = party("CessionarioCommittente")
    goods = first(body, "DatiBeniServizi")
    summaries = kids(goods, "DatiRiepilogo")
    base = sum((Decimal(text(r, "ImponibileImporto")) for r in summaries), Decimal(0)) if summaries else None
    tax = sum((Decimal(text(r, "Imposta")) for r in summaries), Decimal(0)) if summaries else None
    payments = [d for p in kids(body, "DatiPagamento") for d in kids(p, "DettaglioPagamento")]
    due = next((day(text(d, "DataScadenzaPagamento")) for d in payments if text(d, "DataScadenzaPagamento")), None)
    iban = next((compact(text(d, "IBAN")) for d in payments if text(d, "IBAN")), None)
    items = [line_item(text(line, "Descrizione"), text(line, "Quantita"), text(line, "PrezzoUnitario"), text(line, "PrezzoTotale"))
             for line in kids(goods, "DettaglioLinee")]
    values = (text(general, "Numero"), day(text(general, "Data")), due, seller, buyer, seller_vat, buyer_vat, text(general, "Divisa"),
              amount(str(base)) if base is not None else None, amount(str(tax)) if tax is not None else None,
              amount(text(general, "ImportoTotaleDocumento")), iban)
    return {
        "fields": dict(zip(CANONICAL_FIELDS, values)),
        "items": items,
        "document_type": text(general, "TipoDocumento"),
        "bodies": len(kids(root, "FatturaElettronicaBody")),
    }


def from_fatturapa_simplified(root):
    """Simplified FatturaPA (FatturaElettronicaSemplificata 1.0): the parties' names and VAT ids stand in the party
    itself (seller) or under IdentificativiFiscali / AltriDatiIdentificativi (buyer); each DatiBeniServizi is a line of
    a description and an amount with VAT (Importo). The total is the sum of the amounts; the tax the sum of the VAT
    amounts (DatiIVA/Imposta) when every line gives one (a rate alone states none); no subtotal, payment data,
    quantities or unit prices exist in the format."""
    header = first(root, "FatturaElettronicaHeader")
    body = first(root, "FatturaElettronicaBody")
    general = first(body, "DatiGenerali", "DatiGeneraliDocumento")

    def name(el):
        return text(el, "Denominazione") or " ".join(x for x in (text(el, "Nome"), text(el, "Cognome")) if x) or None

    def vat(el):
        v = first(el, "IdFiscaleIVA")
        if v is None:
            return None
        country, code = text(v, "IdPaese"), text(v, "IdCodice")
        return compact(code if code.upper().startswith(country.upper()) else f"{country}{code}")

    seller = first(header, "CedentePrestatore")
    buyer = first(header, "CessionarioCommittente")
    goods = kids(body, "DatiBeniServizi")
    total = sum((Decimal(text(g, "Importo")) for g in goods), Decimal(0)) if goods else None
    taxes = [text(g, "DatiIVA", "Imposta") for g in goods]
    tax = sum((Decimal(t) for t in taxes), Decimal(0)) if goods and all(taxes) else None
    values = (text(general, "Numero"), day(text(general, "Data")), None, name(seller), name(first(buyer, "AltriDatiIdentificativi")),
              vat(seller), vat(first(buyer, "IdentificativiFiscali")), text(general, "Divisa"), None,
              amount(str(tax)) if tax is not None else None, amount(str(total)) if total is not None else None, None)
    return {
        "fields": dict(zip(CANONICAL_FIELDS, values)),
        "items": [line_item(text(g, "Descrizione"), None, None, text(g, "Importo")) for g in goods],
        "document_type": text(general, "TipoDocumento"),
        "bodies": len(kids(root, "FatturaElettronicaBody")),
    }


def xml_attachment(path):
    """The number of the PDF's first embedded file named *.xml (a Factur-X PDF may carry other files first)."""
    listing = subprocess.run(["pdfdetach", "-list", path], check=True, capture_output=True, text=True).stdout
    for line in listing.splitlines()[1:]:
        number, _, name = line.partition(": ")
        if name.strip().lower().endswith(".xml"):
            return int(number)
    sys.exit(f"no embedded XML file in {path}")


def main(argv):
    path = argv[1]
    pdf_out = argv[argv.index("--pdf") + 1] if "--pdf" in argv else None
    if path.lower().endswith(".pdf"):
        with tempfile.TemporaryDirectory() as tmp:
            target = os.path.join(tmp, "embedded.xml")
            subprocess.run(["pdfdetach", "-save", str(xml_attachment(path)), "-o", target, path], check=True)
            root = ET.parse(target).getroot()
    else:
        root = ET.parse(path).getroot()
    kind = local(root.tag)
    truth = (from_ubl(root) if kind in ("Invoice", "CreditNote") else from_fatturapa(root) if kind == "FatturaElettronica"
             else from_fatturapa_simplified(root) if kind == "FatturaElettronicaSemplificata" else from_cii(root))
    if pdf_out and not embedded_pdf(root, pdf_out):
        sys.exit("no embedded PDF")
    json.dump(truth, sys.stdout, ensure_ascii=False, indent=2)
    print()


if __name__ == "__main__":
    main(sys.argv)
