package dev.atrium.identity.control.token;

import java.util.Random;

/** Random JSON text for the fuzz tests of readers of untrusted input: any value, odd numbers, any characters. */
public final class RandomJson {

    private RandomJson() {
    }

    /** Any JSON value, nested up to {@code depth}. */
    public static String value(Random random, int depth) {
        int kind = random.nextInt(depth > 0 ? 9 : 6);
        return switch (kind) {
            case 0 -> "null";
            case 1 -> String.valueOf(random.nextBoolean());
            case 2 -> String.valueOf(random.nextLong());
            case 3 -> String.valueOf(random.nextDouble() * Math.pow(10, random.nextInt(600) - 300));
            case 4 -> quote(string(random));
            case 5 -> random.nextBoolean() ? "\"\"" : "1e999";
            case 6, 7 -> {
                var array = new StringBuilder("[");
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.append(value(random, depth - 1)).append(i > 1 ? "," : "");
                }
                yield array.append("]").toString();
            }
            default -> {
                var object = new StringBuilder("{");
                for (int i = random.nextInt(4); i > 0; i--) {
                    object.append(quote(string(random))).append(":").append(value(random, depth - 1))
                            .append(i > 1 ? "," : "");
                }
                yield object.append("}").toString();
            }
        };
    }

    public static String string(Random random) {
        var text = new StringBuilder();
        for (int i = random.nextInt(24); i > 0; i--) {
            text.append((char) (random.nextInt(4) == 0 ? random.nextInt(0xD800) : 0x20 + random.nextInt(0x5f)));
        }
        return text.toString();
    }

    public static String quote(String value) {
        var out = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
