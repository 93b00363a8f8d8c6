package dev.atrium.marketplace.control.pii;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

public class PersonalDataTest {

    static Stream<Arguments> personal() {
        return Stream.of(
                Arguments.of("email", "bob@example.com"),
                Arguments.of("email", "Bob.Smith+tag@mail.example.co.uk"),
                Arguments.of("email", "UPPER_CASE%x@EXAMPLE.COM"),
                Arguments.of("email", "jürgen@müller.de"),
                Arguments.of("email", "x@y.io"),
                Arguments.of("email", "bob\u200B@exa\u200Dmple.com"),
                Arguments.of("email", "bob\uFF20example.com"),
                Arguments.of("email", "first-last@sub-domain.example.museum"),
                Arguments.of("phone", "+44 20 7946 0958"),
                Arguments.of("phone", "+1 (415) 555-2671"),
                Arguments.of("phone", "+1-415-555-2671"),
                Arguments.of("phone", "+4915112345678"),
                Arguments.of("phone", "+33 6 12 34 56 78"),
                Arguments.of("phone", "+49 (0)30 1234567"),
                Arguments.of("phone", "+41.44.668.18.00"),
                Arguments.of("phone", "(415) 555-2671"),
                Arguments.of("phone", "415-555-2671"),
                Arguments.of("phone", "415.555.2671"),
                Arguments.of("phone", "415 555 2671"),
                Arguments.of("phone", "1-800-555-0199"),
                Arguments.of("phone", "020 7946 0958"),
                Arguments.of("phone", "(020) 7946 0958"),
                Arguments.of("phone", "06 12 34 56 78"),
                Arguments.of("phone", "06.12.34.56.78"),
                Arguments.of("phone", "0151-12345678"),
                Arguments.of("phone", "0044 20 7946 0958"),
                Arguments.of("phone", "415\u2011555\u20112671"),
                Arguments.of("phone", "\u0664\u0661\u0665-\u0665\u0665\u0665-\u0662\u0666\u0667\u0661"),
                Arguments.of("phone", "+44\u00A020\u00A07946\u00A00958"),
                Arguments.of("phone", "\u200E+44 20 7946 0958\u200F"),
                Arguments.of("card", "4111111111111111"),
                Arguments.of("card", "4111 1111 1111 1111"),
                Arguments.of("card", "4111-1111-1111-1111"),
                Arguments.of("card", "5555555555554444"),
                Arguments.of("card", "2223 0031 2200 3222"),
                Arguments.of("card", "378282246310005"),
                Arguments.of("card", "3782 822463 10005"),
                Arguments.of("card", "3056 930902 5904"),
                Arguments.of("card", "6011111111111117"),
                Arguments.of("card", "4222222222222"),
                Arguments.of("card", "4111\u200B1111\u200B1111\u200B1111"),
                Arguments.of("card", "4111\u00AD1111\u00AD1111\u00AD1111"),
                Arguments.of("card", "\uFF14\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11"
                        + "\uFF11\uFF11\uFF11\uFF11"),
                Arguments.of("card", "\u202E4111 1111 1111 1111\u202C"),
                Arguments.of("card", "4111.1111.1111.1111"),
                Arguments.of("iban", "DE89370400440532013000"),
                Arguments.of("iban", "DE89 3704 0044 0532 0130 00"),
                Arguments.of("iban", "de89 3704 0044 0532 0130 00"),
                Arguments.of("iban", "GB82WEST12345698765432"),
                Arguments.of("iban", "GB82 WEST 1234 5698 7654 32"),
                Arguments.of("iban", "FR1420041010050500013M02606"),
                Arguments.of("iban", "NL91ABNA0417164300"),
                Arguments.of("iban", "NO9386011117947"),
                Arguments.of("iban", "CH93 0076 2011 6238 5295 7"),
                Arguments.of("iban", "DE89\u200B3704\u200B0044\u200B0532\u200B0130\u200B00"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("personal")
    void whenAStringHoldsPersonalDataThenItIsMaskedInEverySetting(String kind, String value) {
        for (String text : List.of(value, "see " + value + ".", "(" + value + ")", "a: " + value + ", b",
                "\"" + value + "\"", value + "\n" + value)) {
            var masking = PersonalData.mask(Json.createValue(text));
            String masked = ((JsonString) masking.value()).getString();
            assertThat(masking.kinds()).as(text).containsExactly(kind);
            assertThat(masked).as(text).contains("[" + kind + "]").doesNotContain(value);
            assertThat(PersonalData.find(masking.value())).as(masked).isEmpty();
            assertThat(PersonalData.find(Json.createValue(text))).containsExactly(kind);
            assertThat(PersonalData.maskText(text).text()).isEqualTo(masked);
        }
    }

    static Stream<Arguments> notPersonal() {
        return Stream.of(
                Arguments.of("ISO date", "2024-01-15"),
                Arguments.of("European date", "15.01.2024"),
                Arguments.of("slashed date", "01/02/2024"),
                Arguments.of("timestamp", "2024-01-15T10:30:00Z"),
                Arguments.of("date and hour", "2024-01-15 10:30"),
                Arguments.of("date then hour digits", "on 2024-01-15 1030 hours"),
                Arguments.of("epoch millis", "1700000000000"),
                Arguments.of("compact timestamp passing Luhn", "20261123211801"),
                Arguments.of("timestamp in a path", "/data/services-data-20261123211801/keys"),
                Arguments.of("Visa-like length 15", "411111111111116"),
                Arguments.of("Amex prefix with 16 digits", "3400000000000000"),
                Arguments.of("ISBN-13", "ISBN 978-3-16-148410-0"),
                Arguments.of("ISBN-13 bare", "9780306406157"),
                Arguments.of("ISBN-13 passing Luhn", "9780306406156"),
                Arguments.of("ISBN-10", "ISBN 0-306-40615-2"),
                Arguments.of("version", "v1.2.3"),
                Arguments.of("bare version", "2.14.1"),
                Arguments.of("build version", "10.0.19041.1234"),
                Arguments.of("IPv4", "192.168.100.200"),
                Arguments.of("IPv4 and port", "127.0.0.1:8080"),
                Arguments.of("IPv6", "2001:db8::8a2e:370:7334"),
                Arguments.of("UUID", "123e4567-e89b-12d3-a456-426614174000"),
                Arguments.of("UUID of digits", "12345678-1234-1234-1234-123456789012"),
                Arguments.of("Luhn failing 16 digits", "4111111111111112"),
                Arguments.of("Luhn failing grouped", "4111 1111 1111 1112"),
                Arguments.of("Luhn passing but no network", "1234 5678 9012 3452"),
                Arguments.of("card in an identifier", "tok_4111111111111111"),
                Arguments.of("card glued to letters", "4111111111111111abc"),
                Arguments.of("card in wrong groups", "41 11 11 11 11 11 11 11"),
                Arguments.of("20 digits", "41111111111111111111"),
                Arguments.of("IBAN with bad check digits", "DE88370400440532013000"),
                Arguments.of("IBAN with a changed digit", "DE89370400440532013001"),
                Arguments.of("IBAN of an unknown country", "ZZ89370400440532013000"),
                Arguments.of("IBAN too long", "DE893704004405320130001"),
                Arguments.of("IBAN badly spaced", "DE 89370400440532013000"),
                Arguments.of("IBAN inside a word", "xDE89370400440532013000"),
                Arguments.of("plain number", "12345"),
                Arguments.of("amount", "1234567.89"),
                Arguments.of("pi", "3.14159265358979"),
                Arguments.of("large count", "order 1000000000000000"),
                Arguments.of("local number", "555-1234"),
                Arguments.of("short plus", "+12345"),
                Arguments.of("score", "+1.5"),
                Arguments.of("range", "1-2-3"),
                Arguments.of("contiguous national digits", "02079460958"),
                Arguments.of("MAC address", "00:1B:44:11:3A:B7"),
                Arguments.of("hash", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
                Arguments.of("e-mail to an IP", "a@10.0.0.1"),
                Arguments.of("e-mail without dot", "user@localhost"),
                Arguments.of("handle", "@handle"),
                Arguments.of("at sign alone", "x @ y"),
                Arguments.of("spelled out", "bob [at] example [dot] com"),
                Arguments.of("empty", ""),
                Arguments.of("only separators", "+ ( ) - . "),
                Arguments.of("mask forms", "[email] [phone] [card] [iban]"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("notPersonal")
    void whenAStringOnlyLooksLikePersonalDataThenItIsKept(String name, String text) {
        var masking = PersonalData.mask(Json.createValue(text));
        assertThat(((JsonString) masking.value()).getString()).isEqualTo(text);
        assertThat(masking.kinds()).isEmpty();
        assertThat(PersonalData.find(Json.createValue(text))).isEmpty();
    }

    @Test
    void whenJsonHoldsPersonalDataThenValuesAndKeysAreMasked() {
        JsonObject input = Json.createObjectBuilder()
                .add("bob@example.com", "call +44 20 7946 0958")
                .add("nested", Json.createArrayBuilder().add("pay DE89 3704 0044 0532 0130 00")
                        .add(Json.createObjectBuilder().add("n", 4111111111111111L)).add(42).add(true)
                        .addNull().add(new BigDecimal("4111111111111111.5")))
                .build();
        var masking = PersonalData.mask(input);
        JsonObject masked = masking.value().asJsonObject();
        assertThat(masked.keySet()).containsExactly("[email]", "nested");
        assertThat(masked.getString("[email]")).isEqualTo("call [phone]");
        assertThat(masked.getJsonArray("nested").getString(0)).isEqualTo("pay [iban]");
        assertThat(masked.getJsonArray("nested").getJsonObject(1).getString("n")).isEqualTo("[card]");
        assertThat(masked.getJsonArray("nested").getInt(2)).isEqualTo(42);
        assertThat(masked.getJsonArray("nested").getJsonNumber(5).bigDecimalValue())
                .isEqualByComparingTo("4111111111111111.5");
        assertThat(masking.kinds()).containsExactly("email", "phone", "card", "iban");
        assertThat(PersonalData.find(input)).containsExactly("email", "phone", "card", "iban");
        assertThat(PersonalData.find(masked)).isEmpty();
    }

    @Test
    void whenTextIsMaskedThenEveryKindIsReportedOnceInAFixedOrder() {
        var masking = PersonalData.maskText("iban DE89370400440532013000, card 4111 1111 1111 1111, "
                + "mail bob@example.com, again alice@example.org, phone (415) 555-2671");
        assertThat(masking.text()).isEqualTo(
                "iban [iban], card [card], mail [email], again [email], phone [phone]");
        assertThat(masking.kinds()).containsExactly("email", "phone", "card", "iban");
        assertThat(PersonalData.maskText("nothing here").kinds()).isEmpty();
        assertThat(PersonalData.maskText(null).text()).isNull();
    }

    @Test
    void whenMaskingIsRepeatedThenNothingChanges() {
        String text = "+44 20 7946 0958 4111111111111111 and 0201 2345 6789 0123 4567 and x@y.io@z.org";
        String once = PersonalData.maskText(text).text();
        assertThat(PersonalData.maskText(once).text()).isEqualTo(once);
        assertThat(PersonalData.maskText(once).kinds()).isEmpty();
    }

    static Stream<Arguments> adversarial() {
        int mb = 1 << 20;
        return Stream.of(
                Arguments.of("digits", "1".repeat(mb)),
                Arguments.of("spaced digits", "1 ".repeat(mb / 2)),
                Arguments.of("hyphenated digits", "1-".repeat(mb / 2)),
                Arguments.of("groups of four", "4111 ".repeat(mb / 5)),
                Arguments.of("openers", "+1 (".repeat(mb / 4)),
                Arguments.of("pairs of digits", "12 34 56 78 90 ".repeat(mb / 15)),
                Arguments.of("phone numbers", "+33 6 12 34 56 78 ".repeat(mb / 18)),
                Arguments.of("Luhn-valid cards", "4111111111111111 ".repeat(mb / 17)),
                Arguments.of("trunk zeros", "0-".repeat(mb / 2)),
                Arguments.of("at signs", "@".repeat(mb)),
                Arguments.of("local parts", "a".repeat(mb - 1) + "@"),
                Arguments.of("domains", "a@" + "b.".repeat(mb / 2)),
                Arguments.of("many e-mails", "a@b.".repeat(mb / 4)),
                Arguments.of("almost IBANs", "DE89 ".repeat(mb / 5)),
                Arguments.of("IBAN starts", "DE89370400440532013".repeat(mb / 19)),
                Arguments.of("invisible digits", "4\u200B".repeat(mb / 2)),
                Arguments.of("letters and digits", "a1".repeat(mb / 2)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("adversarial")
    void whenAMegabyteOfAdversarialTextIsMaskedThenItFinishes(String name, String text) {
        var masking = PersonalData.maskText(text);
        assertThat(masking.text()).isNotNull();
        assertThat(PersonalData.maskText(masking.text()).text()).isEqualTo(masking.text());
    }

    /** Seeded loops, so a failing round can be replayed with {@code -Datrium.fuzz.seed}. */
    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261123L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 300);

    @Test
    void whenGeneratedPersonalDataIsInjectedThenMaskingRemovesAllOfIt() {
        var random = new Random(SEED);
        for (int round = 0; round < ROUNDS; round++) {
            List<String[]> injected = new ArrayList<>();
            JsonValue input = json(random, 0, injected);
            var masking = PersonalData.mask(input);
            String text = masking.value().toString();
            for (String[] value : injected) {
                assertThat(text).as("round %d: %s", round, value[1]).doesNotContain(value[1]);
                assertThat(masking.kinds()).as("round %d: %s", round, value[1]).contains(value[0]);
            }
            assertThat(PersonalData.find(masking.value())).as("round %d: %s", round, text).isEmpty();
            assertThat(PersonalData.mask(masking.value()).value()).isEqualTo(masking.value());
        }
    }

    @Test
    void whenRandomJunkIsMaskedThenItNeverThrowsAndIsIdempotent() {
        var random = new Random(SEED + 1);
        for (int round = 0; round < ROUNDS * 10; round++) {
            String junk = junk(random, 1 + random.nextInt(120));
            String once = PersonalData.maskText(junk).text();
            assertThat(PersonalData.maskText(once).text()).as("round %d: %s", round, junk).isEqualTo(once);
            assertThat(PersonalData.maskText(once).kinds()).as("round %d: %s", round, junk).isEmpty();
            assertThat(PersonalData.find(Json.createValue(once))).isEmpty();
        }
    }

    private static JsonValue json(Random random, int depth, List<String[]> injected) {
        int pick = depth >= 4 ? 2 + random.nextInt(3) : random.nextInt(5);
        switch (pick) {
            case 0 -> {
                JsonObjectBuilder object = Json.createObjectBuilder();
                for (int i = random.nextInt(5); i > 0; i--) {
                    object.add("k" + random.nextInt(1000), json(random, depth + 1, injected));
                }
                return object.build();
            }
            case 1 -> {
                JsonArrayBuilder array = Json.createArrayBuilder();
                for (int i = random.nextInt(5); i > 0; i--) {
                    array.add(json(random, depth + 1, injected));
                }
                return array.build();
            }
            case 2 -> {
                return random.nextBoolean() ? Json.createValue(random.nextLong())
                        : Json.createValue(new BigDecimal(new BigInteger(70, random), random.nextInt(5)));
            }
            case 3 -> {
                return Json.createValue(junk(random, random.nextInt(40)));
            }
            default -> {
                var text = new StringBuilder(junk(random, random.nextInt(20)));
                for (int i = 1 + random.nextInt(3); i > 0; i--) {
                    String[] value = personal(random);
                    injected.add(value);
                    text.append(", ").append(value[1]).append(", ").append(junk(random, random.nextInt(20)));
                }
                return Json.createValue(text.toString());
            }
        }
    }

    private static final String ALPHABET = "abcXYZ0123456789 .-+()@_/:,[]\u200B\u00A0\u00E9\u05D0\u0661\uFF11";

    private static String junk(Random random, int length) {
        var text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(random.nextInt(4) == 0 ? (char) random.nextInt(0xD800)
                    : ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return text.toString();
    }

    private static final List<String> PHONES = List.of("+44 20 7946 0958", "(415) 555-2671", "020 7946 0958",
            "+4915112345678", "06 12 34 56 78");

    /** A generated kind and value: a Luhn-valid card, a mod-97-valid IBAN, an e-mail, a phone number. */
    private static String[] personal(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> new String[] {"card", card(random)};
            case 1 -> new String[] {"iban", iban(random)};
            case 2 -> new String[] {"email", "u" + random.nextInt(100000) + "." + (char) ('a' + random.nextInt(26))
                    + "@mail" + random.nextInt(100) + ".example.org"};
            default -> new String[] {"phone", PHONES.get(random.nextInt(PHONES.size()))};
        };
    }

    /** A prefix and a length of each network. */
    private static final String[][] CARD_RANGES = {{"4", "16"}, {"4", "13"}, {"4", "19"}, {"51", "16"},
            {"55", "16"}, {"2221", "16"}, {"2720", "16"}, {"34", "15"}, {"37", "15"}, {"36", "14"}, {"38", "19"},
            {"35", "16"}, {"6011", "16"}, {"62", "19"}, {"50", "13"}, {"6", "17"}};

    private static String card(Random random) {
        String[] range = CARD_RANGES[random.nextInt(CARD_RANGES.length)];
        int length = Integer.parseInt(range[1]);
        var digits = new StringBuilder(range[0]);
        while (digits.length() < length - 1) {
            digits.append((char) ('0' + random.nextInt(10)));
        }
        for (char check = '0'; check <= '9'; check++) {
            if (PersonalData.luhn(digits.toString() + check)) {
                digits.append(check);
                break;
            }
        }
        if (random.nextBoolean()) {
            return digits.toString();
        }
        var grouped = new StringBuilder();
        for (int i = 0; i < digits.length(); i += 4) {
            if (i > 0) {
                grouped.append(random.nextBoolean() ? ' ' : '-');
            }
            grouped.append(digits, i, Math.min(i + 4, digits.length()));
        }
        return grouped.toString();
    }

    /** Countries and their BBAN structures (n digits, a upper-case letters, c either), as the registry has them. */
    private static final String[][] COUNTRIES = {{"DE", "18n"}, {"FR", "5n5n11c2n"}, {"NL", "4a10n"},
            {"NO", "11n"}, {"GB", "4a14n"}, {"IT", "1a5n5n12c"}};

    private static String iban(Random random) {
        String[] country = COUNTRIES[random.nextInt(COUNTRIES.length)];
        var bban = new StringBuilder();
        var structure = Pattern.compile("(\\d+)([nac])").matcher(country[1]);
        while (structure.find()) {
            for (int i = Integer.parseInt(structure.group(1)); i > 0; i--) {
                char type = structure.group(2).charAt(0);
                boolean letter = type == 'a' || type == 'c' && random.nextInt(3) == 0;
                bban.append(letter ? (char) ('A' + random.nextInt(26)) : (char) ('0' + random.nextInt(10)));
            }
        }
        String numeric = toDigits(bban + country[0] + "00");
        int check = 98 - new BigInteger(numeric).mod(BigInteger.valueOf(97)).intValue();
        String iban = country[0] + String.format("%02d", check) + bban;
        if (random.nextBoolean()) {
            return iban;
        }
        var spaced = new StringBuilder();
        for (int i = 0; i < iban.length(); i += 4) {
            if (i > 0) {
                spaced.append(' ');
            }
            spaced.append(iban, i, Math.min(i + 4, iban.length()));
        }
        return spaced.toString();
    }

    private static String toDigits(String text) {
        var digits = new StringBuilder();
        for (char c : text.toCharArray()) {
            digits.append(Character.digit(c, 36));
        }
        return digits.toString();
    }
}
