"""Truth of a FatturaPA XML printed to PDF through its stylesheet (manifest `extract: fatturapa-pdf`).

usage: python3 truth_rendered_fatturapa.py ID XML PDF > truth/ID.json

The values are the XML's (truth_from_xml.py's `from_fatturapa`), kept only where the printed page shows them, decided
mechanically so that no one reads a held-out page to make its truth: a field, or a line item's column, whose value
does not occur in the page's text (`pdftotext -layout`; amounts as the stylesheet prints them, 1.234,56 or 1234,56;
dates as DD-MM-YYYY; the currency code) is null: the page does not give it. Line items are kept whole.
"""
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal

from truth_from_xml import from_fatturapa


def amount_spellings(v):
    d = Decimal(v)
    out = set()
    for places in (2, 3, 4, 5, 6, 8):
        s = f"{d:.{places}f}"
        whole, frac = s.split(".")
        out.add(f"{whole},{frac}")
        grouped = f"{int(whole):,}".replace(",", ".") if not whole.startswith("-") else "-" + f"{int(whole[1:]):,}".replace(",", ".")
        out.add(f"{grouped},{frac}")
    return out


def printed(value, kind, text, squashed):
    if value is None:
        return False
    if kind == "amount":
        return any(re.search(r"(?<![\d.,])" + re.escape(s) + r"(?![\d])", text) for s in amount_spellings(value))
    if kind == "date":
        y, m, d = value.split("-")
        return f"{d}-{m}-{y}" in text
    return re.sub(r"\s+", "", value).lower() in squashed


KINDS = {"invoice_date": "date", "due_date": "date", "subtotal": "amount", "tax": "amount", "total": "amount"}


def main(argv):
    doc_id, xml_path, pdf_path = argv[1:4]
    truth = from_fatturapa(ET.parse(xml_path).getroot())
    text = subprocess.run(["pdftotext", "-layout", pdf_path, "-"], check=True, capture_output=True, text=True).stdout
    squashed = re.sub(r"\s+", "", text).lower()
    fields = {}
    dropped = []
    for k, v in truth["fields"].items():
        keep = printed(v, KINDS.get(k, "text"), text, squashed)
        fields[k] = v if keep else None
        if v is not None and not keep:
            dropped.append(k)
    items = []
    for item in truth["items"]:
        row = dict(item)
        for col in ("quantity", "unit_price", "amount"):
            if row[col] is not None and not printed(row[col], "amount", text, squashed):
                row[col] = None
        items.append(row)
    json.dump(
        {
            "id": doc_id,
            "source": "the FatturaPA XML (bench/extraction-corpus/tools/truth_from_xml.py), printed to PDF through the "
            "AssoSoftware stylesheet; a value the printed page does not show is null (truth_rendered_fatturapa.py, "
            "decided mechanically)",
            "fields": fields,
            "items": items,
            "notes": [f"in the XML, not printed on the page (null here): {', '.join(dropped)}"] if dropped else [],
        },
        sys.stdout,
        ensure_ascii=False,
        indent=2,
    )
    print()


if __name__ == "__main__":
    main(sys.argv)
