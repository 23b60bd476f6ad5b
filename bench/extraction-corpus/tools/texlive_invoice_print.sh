#!/bin/sh
# Prints the `invoice` package's own worked example (its manual's Figure 6, "A complete invoice with fees, expenses
# and a deduction") with the package's German and French labels and its decimal-comma option, as the manual's section
# "Document Language" shows (`\usepackage[german,comma]{invoice}` in a 10pt ltxdoc document). Session 16 (s16-tex).
#
# The example's source is taken at print time from the manual's source that Debian's texlive-latex-extra-doc
# 2022.20230122-4 ships (latex/invoice/invoice.tex.gz: the invoice environment of the figure labelled
# full_and_discounted_invoice); nothing of it is copied here. Typeset with Debian bookworm's pdflatex (texlive-base
# 2022.20230122-3, texlive-latex-extra 2022.20230122-4: invoice.sty 0.91, LPPL-1.3c; Latin Modern from lmodern
# 2.005-1, siunitx from texlive-science).
#
#   sh tools/texlive_invoice_print.sh /path/to/usr/share/doc/texlive-doc/latex/invoice/invoice.tex.gz OUTDIR
#
# Writes OUTDIR/invoice-phenix-de.pdf and OUTDIR/invoice-phenix-fr.pdf. pdflatex dates its output, so printing again
# gives other bytes: what the corpus pins is the committed file.
set -eu
src="$1"
out="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The figure's invoice environment: from the last \begin{invoice} before the label to the \end{invoice} after it.
zcat "$src" | awk '
  /\\begin\{figure\}/ { buf = ""; keep = 0 }
  /\\begin\{invoice\}/ { keep = 1 }
  keep { buf = buf $0 "\n" }
  /\\end\{invoice\}/ { keep = 0 }
  /\\label\{full_and_discounted_invoice\}/ && buf != "" { printf "%s", buf; exit }
' >"$work/example.tex"
grep -q 'Downpayment' "$work/example.tex"
for lang in german:de french:fr; do
  name=${lang%%:*}
  code=${lang##*:}
  printf '%s\n' \
    '\documentclass[10pt]{ltxdoc}' \
    '\usepackage[T1]{fontenc}' \
    '\usepackage{lmodern}' \
    '\usepackage[utf8]{inputenc}' \
    "\\usepackage[$name,comma]{invoice}" \
    '\pagestyle{empty}' \
    '\begin{document}' \
    '\input{example}' \
    '\end{document}' >"$work/phenix-$code.tex"
  (cd "$work" && pdflatex -interaction=nonstopmode "phenix-$code.tex" >/dev/null 2>&1) || { tail -30 "$work/phenix-$code.log"; exit 1; }
  cp "$work/phenix-$code.pdf" "$out/invoice-phenix-$code.pdf"
done
