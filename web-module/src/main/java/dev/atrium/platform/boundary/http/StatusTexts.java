package dev.atrium.platform.boundary.http;

/** The message of an error that carries nothing more specific than its status. */
final class StatusTexts {

    private StatusTexts() {
    }

    static String of(int status) {
        return switch (status) {
            case 400 -> "Malformed request";
            case 401 -> "Authentication required";
            case 403 -> "Forbidden";
            case 404 -> "Resource not found";
            case 405 -> "Method not allowed";
            case 409 -> "Conflict";
            case 410 -> "Gone";
            case 413 -> "Request body too large";
            case 415 -> "Unsupported media type";
            case 422 -> "Request validation failed";
            case 429 -> "Too many requests";
            case 502 -> "Upstream unavailable";
            case 503 -> "Service unavailable";
            default -> status >= 500 ? "Internal server error" : "Request failed";
        };
    }
}
