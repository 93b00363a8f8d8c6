package dev.atrium.content.control;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The content context's configuration: every key under atrium.content, with its default. */
@ConfigProperties(prefix = "atrium")
public class ContentConfig {

    /**
     * How long the web module keeps a rendered article list page at most, also when no article write changed what it
     * shows; 0 keeps none.
     */
    @ConfigProperty(name = "content.list-cache-seconds", defaultValue = "60")
    public long listCacheSeconds;
}
