<?xml version="1.0" encoding="UTF-8"?>
<!--
  A UBL 2.x invoice printed as a Dutch invoice page (bench/extraction-corpus/README.md, "Dutch invoices printed from
  UBL XML"). Written here, once, before the extraction engine ever ran on its output, in the way Dutch invoicing
  software commonly lays out an invoice (letterhead, the customer's address, a block of Factuurnummer / Factuurdatum /
  Vervaldatum, a line table Omschrijving / Aantal / Prijs / BTW / Bedrag, Subtotaal, BTW per rate, Totaal, a payment
  sentence and a footer with KvK, BTW-nummer and IBAN). Amounts 1.234,56, dates DD-MM-YYYY. Not to be changed to suit
  the engine: a change prints other pages (the cached PDF is printed again when this file's SHA-256 changes).
-->
<xsl:stylesheet version="1.0"
  xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
  xmlns:inv="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
  xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
  exclude-result-prefixes="inv cac cbc">
  <xsl:output method="html" encoding="UTF-8"/>
  <xsl:decimal-format name="nl" decimal-separator="," grouping-separator="."/>

  <xsl:template name="date">
    <xsl:param name="d"/>
    <xsl:value-of select="concat(substring($d, 9, 2), '-', substring($d, 6, 2), '-', substring($d, 1, 4))"/>
  </xsl:template>

  <xsl:template name="amount">
    <xsl:param name="v"/>
    <xsl:value-of select="format-number($v, '#.##0,00', 'nl')"/>
  </xsl:template>

  <xsl:template name="party-name">
    <xsl:param name="p"/>
    <xsl:choose>
      <xsl:when test="$p/cac:PartyLegalEntity/cbc:RegistrationName">
        <xsl:value-of select="$p/cac:PartyLegalEntity/cbc:RegistrationName"/>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$p/cac:PartyName/cbc:Name"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="address">
    <xsl:param name="a"/>
    <div><xsl:value-of select="normalize-space(concat($a/cbc:StreetName, ' ', $a/cbc:BuildingNumber))"/></div>
    <xsl:if test="$a/cbc:AdditionalStreetName">
      <div><xsl:value-of select="$a/cbc:AdditionalStreetName"/></div>
    </xsl:if>
    <div><xsl:value-of select="normalize-space(concat($a/cbc:PostalZone, '  ', $a/cbc:CityName))"/></div>
  </xsl:template>

  <xsl:template match="/inv:Invoice">
    <xsl:variable name="cur" select="cbc:DocumentCurrencyCode"/>
    <xsl:variable name="sym">
      <xsl:choose>
        <xsl:when test="$cur = 'EUR'">€</xsl:when>
        <xsl:otherwise><xsl:value-of select="$cur"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:variable name="seller" select="cac:AccountingSupplierParty/cac:Party"/>
    <xsl:variable name="buyer" select="cac:AccountingCustomerParty/cac:Party"/>
    <xsl:variable name="due" select="(cbc:DueDate | cac:PaymentMeans/cbc:PaymentDueDate)[1]"/>
    <xsl:variable name="iban" select="cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:ID[1]"/>
    <html>
      <head>
        <meta charset="utf-8"/>
        <style>
          @page { size: A4; margin: 18mm 16mm; }
          body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 9.5pt; color: #111; }
          .top { display: flex; justify-content: space-between; }
          .seller-name { font-size: 15pt; font-weight: bold; }
          .title { font-size: 20pt; font-weight: bold; letter-spacing: 1px; }
          .buyer { margin-top: 14mm; min-height: 28mm; }
          .meta td { padding: 1px 10px 1px 0; }
          .meta { margin-top: 6mm; }
          table.lines { width: 100%; border-collapse: collapse; margin-top: 8mm; }
          table.lines th { text-align: left; border-bottom: 1px solid #444; padding: 3px 4px; }
          table.lines td { padding: 3px 4px; vertical-align: top; }
          .num { text-align: right; }
          table.totals { margin-left: auto; margin-top: 6mm; border-collapse: collapse; }
          table.totals td { padding: 2px 6px; }
          table.totals tr.grand td { font-weight: bold; border-top: 1px solid #444; }
          .pay { margin-top: 10mm; }
          .footer { margin-top: 14mm; border-top: 1px solid #999; padding-top: 2mm; font-size: 8pt; color: #333; }
        </style>
      </head>
      <body>
        <div class="top">
          <div>
            <div class="seller-name"><xsl:call-template name="party-name"><xsl:with-param name="p" select="$seller"/></xsl:call-template></div>
            <xsl:call-template name="address"><xsl:with-param name="a" select="$seller/cac:PostalAddress"/></xsl:call-template>
            <xsl:if test="$seller/cac:Contact/cbc:Telephone"><div>Tel. <xsl:value-of select="$seller/cac:Contact/cbc:Telephone"/></div></xsl:if>
            <xsl:if test="$seller/cac:Contact/cbc:ElectronicMail"><div><xsl:value-of select="$seller/cac:Contact/cbc:ElectronicMail"/></div></xsl:if>
          </div>
          <div class="title">FACTUUR</div>
        </div>

        <div class="buyer">
          <div><xsl:call-template name="party-name"><xsl:with-param name="p" select="$buyer"/></xsl:call-template></div>
          <xsl:if test="$buyer/cac:Contact/cbc:Name"><div>t.a.v. <xsl:value-of select="$buyer/cac:Contact/cbc:Name"/></div></xsl:if>
          <xsl:call-template name="address"><xsl:with-param name="a" select="$buyer/cac:PostalAddress"/></xsl:call-template>
        </div>

        <table class="meta">
          <tr><td>Factuurnummer</td><td><xsl:value-of select="cbc:ID"/></td></tr>
          <tr><td>Factuurdatum</td><td><xsl:call-template name="date"><xsl:with-param name="d" select="cbc:IssueDate"/></xsl:call-template></td></tr>
          <xsl:if test="$due">
            <tr><td>Vervaldatum</td><td><xsl:call-template name="date"><xsl:with-param name="d" select="$due"/></xsl:call-template></td></tr>
          </xsl:if>
          <xsl:if test="$buyer/cac:PartyIdentification/cbc:ID">
            <tr><td>Klantnummer</td><td><xsl:value-of select="$buyer/cac:PartyIdentification/cbc:ID"/></td></tr>
          </xsl:if>
          <xsl:if test="cac:OrderReference/cbc:ID">
            <tr><td>Uw referentie</td><td><xsl:value-of select="cac:OrderReference/cbc:ID"/></td></tr>
          </xsl:if>
          <xsl:if test="$buyer/cac:PartyTaxScheme/cbc:CompanyID">
            <tr><td>Uw BTW-nummer</td><td><xsl:value-of select="$buyer/cac:PartyTaxScheme/cbc:CompanyID"/></td></tr>
          </xsl:if>
        </table>

        <table class="lines">
          <tr>
            <th>Omschrijving</th>
            <th class="num">Aantal</th>
            <th class="num">Prijs</th>
            <th class="num">BTW</th>
            <th class="num">Bedrag</th>
          </tr>
          <xsl:for-each select="cac:InvoiceLine">
            <xsl:variable name="base" select="cac:Price/cbc:BaseQuantity"/>
            <xsl:variable name="price">
              <xsl:choose>
                <xsl:when test="$base and number($base) != 0"><xsl:value-of select="cac:Price/cbc:PriceAmount div $base"/></xsl:when>
                <xsl:otherwise><xsl:value-of select="cac:Price/cbc:PriceAmount"/></xsl:otherwise>
              </xsl:choose>
            </xsl:variable>
            <tr>
              <td>
                <xsl:choose>
                  <xsl:when test="cac:Item/cbc:Name"><xsl:value-of select="cac:Item/cbc:Name"/></xsl:when>
                  <xsl:otherwise><xsl:value-of select="cac:Item/cbc:Description"/></xsl:otherwise>
                </xsl:choose>
              </td>
              <td class="num"><xsl:value-of select="format-number(cbc:InvoicedQuantity, '#.##0,###', 'nl')"/></td>
              <td class="num"><xsl:value-of select="format-number($price, '#.##0,00###', 'nl')"/></td>
              <td class="num"><xsl:value-of select="format-number(cac:Item/cac:ClassifiedTaxCategory/cbc:Percent, '0,##', 'nl')"/>%</td>
              <td class="num"><xsl:call-template name="amount"><xsl:with-param name="v" select="cbc:LineExtensionAmount"/></xsl:call-template></td>
            </tr>
          </xsl:for-each>
        </table>

        <table class="totals">
          <tr>
            <td>Subtotaal</td>
            <td class="num"><xsl:value-of select="$sym"/>&#160;<xsl:call-template name="amount"><xsl:with-param name="v" select="cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount"/></xsl:call-template></td>
          </tr>
          <xsl:for-each select="cac:TaxTotal/cac:TaxSubtotal">
            <tr>
              <td>BTW <xsl:value-of select="format-number(cac:TaxCategory/cbc:Percent, '0,##', 'nl')"/>% over <xsl:call-template name="amount"><xsl:with-param name="v" select="cbc:TaxableAmount"/></xsl:call-template></td>
              <td class="num"><xsl:value-of select="$sym"/>&#160;<xsl:call-template name="amount"><xsl:with-param name="v" select="cbc:TaxAmount"/></xsl:call-template></td>
            </tr>
          </xsl:for-each>
          <xsl:if test="count(cac:TaxTotal/cac:TaxSubtotal) &gt; 1">
            <tr>
              <td>Totaal BTW</td>
              <td class="num"><xsl:value-of select="$sym"/>&#160;<xsl:call-template name="amount"><xsl:with-param name="v" select="cac:TaxTotal/cbc:TaxAmount"/></xsl:call-template></td>
            </tr>
          </xsl:if>
          <tr class="grand">
            <td>Totaal te betalen</td>
            <td class="num"><xsl:value-of select="$sym"/>&#160;<xsl:call-template name="amount"><xsl:with-param name="v" select="cac:LegalMonetaryTotal/cbc:PayableAmount"/></xsl:call-template></td>
          </tr>
        </table>

        <div class="pay">
          <xsl:if test="cac:PaymentTerms/cbc:Note"><div><xsl:value-of select="cac:PaymentTerms/cbc:Note"/></div></xsl:if>
          <xsl:if test="$iban">
            <div>
              Wij verzoeken u het bedrag<xsl:if test="$due"> vóór <xsl:call-template name="date"><xsl:with-param name="d" select="$due"/></xsl:call-template></xsl:if>
              over te maken op rekening <xsl:value-of select="$iban"/> t.n.v.
              <xsl:call-template name="party-name"><xsl:with-param name="p" select="$seller"/></xsl:call-template>
              onder vermelding van het factuurnummer.
            </div>
          </xsl:if>
        </div>

        <div class="footer">
          <xsl:call-template name="party-name"><xsl:with-param name="p" select="$seller"/></xsl:call-template>
          <xsl:if test="$seller/cac:PartyLegalEntity/cbc:CompanyID"> · KvK <xsl:value-of select="$seller/cac:PartyLegalEntity/cbc:CompanyID"/></xsl:if>
          <xsl:if test="$seller/cac:PartyTaxScheme/cbc:CompanyID"> · BTW-nummer <xsl:value-of select="$seller/cac:PartyTaxScheme/cbc:CompanyID"/></xsl:if>
          <xsl:if test="$iban"> · IBAN <xsl:value-of select="$iban"/></xsl:if>
          <xsl:if test="cac:PaymentMeans/cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cac:FinancialInstitution/cbc:ID"> · BIC <xsl:value-of select="cac:PaymentMeans/cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cac:FinancialInstitution/cbc:ID"/></xsl:if>
        </div>
      </body>
    </html>
  </xsl:template>
</xsl:stylesheet>
