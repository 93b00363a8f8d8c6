package dev.atrium.billing.control;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * An ISO 20022 customer credit transfer initiation ({@code pain.001.001.09}) for one month's bank payouts: one group
 * header, one payment information block debiting the platform's account, one transaction per payout with the
 * payout's id as its end-to-end id. Texts are cut to the schema's lengths; amounts have 2 decimals.
 */
public final class Pain001 {

    public static final String NAMESPACE = "urn:iso:std:iso:20022:tech:xsd:pain.001.001.09";

    /** The platform's account that pays. */
    public record Debtor(String name, String iban, String bic) {
    }

    /** One transfer. */
    public record Transfer(String endToEndId, BigDecimal amount, String currency, String creditorName, String iban,
                           String bic, String remittance) {
    }

    private Pain001() {
    }

    public static byte[] write(String messageId, Instant created, LocalDate execution, Debtor debtor,
                               List<Transfer> transfers) {
        BigDecimal sum = transfers.stream().map(t -> cents(t.amount())).reduce(BigDecimal.ZERO, BigDecimal::add);
        var out = new ByteArrayOutputStream();
        try {
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(out, "UTF-8");
            x.writeStartDocument("UTF-8", "1.0");
            x.writeStartElement("Document");
            x.writeDefaultNamespace(NAMESPACE);
            x.writeStartElement("CstmrCdtTrfInitn");
            x.writeStartElement("GrpHdr");
            text(x, cut(messageId, 35), "MsgId");
            text(x, DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(
                    created.truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC).toLocalDateTime()), "CreDtTm");
            text(x, Integer.toString(transfers.size()), "NbOfTxs");
            text(x, sum.toPlainString(), "CtrlSum");
            text(x, cut(debtor.name(), 140), "InitgPty", "Nm");
            x.writeEndElement();
            x.writeStartElement("PmtInf");
            text(x, cut(messageId, 35), "PmtInfId");
            text(x, "TRF", "PmtMtd");
            text(x, Integer.toString(transfers.size()), "NbOfTxs");
            text(x, sum.toPlainString(), "CtrlSum");
            text(x, execution.toString(), "ReqdExctnDt", "Dt");
            text(x, cut(debtor.name(), 140), "Dbtr", "Nm");
            text(x, debtor.iban(), "DbtrAcct", "Id", "IBAN");
            agent(x, "DbtrAgt", debtor.bic());
            for (Transfer t : transfers) {
                x.writeStartElement("CdtTrfTxInf");
                text(x, cut(t.endToEndId(), 35), "PmtId", "EndToEndId");
                x.writeStartElement("Amt");
                x.writeStartElement("InstdAmt");
                x.writeAttribute("Ccy", t.currency());
                x.writeCharacters(cents(t.amount()).toPlainString());
                x.writeEndElement();
                x.writeEndElement();
                if (t.bic() != null) {
                    agent(x, "CdtrAgt", t.bic());
                }
                text(x, cut(t.creditorName(), 140), "Cdtr", "Nm");
                text(x, t.iban(), "CdtrAcct", "Id", "IBAN");
                text(x, cut(t.remittance(), 140), "RmtInf", "Ustrd");
                x.writeEndElement();
            }
            x.writeEndElement();
            x.writeEndElement();
            x.writeEndElement();
            x.writeEndDocument();
            x.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("Could not write the pain.001 file", e);
        }
        return out.toByteArray();
    }

    static BigDecimal cents(BigDecimal amount) {
        return amount.setScale(2, RoundingMode.DOWN);
    }

    private static void agent(XMLStreamWriter x, String element, String bic) throws XMLStreamException {
        if (bic == null || bic.isBlank()) {
            text(x, "NOTPROVIDED", element, "FinInstnId", "Othr", "Id");
        } else {
            text(x, bic, element, "FinInstnId", "BICFI");
        }
    }

    /** The value in the innermost of these nested elements. */
    private static void text(XMLStreamWriter x, String value, String... elements) throws XMLStreamException {
        for (String element : elements) {
            x.writeStartElement(element);
        }
        x.writeCharacters(value);
        for (int i = 0; i < elements.length; i++) {
            x.writeEndElement();
        }
    }

    /** At most {@code max} characters, without control characters (the schema's Max…Text types). */
    static String cut(String text, int max) {
        String clean = text == null || text.isBlank() ? "-" : text.replaceAll("\\p{Cntrl}", " ").strip();
        return clean.length() <= max ? clean : clean.substring(0, max);
    }
}
