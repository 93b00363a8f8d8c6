package dev.atrium.billing.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;

import org.junit.jupiter.api.Test;

/** The payout file against the official ISO 20022 pain.001.001.09 schema, with hostile names and many transfers. */
class Pain001Test {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261124L);

    /** Validates against the schema; throws with the schema's complaint. */
    static void validate(byte[] xml) throws Exception {
        var factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        try (var xsd = Pain001Test.class.getClassLoader().getResourceAsStream("pain.001.001.09.xsd")) {
            assertThat(xsd).as("pain.001.001.09.xsd on the test class path").isNotNull();
            factory.newSchema(new StreamSource(xsd)).newValidator()
                    .validate(new StreamSource(new ByteArrayInputStream(xml)));
        }
    }

    private static final Pain001.Debtor DEBTOR = new Pain001.Debtor("Atrium GmbH", "DE89370400440532013000",
            "COBADEFFXXX");

    @Test
    void whenPayoutsAreWrittenThenTheFileIsValidAndItsSumsAreTheTransfers() throws Exception {
        var transfers = List.of(
                new Pain001.Transfer("a1", new BigDecimal("50.009999"), "USD", "Ada Lovelace",
                        "GB82WEST12345698765432", "NWBKGB2L", "Atrium payout 2026-10"),
                new Pain001.Transfer("b2", new BigDecimal("1234.5"), "USD", "Grace Hopper", "NL91ABNA0417164300",
                        null, "Atrium payout 2026-10"));

        byte[] xml = Pain001.write("ATRIUM-PAYOUT-2026-10", Instant.parse("2026-11-01T03:05:00Z"),
                LocalDate.parse("2026-11-01"), DEBTOR, transfers);

        validate(xml);
        String text = new String(xml, java.nio.charset.StandardCharsets.UTF_8);
        assertThat(text).contains("<NbOfTxs>2</NbOfTxs>").contains("<CtrlSum>1284.50</CtrlSum>")
                .contains("<InstdAmt Ccy=\"USD\">50.00</InstdAmt>");
    }

    @Test
    void whenNamesAreHostileOrLongThenTheFileStaysValidAndEscaped() throws Exception {
        var random = new Random(SEED);
        var transfers = new ArrayList<Pain001.Transfer>();
        var hostile = List.of("<script>alert(1)</script>", "Robert'); DROP TABLE payouts;--", "]]><x/>", "&amp;&",
                "Zoë Ångström 山田", "\u0000\u0007bell", "x".repeat(500), " ", "\"quoted\"");
        for (int i = 0; i < 200; i++) {
            transfers.add(new Pain001.Transfer("t" + i, BigDecimal.valueOf(random.nextInt(10_000_000), 2), "USD",
                    hostile.get(i % hostile.size()), "DE89370400440532013000", i % 2 == 0 ? "COBADEFFXXX" : null,
                    hostile.get((i + 3) % hostile.size())));
        }

        byte[] xml = Pain001.write("ATRIUM-PAYOUT-2026-10-" + "x".repeat(40), Instant.parse("2026-11-01T03:05:00Z"),
                LocalDate.parse("2026-11-01"), DEBTOR, transfers);

        validate(xml);
        assertThat(new String(xml, java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("<script>")
                .doesNotContain("<x/>");
    }
}
