package dev.atrium.ai.batch;

/** CSV fields as RFC 4180 wants them: quoted when they hold a comma, quote or line break. */
final class UsageCsv {

    static final String HEADER = "user_id,model,requests,input_tokens,output_tokens,tokens,cost\n";

    private UsageCsv() {
    }

    static String field(String value) {
        if (value == null) {
            return "";
        }
        if (value.contains(",") || value.contains("\"") || value.contains("\n") || value.contains("\r")) {
            return "\"" + value.replace("\"", "\"\"") + "\"";
        }
        return value;
    }
}
