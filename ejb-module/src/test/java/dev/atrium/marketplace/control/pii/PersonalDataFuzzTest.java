package dev.atrium.marketplace.control.pii;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.Test;

/**
 * Seeded loops over the masking, so a failing round can be replayed with {@code -Datrium.fuzz.seed} (and made longer
 * with {@code -Datrium.fuzz.rounds}): generated personal data in random spellings (percent escapes, character
 * references, separators, spaces around {@code @}, quoted local parts, full-width forms, extensions) inside random
 * JSON, in values and keys, is masked every time; text of things that only look like it (dates, versions, UUIDs,
 * prices, timestamps, addresses of machines) is left exactly as it was; masking anything twice changes nothing.
 */
class PersonalDataFuzzTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261128L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 300);

    @Test
    void whenPersonalDataInRandomSpellingsIsInValuesAndKeysThenEveryValueIsMasked() {
        var random = new Random(SEED);
        for (int round = 0; round < ROUNDS; round++) {
            List<String[]> injected = new ArrayList<>();
            JsonValue input = json(random, 0, injected, new int[1]);
            var masking = PersonalData.mask(input);
            String text = strings(masking.value());
            for (String[] value : injected) {
                assertThat(text).as("round %d: %s", round, value[1]).doesNotContain(value[1]);
                assertThat(masking.kinds()).as("round %d: %s", round, value[1]).contains(value[0]);
            }
            assertThat(PersonalData.find(masking.value())).as("round %d: %s", round, text).isEmpty();
            assertThat(PersonalData.mask(masking.value()).value()).as("round %d", round).isEqualTo(masking.value());
        }
    }

    @Test
    void whenTextOnlyLooksLikePersonalDataThenMaskingLeavesItUnchanged() {
        var random = new Random(SEED + 1);
        for (int round = 0; round < ROUNDS * 10; round++) {
            String text = lookalikes(random);
            var masking = PersonalData.maskText(text);
            assertThat(masking.text()).as("round %d", round).isEqualTo(text);
            assertThat(masking.kinds()).as("round %d: %s", round, text).isEmpty();
            JsonObject object = Json.createObjectBuilder().add(text, text).build();
            assertThat(PersonalData.mask(object).value()).as("round %d: %s", round, text).isEqualTo(object);
        }
    }

    private static final String ENCODED_ALPHABET = "abxX0123456789 .-_/+()@#%&;\"\\eExt\uFF20\uFF0E\u00A0";

    @Test
    void whenRandomEncodedJunkIsMaskedThenItNeverThrowsAndIsIdempotent() {
        var random = new Random(SEED + 2);
        List<String> pieces = List.of("%40", "%25", "%2", "%4", "&#64;", "&#x40;", "&#", "&amp;", "&commat;",
                "&nbsp;", "&#52;", "%20", " @ ", "4111", "DE89", "+1", "x5", "ext.", "\"", "&quot;", "%3B");
        for (int round = 0; round < ROUNDS * 10; round++) {
            var junk = new StringBuilder();
            for (int i = random.nextInt(60); i > 0; i--) {
                junk.append(random.nextBoolean() ? pieces.get(random.nextInt(pieces.size()))
                        : String.valueOf(ENCODED_ALPHABET.charAt(random.nextInt(ENCODED_ALPHABET.length()))));
            }
            String once = PersonalData.maskText(junk.toString()).text();
            assertThat(PersonalData.maskText(once).text()).as("round %d: %s", round, junk).isEqualTo(once);
            assertThat(PersonalData.maskText(once).kinds()).as("round %d: %s", round, junk).isEmpty();
        }
    }

    // ---------------------------------------------------------------- JSON with personal data

    private static JsonValue json(Random random, int depth, List<String[]> injected, int[] keys) {
        int pick = depth >= 3 ? 2 + random.nextInt(2) : random.nextInt(4);
        switch (pick) {
            case 0 -> {
                JsonObjectBuilder object = Json.createObjectBuilder();
                for (int i = random.nextInt(4); i > 0; i--) {
                    String key = random.nextInt(3) == 0 ? carrying(random, injected) : words(random, 2);
                    object.add(key + " k" + keys[0]++, json(random, depth + 1, injected, keys));
                }
                return object.build();
            }
            case 1 -> {
                JsonArrayBuilder array = Json.createArrayBuilder();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(json(random, depth + 1, injected, keys));
                }
                return array.build();
            }
            case 2 -> {
                return Json.createValue(words(random, random.nextInt(6)));
            }
            default -> {
                return Json.createValue(carrying(random, injected));
            }
        }
    }

    /** Words with one to three spelled values among them, each set off by a comma. */
    private static String carrying(Random random, List<String[]> injected) {
        var text = new StringBuilder(words(random, random.nextInt(4)));
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
            String[] value = personal(random);
            injected.add(value);
            text.append(", ").append(value[1]).append(", ").append(words(random, random.nextInt(4)));
        }
        return text.toString();
    }

    private static String words(Random random, int count) {
        var text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                text.append(' ');
            }
            for (int k = 2 + random.nextInt(7); k > 0; k--) {
                text.append((char) ('a' + random.nextInt(26)));
            }
        }
        return text.toString();
    }

    private static <T> T any(Random random, List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    private static String[] personal(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> new String[] {"email", email(random)};
            case 1 -> new String[] {"card", card(random)};
            case 2 -> new String[] {"iban", iban(random)};
            default -> new String[] {"phone", phone(random)};
        };
    }

    private static final List<String> AT_SIGNS = List.of("@", "%40", "%2540", "%252540", "&#64;", "&#064;",
            "&#x40;", "&#X40;", "&commat;", "&COMMAT;", "&amp;#64;", " @ ", "  @  ", "\u00A0@\u00A0", "\uFF20",
            "&#65312;", "%20@%20");
    private static final List<String> DOTS = List.of(".", ".", ".", "%2E", "%2e", "&period;", "&#46;", "&#x2E;");

    private static String email(Random random) {
        String local;
        int form = random.nextInt(8);
        if (form == 0) {
            local = "\"" + words(random, 2) + "\"";
        } else if (form == 1) {
            local = "&quot;" + words(random, 2) + "&quot;";
        } else {
            local = words(random, 1) + any(random, List.of("", ".", "_", "+", "-")) + random.nextInt(1000);
        }
        String domain = words(random, 1) + (random.nextBoolean() ? any(random, DOTS) + words(random, 1) : "")
                + any(random, DOTS) + any(random, List.of("com", "org", "de", "io", "museum"));
        return local + any(random, AT_SIGNS) + domain;
    }

    private static final String[][] CARD_RANGES = {{"4", "16"}, {"4", "13"}, {"4", "19"}, {"51", "16"},
            {"55", "16"}, {"2221", "16"}, {"2720", "16"}, {"34", "15"}, {"37", "15"}, {"36", "14"}, {"38", "19"},
            {"35", "16"}, {"6011", "16"}, {"62", "19"}, {"50", "13"}, {"6", "17"}};
    private static final List<String> CARD_JOINERS = List.of(" ", "  ", "-", ".", "_", "/", "\t", "%20", "&#32;",
            "&nbsp;", "%2E", "&period;", "&#45;", "%5F", "&sol;", "\uFF0E", "%2520");

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
        String joiner = random.nextInt(4) == 0 ? "" : any(random, CARD_JOINERS);
        var spelled = new StringBuilder();
        boolean fullWidth = random.nextInt(8) == 0;
        for (int i = 0; i < digits.length(); i++) {
            if (i > 0 && i % 4 == 0) {
                spelled.append(joiner);
            }
            char d = digits.charAt(i);
            if (fullWidth) {
                spelled.append((char) ('\uFF10' + d - '0'));
            } else if (random.nextInt(12) == 0) {
                spelled.append(random.nextBoolean() ? "&#" + (int) d + ";" : "%3" + d);
            } else {
                spelled.append(d);
            }
        }
        return spelled.toString();
    }

    /** Countries and their BBAN structures (n digits, a upper-case letters, c either), as the registry has them. */
    private static final String[][] COUNTRIES = {{"DE", "18n"}, {"FR", "5n5n11c2n"}, {"NL", "4a10n"},
            {"NO", "11n"}, {"GB", "4a14n"}, {"IT", "1a5n5n12c"}, {"CH", "5n12c"}, {"AT", "16n"}};
    private static final List<String> IBAN_JOINERS = List.of(" ", "  ", "-", ".", "_", "/", "%20", "&#45;",
            "&nbsp;", "\u00A0");

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
        var numeric = new StringBuilder();
        for (char c : (bban + country[0] + "00").toCharArray()) {
            numeric.append(Character.digit(c, 36));
        }
        int check = 98 - new BigInteger(numeric.toString()).mod(BigInteger.valueOf(97)).intValue();
        String iban = country[0] + String.format("%02d", check) + bban;
        if (random.nextInt(4) == 0) {
            iban = iban.toLowerCase(Locale.ROOT);
        }
        String joiner = random.nextInt(3) == 0 ? "" : any(random, IBAN_JOINERS);
        var spelled = new StringBuilder();
        for (int i = 0; i < iban.length(); i += 4) {
            spelled.append(i > 0 ? joiner : "").append(iban, i, Math.min(i + 4, iban.length()));
        }
        return spelled.toString();
    }

    private static final List<String> PLUS = List.of("+", "+", "%2B", "&#43;", "&plus;", "\uFF0B");
    private static final List<String> PHONE_JOINERS = List.of(" ", "-", ".", "/", "  ", "%20", "&nbsp;", "&#45;",
            "%2F");
    private static final List<String> EXTENSIONS = List.of("x5", "X12", " x12", " ext. 123", " ext 7", "#3",
            " #45", " Ext:42", " extension 9");

    private static String phone(Random random) {
        String number;
        if (random.nextBoolean()) {
            String joiner = any(random, PHONE_JOINERS);
            var text = new StringBuilder(any(random, PLUS)).append(1 + random.nextInt(9));
            for (int i = random.nextInt(3); i > 0; i--) {
                text.append(random.nextInt(10));
            }
            for (int group = 0; group < 3; group++) {
                text.append(joiner);
                for (int i = 3 + random.nextInt(2); i > 0; i--) {
                    text.append(random.nextInt(10));
                }
            }
            number = text.toString();
        } else {
            String area = (2 + random.nextInt(8)) + String.format("%02d", random.nextInt(100));
            String exchange = (2 + random.nextInt(8)) + String.format("%02d", random.nextInt(100));
            String line = String.format("%04d", random.nextInt(10000));
            number = switch (random.nextInt(5)) {
                case 0 -> "(" + area + ") " + exchange + "-" + line;
                case 1 -> area + "-" + exchange + "-" + line;
                case 2 -> area + "." + exchange + "." + line;
                case 3 -> area + "/" + exchange + "/" + line;
                default -> "1-" + area + "-" + exchange + "-" + line;
            };
        }
        return random.nextInt(4) == 0 ? number + any(random, EXTENSIONS) : number;
    }

    /** Every string and key in the value, one a line. */
    private static String strings(JsonValue value) {
        var text = new StringBuilder();
        collect(value, text);
        return text.toString();
    }

    private static void collect(JsonValue value, StringBuilder text) {
        switch (value.getValueType()) {
            case OBJECT -> {
                for (Map.Entry<String, JsonValue> entry : value.asJsonObject().entrySet()) {
                    text.append(entry.getKey()).append('\n');
                    collect(entry.getValue(), text);
                }
            }
            case ARRAY -> value.asJsonArray().forEach(item -> collect(item, text));
            case STRING -> text.append(((JsonString) value).getString()).append('\n');
            default -> text.append(value).append('\n');
        }
    }

    // ---------------------------------------------------------------- text that only looks like personal data

    private static String lookalikes(Random random) {
        var text = new StringBuilder();
        for (int i = 1 + random.nextInt(8); i > 0; i--) {
            text.append(words(random, 1 + random.nextInt(2)));
            text.append(any(random, List.of(" ", ", ", ". ", ": ", " (", " - ")));
            text.append(lookalike(random));
            text.append(any(random, List.of(" ", ", ", ". ", ") ", "; ")));
        }
        return text.append(words(random, 1)).toString();
    }

    private static String lookalike(Random random) {
        int year = 1990 + random.nextInt(50);
        String month = String.format("%02d", 1 + random.nextInt(12));
        String day = String.format("%02d", 1 + random.nextInt(28));
        String time = String.format("%02d:%02d:%02d", random.nextInt(24), random.nextInt(60), random.nextInt(60));
        return switch (random.nextInt(22)) {
            case 0 -> year + "-" + month + "-" + day;
            case 1 -> year + "/" + month + "/" + day;
            case 2 -> day + "/" + month + "/" + year;
            case 3 -> day + "." + month + "." + year;
            case 4 -> year + "_" + month + "_" + day;
            case 5 -> year + "-" + month + "-" + day + "T" + time + "Z";
            case 6 -> year + "-" + month + "-" + day + "T" + time + "." + random.nextInt(1000) + "+01:00";
            case 7 -> year + "-" + month + "-" + day + " " + time;
            case 8 -> random.nextInt(20) + "." + random.nextInt(100) + "." + random.nextInt(1000)
                    + (random.nextBoolean() ? "." + random.nextInt(10000) : "");
            case 9 -> "v" + random.nextInt(10) + "." + random.nextInt(30) + "." + random.nextInt(100);
            case 10 -> new java.util.UUID(random.nextLong(), random.nextLong()).toString();
            case 11 -> "$" + random.nextInt(100000) + "." + String.format("%02d", random.nextInt(100));
            case 12 -> String.format(Locale.ROOT, "%,d.%02d", random.nextInt(10_000_000), random.nextInt(100));
            case 13 -> String.format(Locale.GERMANY, "%,d,%02d €", random.nextInt(10_000_000), random.nextInt(100));
            case 14 -> random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256) + "."
                    + random.nextInt(256) + (random.nextBoolean() ? ":" + random.nextInt(65536) : "");
            case 15 -> random.nextInt(101) + "%" + any(random, List.of("", " off", "25", "20"));
            case 16 -> any(random, List.of("&amp;", "&lt;b&gt;", "&copy;", "&#65;", "%41%42", "a%20b", "&nbsp;"));
            case 17 -> "@" + words(random, 1) + (random.nextBoolean() ? "." + words(random, 1) : "");
            case 18 -> words(random, 1) + " @ " + random.nextInt(100) + "." + random.nextInt(100);
            case 19 -> "#" + random.nextInt(1_000_000);
            case 20 -> (640 + random.nextInt(3000)) + "x" + (480 + random.nextInt(2000));
            default -> String.valueOf(random.nextInt(1_000_000));
        };
    }
}
