"""Prints German ZUGFeRD invoices through erechnung 0.3.0's DIN 5008 layout (session 13, s13-items, issue 29).

Run with a Python that has erechnung 0.3.0 (PyPI sdist `erechnung-0.3.0.tar.gz`, MIT) and its dependencies installed
(reportlab 5.1.0, factur-x 7.8, pikepdf 10.18.0, lxml 6.1.3, pillow 13.0.0 here):

    python3 -m venv /tmp/v && /tmp/v/bin/pip install erechnung==0.3.0
    /tmp/v/bin/python bench/extraction-corpus/tools/de_erechnung_print.py bench/extraction-corpus/files/de-erechnung

Each invoice is printed twice: `NAME.pdf`, the plain PDF (`Invoice.pdf_bytes()`, no embedded XML, so that the
engine reads its page, not its XML: this is what is committed and measured), and `NAME.zugferd.pdf` (not committed),
the same page with the CII XML erechnung embeds; the truth is derived from that XML by tools/truth_from_xml.py, so it
is exact. The values are the package's own examples: `quickstart` is README.md's Quickstart (without its logo
file); `positionen` puts together the items of its tests (tests/test_diagnostics.py's long product name that wraps
in its cell, tests/test_extension.py's long description and line note and its per-line discount, units of
units.py, both tax rates) on the same seller and customer. Dates are fixed so that the truth is fixed. The layouts
are the library's. Printing again gives other bytes (PDF dates and ids): what the manifest pins is the committed file.
"""

import os
import sys
from datetime import date
from decimal import Decimal

from erechnung import Customer, Discount, Invoice, LineItem, Seller, Skonto


def seller() -> Seller:
    return Seller("Sample GmbH & Co. KG", "Sample Street", "1", "00000", "Sample City",
                  tax_number="000/000/00000", vat_id="DE123456789",
                  iban="DE02120300000000202051", bic="BYLADEM1001")


def customer() -> Customer:
    return Customer(first_name="Max", last_name="Mustermann", street="Sample Street",
                    house_number="12", postal_code="00000", city="Sample Town")


def write(inv: Invoice, path: str) -> None:
    with open(path, "wb") as f:
        f.write(inv.pdf_bytes())
    inv.zugferd_file(path[: -len(".pdf")] + ".zugferd.pdf")


def quickstart(path: str) -> None:
    inv = Invoice(
        seller=seller(),
        customer=customer(),
        line_items=[LineItem("Sample product 1", Decimal("2"), Decimal("9.99")),
                    LineItem("Voucher booklet", Decimal("1"), Decimal("14.00"), tax_rate=Decimal("7"))],
        invoice_number="0001",
        issue_date=date(2026, 8, 5),
        service_date=date(2026, 8, 5),
        skonto=Skonto(days=7, percent=Decimal("2")),
    )
    write(inv, path)


def positionen(path: str) -> None:
    inv = Invoice(
        seller=seller(),
        customer=customer(),
        line_items=[
            LineItem("Ein sehr langer Produktname " * 5, Decimal("3"), Decimal("10.00")),
            LineItem("Artikel", Decimal("1"), Decimal("100.00"),
                     long_description="Ausführliche Beschreibung", note="Positionsnotiz"),
            LineItem("Beratung", Decimal("2.5"), Decimal("80.00"), unit="h"),
            LineItem("Voucher booklet", Decimal("4"), Decimal("14.00"), tax_rate=Decimal("7")),
        ],
        discounts=[Discount(kind="line", value=Decimal("10"), line_no=2, reason="Rabatt")],
        invoice_number="0002",
        issue_date=date(2026, 8, 12),
        service_date=date(2026, 8, 10),
    )
    write(inv, path)


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    quickstart(os.path.join(out, "quickstart.pdf"))
    positionen(os.path.join(out, "positionen.pdf"))
    print("printed", out)
