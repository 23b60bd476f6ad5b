"""Prints the English invoices of two invoice libraries' own examples (session 12, s12-xen).

Run with a Python that has `InvoiceGenerator` 1.2.0 (PyPI sdist `invoicegenerator-1.2.0.tar.gz`, BSD) and `PyInvoice`
0.1.7 (sdist `PyInvoice-0.1.7.tar.gz`, MIT) installed, with reportlab 4.5.1, pillow and babel:

    python3 -m venv /tmp/v && /tmp/v/bin/pip install reportlab==4.5.1 pillow babel
    /tmp/v/bin/pip install --no-deps invoicegenerator==1.2.0 PyInvoice==0.1.7
    /tmp/v/bin/python bench/extraction-corpus/tools/en_generators_print.py bench/extraction-corpus/files/en-generators

The values are the packages' own examples (InvoiceGenerator's README "Basic API" in English with its test
`test_generate_with_vat`'s number; PyInvoice's README / `tests/test_templates.py` `test_simple`); where an example
takes today's date, a fixed date is used instead so that the truth is fixed. The layouts are the libraries'.
ReportLab dates each PDF, so printing again gives other bytes: what the manifest pins is the committed file.
"""

import os
import sys
from datetime import date, datetime
from decimal import Decimal

os.environ["INVOICE_LANG"] = "en"


def invoicegenerator(path: str) -> None:
    from InvoiceGenerator.api import Client, Creator, Invoice, Item, Provider
    from InvoiceGenerator.pdf import SimpleInvoice

    client = Client("Client company")
    provider = Provider("My company", bank_account="2600420569", bank_code="2010")
    creator = Creator("John Doe")
    invoice = Invoice(client, provider, creator)
    invoice.number = "F20140001"
    invoice.date = date(2024, 7, 1)
    invoice.payback = date(2024, 7, 15)
    invoice.currency_locale = "en_US.UTF-8"
    invoice.currency = "$"
    invoice.use_tax = True
    invoice.add_item(Item(32, 600, description="Item 1"))
    invoice.add_item(Item(60, 50, description="Item 2", tax=21))
    invoice.add_item(Item(50, 60, description="Item 3", tax=0))
    invoice.add_item(Item(5, 600, description="Item 4", tax=15))
    SimpleInvoice(invoice).gen(path, generate_qr_code=False)


def pyinvoice(path: str) -> None:
    from pyinvoice.models import ClientInfo, InvoiceInfo, Item, ServiceProviderInfo, Transaction
    from pyinvoice.templates import SimpleInvoice

    when = datetime(2016, 4, 10, 9, 30)
    doc = SimpleInvoice(path)
    doc.is_paid = True
    doc.invoice_info = InvoiceInfo(1023, when, datetime(2016, 4, 24))
    doc.service_provider_info = ServiceProviderInfo(
        name="PyInvoice",
        street="My Street",
        city="My City",
        state="My State",
        country="My Country",
        post_code="222222",
        vat_tax_number="Vat/Tax number",
    )
    doc.client_info = ClientInfo(email="client@example.com")
    doc.add_item(Item("Item", "Item desc", 1, "1.1"))
    doc.add_item(Item("Item", "Item desc", 2, "2.2"))
    doc.add_item(Item("Item", "Item desc", 3, "3.3"))
    doc.set_item_tax_rate(20)
    doc.add_transaction(Transaction("Paypal", 111, when, 1))
    doc.add_transaction(Transaction("Stripe", 222, date(2016, 4, 10), 2))
    doc.set_bottom_tip("Email: example@example.com<br />Don't hesitate to contact us for any questions.")
    doc.finish()


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    invoicegenerator(os.path.join(out, "invoicegenerator-readme.pdf"))
    pyinvoice(os.path.join(out, "pyinvoice-simple.pdf"))
    print("printed", out)
