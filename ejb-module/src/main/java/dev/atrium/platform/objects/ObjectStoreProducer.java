package dev.atrium.platform.objects;

import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The object store of this deployment: {@code atrium.object-store} = {@code s3://bucket?endpoint=…&region=…} for S3,
 * {@code file:<path>} for a directory, and by default {@code objects} under the data directory.
 */
@ApplicationScoped
public class ObjectStoreProducer {

    private static final Logger LOG = Logger.getLogger(ObjectStoreProducer.class.getName());

    @Inject
    @ConfigProperty(name = "atrium.object-store")
    Optional<String> location;

    @Inject
    @ConfigProperty(name = "atrium.data-dir", defaultValue = "./data")
    String dataDir;

    @Produces
    @ApplicationScoped
    ObjectStore store() {
        String where = location.map(String::trim).filter(s -> !s.isEmpty()).orElse("");
        if (where.startsWith("s3://")) {
            throw new IllegalStateException("The S3 object store adapter is not available in this build");
        }
        Path root = where.startsWith("file:") ? Path.of(where.substring("file:".length()))
                : Path.of(dataDir).resolve("objects");
        LOG.info(() -> "Object store: directory " + root.toAbsolutePath().normalize());
        return new FileObjectStore(root);
    }
}
