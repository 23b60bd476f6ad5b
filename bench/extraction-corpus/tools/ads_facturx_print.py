"""Print French invoices through ads-facturx 0.7.19's PDF layouts (session 11, issue 29).

How the committed PDFs under bench/extraction-corpus/files/ads-facturx/ were made (see the corpus README, "French
invoices printed by ads-facturx"). Run once with a Python that has ads-facturx 0.7.19 (sdist
ads_facturx-0.7.19.tar.gz, SHA-256 93125f66…853c, MIT) and its dependencies installed, plus that sdist's
`ads_facturx/Samples/` (the wheel does not ship them), and facturex 0.6.4's sdist (facturex-0.6.4.tar.gz, SHA-256
debeb143…adec, MIT) unpacked:

    python ads_facturx_print.py FACTUREX_FIXTURES_DIR OUT_DIR

Three invoices, each printed in the package's two layouts (`default`: export_pdf(data=...), the library's own
template; `sobre`: export_pdf(structure=sample_structure(...)), the package's sample of a caller-defined layout):
- `exemple`: the package's own demonstration invoice (`Samples.sample_devis.sample_fr`), as it is;
- `fa0001`: facturex's tests/fixtures/facture_cii.xml (a CII invoice), its values mapped onto ads-facturx's model;
- `fa0002`: facturex's tests/fixtures/facture_ubl.xml (a UBL invoice), likewise.
The XML-mapped invoices fill the layout's free blocks (identification, reference box, client block, footer) the way
the package's sample fills them, from the XML's own values only. No value is invented; what the layout leaves out
(e.g. the buyer in `sobre`) is null in the truth.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from copy import deepcopy
from pathlib import Path

from ads_facturx.Builders.pdf.generate_pdf import export_pdf
from ads_facturx.models.models import DevisData
from ads_facturx.Samples.sample_devis import sample_fr
from ads_facturx.Samples.sample_structure import sample_structure

NS = {
    "rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    "ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
    "udt": "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
    "cac": "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
    "cbc": "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
}


def t(node: ET.Element, path: str) -> str:
    found = node.find(path, NS)
    return (found.text or "").strip() if found is not None else ""


def blocks(d: dict, seller: dict, buyer: dict, iban: str, reference: str) -> dict:
    """The layout's free blocks, filled as the package's sample fills them, from the invoice's own values."""
    a = seller["address"]
    d["identification"] = [
        {"information": seller["name"]},
        {"information": a["adr_l1"]},
        {"information": f"{a['postcode']} {a['city']} - France"},
        {"information": ""},
        {"information": f"N° TVA : {seller['vat']}"},
    ]
    d["reference_box"] = [{"type_line": "title", "rb_label": "Référence :", "rb_description": reference}]
    b = buyer["address"]
    d["footer_information"] = [
        {"label": "Adresse Client", "description": buyer["name"], "type_line": "title"},
        {"label": "", "description": b["adr_l1"], "type_line": "comment"},
        {"label": "", "description": f"{b['postcode']} {b['city']}", "type_line": "comment"},
        {"label": "Mode de règlement :", "description": "VIREMENT", "type_line": "comment"},
        {"label": "IBAN :", "description": iban, "type_line": "comment"},
    ]
    d["footer"] = [
        {
            "society": "1",
            "sort_order": 101,
            "formatting": "normal",
            "size": "10pt",
            "text_alignment": "left",
            "information": seller.get("email", ""),
        }
    ]
    return d


def spaced_iban(iban: str) -> str:
    return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))


def from_cii(path: Path) -> dict:
    root = ET.parse(path).getroot()
    doc = root.find("rsm:ExchangedDocument", NS)
    tx = root.find("rsm:SupplyChainTradeTransaction", NS)
    agr = tx.find("ram:ApplicableHeaderTradeAgreement", NS)
    st = tx.find("ram:ApplicableHeaderTradeSettlement", NS)
    sums = st.find("ram:SpecifiedTradeSettlementHeaderMonetarySummation", NS)

    def party(p: ET.Element) -> dict:
        return {
            "name": t(p, "ram:Name"),
            "address": {
                "adr_l1": t(p, "ram:PostalTradeAddress/ram:LineOne"),
                "adr_l2": "",
                "adr_l3": "",
                "postcode": t(p, "ram:PostalTradeAddress/ram:PostcodeCode"),
                "city": t(p, "ram:PostalTradeAddress/ram:CityName"),
                "country_id": t(p, "ram:PostalTradeAddress/ram:CountryID"),
            },
            "vat": t(p, "ram:SpecifiedTaxRegistration/ram:ID"),
            "email": t(p, "ram:URIUniversalCommunication/ram:URIID"),
        }

    seller = party(agr.find("ram:SellerTradeParty", NS))
    buyer = party(agr.find("ram:BuyerTradeParty", NS))
    lines = []
    for n, li in enumerate(tx.findall("ram:IncludedSupplyChainTradeLineItem", NS), 1):
        lines.append(
            {
                "type_line": "product",
                "line_id": n,
                "product_description": t(li, "ram:SpecifiedTradeProduct/ram:Name"),
                "quantity": float(t(li, "ram:SpecifiedLineTradeDelivery/ram:BilledQuantity")),
                "unit_price": float(
                    t(li, "ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount")
                ),
                "unit_code": "j",
                "tva_code": float(
                    t(li, "ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:RateApplicablePercent")
                ),
                "tva_type": "S",
                "line_amount": float(
                    t(
                        li,
                        "ram:SpecifiedLineTradeSettlement/"
                        "ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount",
                    )
                ),
            }
        )
    summary = []
    for tax in st.findall("ram:ApplicableTradeTax", NS):
        base, amount = float(t(tax, "ram:BasisAmount")), float(t(tax, "ram:CalculatedAmount"))
        summary.append(
            {
                "rate": float(t(tax, "ram:RateApplicablePercent")),
                "base_amount": base,
                "vat_amount": amount,
                "vat_code": t(tax, "ram:CategoryCode"),
                "ttc_amount": round(base + amount, 2),
            }
        )
    due = t(st, "ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString")
    reference = t(agr, "ram:BuyerReference")
    d = {
        "seller": seller,
        "buyer": buyer,
        "invoice": {
            "name": t(doc, "ram:ID"),
            "order": t(agr, "ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID"),
            "member": "",
            "date": t(doc, "ram:IssueDateTime/udt:DateTimeString"),
            "expiration": due,
            "reference": reference,
            "type_code": t(doc, "ram:TypeCode"),
            "date_format": "102",
            "currency": t(st, "ram:InvoiceCurrencyCode"),
            "line_total_amount": float(t(sums, "ram:LineTotalAmount")),
            "tax_total_amount": float(t(sums, "ram:TaxTotalAmount")),
            "tax_basis_total_amount": float(t(sums, "ram:TaxBasisTotalAmount")),
            "grand_total_amount": float(t(sums, "ram:GrandTotalAmount")),
            "due_payable_amount": float(t(sums, "ram:DuePayableAmount")),
        },
        "invoice_lines": lines,
        "invoice_summary": summary,
    }
    iban = t(st, "ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeePartyCreditorFinancialAccount/ram:IBANID")
    return blocks(d, seller, buyer, spaced_iban(iban), reference)


