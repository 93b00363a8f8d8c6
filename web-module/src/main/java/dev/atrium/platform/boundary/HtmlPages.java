package dev.atrium.platform.boundary;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The few pages a browser opens directly (a mailed link, the single sign-on login): plain HTML forms without
 * script, so they need nothing beyond the spec's Content-Security-Policy, never cached and never sending their
 * address (which may carry a token) to another site as a referrer. Also the files of the two pages built by their
 * own scripts (the operators' console, the API page), under one policy ({@link #file}).
 */
public final class HtmlPages {

    /**
     * Scripts and styles from this origin only, no inline code. Swagger UI sets styles through the DOM (allowed
     * without 'unsafe-inline'), and its icons are data: images.
     */
    static final String SCRIPTED_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    private static final MediaType HTML = MediaType.valueOf("text/html;charset=UTF-8");

    private HtmlPages() {
    }

    /** A page with this title and body (already HTML), answered with {@code status}. */
    public static Response page(int status, String title, String body) {
        return builder(status, title, body).build();
    }

    /** {@link #page}, still open for more headers. */
    public static Response.ResponseBuilder builder(int status, String title, String body) {
        String html = """
                <!DOCTYPE html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>%1$s</title>
                <style>body{font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
                label,input,button{display:block;width:100%%;margin:.4rem 0}input{padding:.4rem}
                .error{color:#a00}</style>
                </head>
                <body>
                <h1>%1$s</h1>
                %2$s
                </body>
                </html>
                """.formatted(escape(title), body);
        return Response.status(status).type(HTML).entity(html)
                .header("Cache-Control", "no-store")
                .header("Referrer-Policy", "no-referrer");
    }

    /** A file of a scripted page: bytes, or a stream JAX-RS closes once written; checked again at each use. */
    public static Response file(Object content, String type) {
        return Response.ok(content, type).header("Content-Security-Policy", SCRIPTED_POLICY)
                .header("Cache-Control", "no-cache").header("Referrer-Policy", "same-origin").build();
    }

    /** Text made safe for HTML element content and double-quoted attribute values. */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        var out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
