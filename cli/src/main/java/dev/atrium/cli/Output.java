package dev.atrium.cli;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** Prints answers: one JSON document for {@code --json}, else aligned tables and lines for a person. */
final class Output {

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final int MAX_CELL = 60;

    private Output() {
    }

    static void json(Environment env, Object value) {
        try {
            env.out().println(JSON.writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static JsonNode tree(Object value) {
        return JSON.valueToTree(value);
    }

    /**
     * A table with a bold header. Cells are cut to {@value #MAX_CELL} characters and stripped of control characters:
     * what a server or an agent's author wrote must not move a terminal's cursor or change its colours.
     */
    static void table(Environment env, List<String> header, List<List<String>> rows) {
        var widths = new int[header.size()];
        var clean = new ArrayList<List<String>>();
        for (var row : rows) {
            clean.add(row.stream().map(Output::cell).toList());
        }
        for (int i = 0; i < widths.length; i++) {
            widths[i] = header.get(i).length();
            for (var row : clean) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        env.out().println(env.colour("@|bold " + line(header, widths) + "|@"));
        for (var row : clean) {
            env.out().println(line(row, widths));
        }
    }

    private static String line(List<String> cells, int[] widths) {
        var line = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i);
            line.append(cell);
            if (i < cells.size() - 1) {
                line.append(" ".repeat(widths[i] - cell.length() + 2));
            }
        }
        return line.toString().stripTrailing();
    }

    /** Text a person reads on a terminal: control characters (ESC included) and picocli's markup defused. */
    static String safe(String text) {
        if (text == null) {
            return "";
        }
        var out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> out.appendCodePoint(Character.isISOControl(c) && c != '\n' && c != '\t'
                ? '?' : c));
        return out.toString().replace("@|", "@ |");
    }

    /**
     * An amount as a person reads it: plain digits (never {@code 7.0E-4}), at least two decimals, no trailing
     * zeros beyond them; the server's numbers and strings alike. Anything else is shown as it came.
     */
    static String money(JsonNode amount) {
        try {
            return money(amount.isNumber() ? amount.decimalValue() : new BigDecimal(amount.asText()));
        } catch (NumberFormatException e) {
            return safe(amount.asText());
        }
    }

    static String money(BigDecimal amount) {
        var plain = amount.stripTrailingZeros();
        return (plain.scale() < 2 ? plain.setScale(2) : plain).toPlainString();
    }

    private static String cell(String text) {
        String flat = safe(text).replace('\n', ' ').replace('\t', ' ');
        return flat.length() <= MAX_CELL ? flat : flat.substring(0, MAX_CELL - 1) + "…";
    }
}