def from_ubl(path: Path) -> dict:
    root = ET.parse(path).getroot()

    def party(p: ET.Element) -> dict:
        return {
            "name": t(p, "cac:PartyName/cbc:Name"),
            "address": {
                "adr_l1": t(p, "cac:PostalAddress/cbc:StreetName"),
                "adr_l2": "",
                "adr_l3": "",
                "postcode": t(p, "cac:PostalAddress/cbc:PostalZone"),
                "city": t(p, "cac:PostalAddress/cbc:CityName"),
                "country_id": t(p, "cac:PostalAddress/cac:Country/cbc:IdentificationCode"),
            },
            "vat": t(p, "cac:PartyTaxScheme/cbc:CompanyID"),
            "email": t(p, "cac:Contact/cbc:ElectronicMail"),
        }

    seller = party(root.find("cac:AccountingSupplierParty/cac:Party", NS))
    buyer = party(root.find("cac:AccountingCustomerParty/cac:Party", NS))
    lines = []
    for n, li in enumerate(root.findall("cac:InvoiceLine", NS), 1):
        lines.append(
            {
                "type_line": "product",
                "line_id": n,
                "product_description": t(li, "cac:Item/cbc:Name"),
                "quantity": float(t(li, "cbc:InvoicedQuantity")),
                "unit_price": float(t(li, "cac:Price/cbc:PriceAmount")),
                "unit_code": "U",
                "tva_code": float(t(li, "cac:Item/cac:ClassifiedTaxCategory/cbc:Percent")),
                "tva_type": "S",
                "line_amount": float(t(li, "cbc:LineExtensionAmount")),
            }
        )
    summary = []
    for sub in root.findall("cac:TaxTotal/cac:TaxSubtotal", NS):
        base, amount = float(t(sub, "cbc:TaxableAmount")), float(t(sub, "cbc:TaxAmount"))
        summary.append(
            {
                "rate": float(t(sub, "cac:TaxCategory/cbc:Percent")),
                "base_amount": base,
                "vat_amount": amount,
                "vat_code": t(sub, "cac:TaxCategory/cbc:ID"),
                "ttc_amount": round(base + amount, 2),
            }
        )
    total = root.find("cac:LegalMonetaryTotal", NS)
    reference = t(root, "cbc:BuyerReference")
    d = {
        "seller": seller,
        "buyer": buyer,
        "invoice": {
            "name": t(root, "cbc:ID"),
            "order": "",
            "member": "",
            "date": t(root, "cbc:IssueDate").replace("-", ""),
            "expiration": t(root, "cbc:DueDate").replace("-", ""),
            "reference": reference,
            "type_code": t(root, "cbc:InvoiceTypeCode"),
            "date_format": "102",
            "currency": t(root, "cbc:DocumentCurrencyCode"),
            "line_total_amount": float(t(total, "cbc:LineExtensionAmount")),
            "tax_total_amount": float(t(root, "cac:TaxTotal/cbc:TaxAmount")),
            "tax_basis_total_amount": float(t(total, "cbc:TaxExclusiveAmount")),
            "grand_total_amount": float(t(total, "cbc:TaxInclusiveAmount")),
            "due_payable_amount": float(t(total, "cbc:PayableAmount")),
        },
        "invoice_lines": lines,
        "invoice_summary": summary,
    }
    iban = t(root, "cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:ID")
    return blocks(d, seller, buyer, spaced_iban(iban), reference)


def main() -> None:
    fixtures, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    invoices = {
        "exemple": deepcopy(sample_fr),
        "fa0001": from_cii(fixtures / "facture_cii.xml"),
        "fa0002": from_ubl(fixtures / "facture_ubl.xml"),
    }
    for name, raw in invoices.items():
        data = DevisData.model_validate(raw)
        export_pdf("Facture", str(out / f"{name}-default.pdf"), data=data)
        export_pdf("Facture", str(out / f"{name}-sobre.pdf"), structure=sample_structure(data))
        print(name, "printed")


if __name__ == "__main__":
    main()
