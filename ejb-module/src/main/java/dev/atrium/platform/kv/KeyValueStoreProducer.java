package dev.atrium.platform.kv;

import java.time.Clock;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.platform.PlatformConfig;

/** Chooses the store once per application: Redis when {@code atrium.redis.url} is set, else the in-process map. */
@ApplicationScoped
public class KeyValueStoreProducer {

    private static final Logger LOG = Logger.getLogger(KeyValueStoreProducer.class.getName());

    @Inject
    @ConfigProperties
    PlatformConfig config;

    @Inject
    Clock clock;

    @Produces
    @ApplicationScoped
    KeyValueStore keyValueStore() {
        return create(config.redisUrl, clock);
    }

    void close(@Disposes KeyValueStore store) {
        if (store instanceof RedisKeyValueStore redis) {
            redis.close();
        }
    }

    static KeyValueStore create(Optional<String> redisUrl, Clock clock) {
        var url = redisUrl.map(String::trim).filter(s -> !s.isEmpty());
        if (url.isPresent()) {
            var redis = new RedisKeyValueStore(url.get());
            LOG.info(() -> "Key-value store: Redis at " + redis.endpoint());
            return redis;
        }
        LOG.info("Key-value store: in-process (atrium.redis.url is not set); state is not shared between instances");
        return new InMemoryKeyValueStore(clock);
    }
}
