package dev.atrium.identity.control.audit;

/** The actions the audit log records, by their stored name. */
public enum AuditAction {
    REGISTER("register"),
    VERIFY_EMAIL("verify_email"),
    VERIFY_EMAIL_RESEND("verify_email_resend"),
    LOGIN("login"),
    LOGOUT("logout"),
    REFRESH("refresh"),
    PASSWORD_CHANGE("password_change"),
    PASSWORD_RESET_REQUEST("password_reset_request"),
    PASSWORD_RESET("password_reset"),
    LOCKOUT("lockout"),
    ROLE_GRANT("role_grant"),
    ROLE_REVOKE("role_revoke"),
    USER_DELETE("user_delete"),
    USER_DEACTIVATE("user_deactivate"),
    USER_ACTIVATE("user_activate"),
    SESSIONS_END("sessions_end"),
    KEY_ROTATE("key_rotate"),
    OAUTH_LOGIN("oauth_login"),
    OAUTH_UNLINK("oauth_unlink"),
    SSO_LOGIN("sso_login"),
    SSO_TICKET_VALIDATE("sso_ticket_validate"),
    SECURITY_ALERT("security_alert"),
    SECURITY_ALERT_ACK("security_alert_ack"),
    HOLD_RELEASE("hold_release");

    private final String stored;

    AuditAction(String stored) {
        this.stored = stored;
    }

    public String stored() {
        return stored;
    }
}
