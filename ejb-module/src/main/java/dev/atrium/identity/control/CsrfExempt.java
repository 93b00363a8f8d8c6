package dev.atrium.identity.control;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a public ({@code @PermitAll}) operation that authenticates by what the request itself carries (a password,
 * a reset or refresh token, a signature) or changes nothing of anyone's: a session cookie that comes along is not its
 * credential, so it needs no CSRF token. Every other state-changing request made with the session cookie does, public
 * or not.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface CsrfExempt {
}
