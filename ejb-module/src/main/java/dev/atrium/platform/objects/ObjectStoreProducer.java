package dev.atrium.platform.objects;

import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.platform.PlatformConfig;

/**
 * The object store of this deployment: {@code atrium.object-store} = {@code s3://bucket?endpoint=…&region=…} for S3
 * (credentials {@code atrium.s3.access-key} and {@code atrium.s3.secret-key}, else the AWS SDK's default chain),
 * {@code file:<path>} for a directory, and by default {@code objects} under the data directory.
 */
@ApplicationScoped
public class ObjectStoreProducer {

    private static final Logger LOG = Logger.getLogger(ObjectStoreProducer.class.getName());

    @Inject
    @ConfigProperties
    PlatformConfig config;

    @Produces
    @ApplicationScoped
    ObjectStore store() {
        return create(config.objectStore, config.dataDir, config.s3AccessKey, config.s3SecretKey);
    }

    static ObjectStore create(Optional<String> location, String dataDir, Optional<String> accessKey,
                              Optional<String> secretKey) {
        String where = location.map(String::trim).filter(s -> !s.isEmpty()).orElse("");
        if (where.startsWith("s3://")) {
            var store = S3ObjectStore.create(where, accessKey, secretKey);
            LOG.info(() -> "Object store: " + store);
            return store;
        }
        if (!where.isEmpty() && !where.startsWith("file:")) {
            throw new IllegalStateException("atrium.object-store must be s3://bucket?… or file:<directory>");
        }
        Path root = where.startsWith("file:") ? Path.of(where.substring("file:".length()))
                : Path.of(dataDir).resolve("objects");
        LOG.info(() -> "Object store: directory " + root.toAbsolutePath().normalize());
        return new FileObjectStore(root);
    }

    void close(@Disposes ObjectStore store) {
        if (store instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.warning(() -> "Closing the object store failed: " + e);
            }
        }
    }
}
