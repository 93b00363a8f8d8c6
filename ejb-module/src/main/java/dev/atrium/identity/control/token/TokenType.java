package dev.atrium.identity.control.token;

/** The kinds of signed token, by the value of their {@code type} claim. SSO tokens carry the access claims. */
public enum TokenType {
    ACCESS("access"),
    REFRESH("refresh"),
    EMAIL_VERIFY("email_verify");

    private final String claim;

    TokenType(String claim) {
        this.claim = claim;
    }

    public String claim() {
        return claim;
    }
}
