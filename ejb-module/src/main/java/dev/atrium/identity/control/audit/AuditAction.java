package dev.atrium.identity.control.audit;

import java.util.Locale;

/** The actions the audit log records, by their stored name. */
public enum AuditAction {
    REGISTER,
    VERIFY_EMAIL,
    VERIFY_EMAIL_RESEND,
    LOGIN,
    LOGOUT,
    REFRESH,
    PASSWORD_CHANGE,
    PASSWORD_RESET_REQUEST,
    PASSWORD_RESET,
    LOCKOUT,
    ROLE_GRANT,
    ROLE_REVOKE,
    USER_DELETE,
    USER_DEACTIVATE,
    USER_ACTIVATE,
    SESSIONS_END,
    KEY_ROTATE,
    OAUTH_LOGIN,
    OAUTH_UNLINK,
    SSO_LOGIN,
    SSO_TICKET_VALIDATE,
    SECURITY_ALERT,
    SECURITY_ALERT_ACK,
    HOLD_RELEASE;

    public String stored() {
        return name().toLowerCase(Locale.ROOT);
    }
}
