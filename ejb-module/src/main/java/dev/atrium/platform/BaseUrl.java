package dev.atrium.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The public address clients reach Atrium at ({@value #KEY}), which links in mail, agent cards, SSO redirects and
 * HTTPS redirects start from. Read here only, so its default is written once.
 */
@ApplicationScoped
public class BaseUrl {

    public static final String KEY = "atrium.base-url";

    @Inject
    @ConfigProperty(name = KEY, defaultValue = "http://localhost:8080")
    String configured;

    /** A fixed address, for code built outside the container. */
    public static BaseUrl of(String address) {
        var url = new BaseUrl();
        url.configured = address;
        return url;
    }

    /** The address without trailing slashes, so a path starting with {@code /} appends to it. */
    public String value() {
        return configured.replaceAll("/+$", "");
    }

    /** The address followed by {@code path}. */
    public String resolve(String path) {
        return value() + path;
    }
}
