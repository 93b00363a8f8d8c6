package dev.atrium.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

/**
 * The public address clients reach Atrium at ({@value #KEY}), which links in mail, agent cards, SSO redirects and
 * HTTPS redirects start from. Read here only; its default is in {@link PlatformConfig}.
 */
@ApplicationScoped
public class BaseUrl {

    public static final String KEY = "atrium.base-url";

    @Inject
    @ConfigProperties
    PlatformConfig config;

    /** A fixed address, for code built outside the container. */
    public static BaseUrl of(String address) {
        var url = new BaseUrl();
        url.config = new PlatformConfig();
        url.config.baseUrl = address;
        return url;
    }

    /** The address without trailing slashes, so a path starting with {@code /} appends to it. */
    public String value() {
        return config.baseUrl.replaceAll("/+$", "");
    }

    /** The address followed by {@code path}. */
    public String resolve(String path) {
        return value() + path;
    }
}
