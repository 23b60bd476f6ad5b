"""Prints Argentine (Spanish) invoices through arca-factura-pdf 0.1.0's ARCA/AFIP layout (session 13, s13-items).

Run with a Python that has arca-factura-pdf 0.1.0 (PyPI sdist `arca_factura_pdf-0.1.0.tar.gz`, MIT) installed with its
dependencies (fpdf2, qrcode, Pillow, pydantic):

    python3 -m venv /tmp/v && /tmp/v/bin/pip install arca-factura-pdf==0.1.0
    /tmp/v/bin/python bench/extraction-corpus/tools/es_arca_print.py bench/extraction-corpus/files/es-arca

The invoices are the package's own samples (`factura_pdf.samples.sample_invoice`): `a_productos` (Factura A, three
products, name and description on one line) and `b_larga` (Factura B, 45 items over two pages, the table header
printed again on page 2). The table has eight columns: the line amount is the net `Subtotal`, followed by the rate
(Factura A) and the amount with VAT (`Subtotal c/IVA`); the unit is a column of its own (`unidades`). The truth
(truth/es-arca-*.json) is the sample's own data, checked on the print with pdftotext -layout. The PDFs carry the
print date, so printing again gives other bytes: what the manifest pins is the committed file.
"""

import os
import sys

from factura_pdf import generate_invoice_pdf
from factura_pdf.samples import sample_invoice

if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for kind in ("a_productos", "b_larga"):
        detail, arca_data, result, cuit = sample_invoice(kind)
        with open(os.path.join(out, kind.replace("_", "-") + ".pdf"), "wb") as f:
            f.write(generate_invoice_pdf(detail, arca_data, result, cuit_emisor=cuit))
    print("printed", out)
