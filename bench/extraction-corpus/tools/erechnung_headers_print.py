"""Prints three ZUGFeRD (EN 16931) invoices' pages with the German invoicing library `erechnung` (session 13, s13-flags).

Run with a Python that has `erechnung` 0.3.0 (PyPI sdist `erechnung-0.3.0.tar.gz`, SHA-256
`9aa38657385bb59c82cb264f400b38ea04b89220ec6d3fd1af047413ec1351e9`, MIT; its DIN 5008 layout and its Arimo fonts)
and its dependencies:

    python3 -m venv /tmp/v && /tmp/v/bin/pip install reportlab==4.5.1 factur-x==7.8 pikepdf==10.18.0 lxml pillow
    /tmp/v/bin/pip install --no-deps erechnung==0.3.0
    /tmp/v/bin/python bench/extraction-corpus/tools/erechnung_headers_print.py bench/extraction-corpus/files/erechnung-headers /tmp/zugferd

`b2b`, `gutschrift` and `en` use the library's documented switches (a company buyer with a VAT id, a delivery
address, an invoice discount and a surcharge, Skonto; a credit note that cites the invoice it corrects, with that
invoice's number and date; the English layout with reverse charge), filled with made-up values. (The README's
Quickstart example is printed by s13-items' `de_erechnung_print.py`, not here.) The committed PDFs are the
library's plain print (`pdf_bytes()`, no XML attached), so that every form of them is read from the page; the same
invoice as a ZUGFeRD file (`zugferd_file()`, the page with its CII XML) is written to the second folder, and its XML
is the truth (`truth_from_xml.py`), less what the page does not print. ReportLab dates each PDF, so printing again
gives other bytes: what the manifest pins is the committed file.
"""

import sys
from datetime import date
from decimal import Decimal

from erechnung import Customer, Invoice, LineItem, Seller, Skonto
from erechnung.models import CustomerType, InvoiceType, DeliveryAddress, Discount, Language, Surcharge


def gutschrift() -> Invoice:
    return Invoice(
        seller=Seller("Weinkontor Kessler e.K.", "Rheinstraße", "118", "55116", "Mainz",
                      vat_id="DE268416902", iban="DE44500105175407324931", bic="INGDDEFFXXX"),
        customer=Customer(company="Gasthaus Zur Linde GmbH", street="Marktplatz", house_number="3",
                          postal_code="65183", city="Wiesbaden", customer_type=CustomerType.B2B,
                          vat_id="DE314159265", customer_number="4711"),
        line_items=[LineItem("Riesling trocken 2024, 0,75 l (Bruch bei Lieferung)", Decimal("6"), Decimal("8.40"),
                             ),
                    LineItem("Pfandkiste", Decimal("1"), Decimal("3.00"))],
        invoice_number="GS-2026-0042",
        invoice_type=InvoiceType.CREDIT_NOTE,
        reference_number="RE-2026-0398",
        reference_date=date(2026, 5, 28),
        issue_date=date(2026, 6, 9),
        service_date=date(2026, 6, 2),
        due_date=date(2026, 6, 23),
    )


def b2b() -> Invoice:
    return Invoice(
        seller=Seller("Holzwerkstatt Brandt GmbH", "Am Sägewerk", "4", "79100", "Freiburg im Breisgau",
                      vat_id="DE123456789", tax_number="06470/12345", iban="DE02120300000000202051",
                      bic="BYLADEM1001", phone="0761 123456", email="info@holz-brandt.example"),
        customer=Customer(company="Café Morgenrot OHG", first_name="Jana", last_name="Winter",
                          street="Lindenallee", house_number="23", postal_code="79098", city="Freiburg",
                          customer_type=CustomerType.B2B, vat_id="DE987654321", customer_number="K-10442"),
        line_items=[LineItem("Eichentisch, geölt, 180 x 90 cm", Decimal("2"), Decimal("1240.00")),
                    LineItem("Sitzbank Eiche", Decimal("4"), Decimal("385.50")),
                    LineItem("Montage vor Ort", Decimal("6.5"), Decimal("58.00"), unit="h")],
        invoice_number="RE-2026-0317",
        issue_date=date(2026, 3, 12),
        service_date=date(2026, 3, 9),
        due_date=date(2026, 4, 11),
        discounts=[Discount(kind="invoice", value=Decimal("3"), tax_rate=Decimal("19"), reason="Treuerabatt")],
        surcharges=[Surcharge(kind="invoice", value=Decimal("45.00"), is_percent=False, tax_rate=Decimal("19"),
                              reason="Anlieferung")],
        delivery_address=DeliveryAddress(name="Café Morgenrot, Filiale Wiehre", street="Günterstalstraße",
                                         house_number="71", postal_code="79100", city="Freiburg"),
        skonto=Skonto(days=10, percent=Decimal("2")),
    )


def en() -> Invoice:
    return Invoice(
        seller=Seller("Nordlicht Software GmbH", "Hafenstraße", "9", "20459", "Hamburg",
                      vat_id="DE811907980", iban="DE75512108001245126199", bic="SOGEDEFFXXX"),
        customer=Customer(company="Blue Harbor Trading Ltd", street="Quay Road", house_number="14",
                          postal_code="1010", city="Wien", country="AT", customer_type=CustomerType.B2B,
                          vat_id="ATU13585627"),
        line_items=[LineItem("Annual licence, team edition", Decimal("1"), Decimal("4800.00"), tax_rate=Decimal("0")),
                    LineItem("Onboarding workshop (remote)", Decimal("2"), Decimal("950.00"), tax_rate=Decimal("0"))],
        invoice_number="NL-2026-1045",
        issue_date=date(2026, 11, 3),
        service_from=date(2026, 11, 1),
        service_to=date(2027, 10, 31),
        due_date=date(2026, 11, 17),
        reverse_charge=True,
        language=Language.EN,
    )


def main(out: str, zugferd_out: str) -> None:
    for name, make in (("b2b", b2b), ("gutschrift", gutschrift), ("en", en)):
        with open(f"{out}/erechnung-{name}.pdf", "wb") as f:
            f.write(make().pdf_bytes())
        make().zugferd_file(f"{zugferd_out}/erechnung-{name}.pdf")
        print(f"{out}/erechnung-{name}.pdf")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
