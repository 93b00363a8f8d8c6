package dev.atrium.platform.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.util.Optional;
import java.util.Properties;

import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract against a real S3 server in this JVM: S3Proxy on jclouds' in-memory ("transient") blob store, on a
 * free port of 127.0.0.1, with AWS signature checks, so the adapter's requests are signed and addressed as for AWS.
 * The store is made the way the application makes it, from an {@code s3://} location.
 */
class S3ObjectStoreTest extends ObjectStoreContract {

    static final String BUCKET = "atrium-test";
    static final String ACCESS_KEY = "atrium-access";
    static final String SECRET_KEY = "atrium-secret-0123456789";

    private static BlobStoreContext blobs;
    private static S3Proxy server;
    private static S3ObjectStore store;

    @BeforeAll
    static void startServer() throws Exception {
        blobs = ContextBuilder.newBuilder("transient").credentials(ACCESS_KEY, SECRET_KEY)
                .overrides(new Properties()).build(BlobStoreContext.class);
        BlobStore blobStore = blobs.getBlobStore();
        blobStore.createContainerInLocation(null, BUCKET);
        server = S3Proxy.builder().blobStore(blobStore).endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build();
        server.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!"STARTED".equals(server.getState()) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        // parts of the smallest size S3 allows, so that the multipart path is taken by the large-object test
        store = (S3ObjectStore) ObjectStoreProducer.create(Optional.of(location()), "unused",
                Optional.of(ACCESS_KEY), Optional.of(SECRET_KEY));
    }

    static String location() {
        return "s3://" + BUCKET + "?endpoint=http://127.0.0.1:" + server.getPort() + "&region=eu-central-1"
                + "&part-size-mb=5";
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (store != null) {
            store.close();
        }
        if (server != null) {
            server.stop();
        }
        if (blobs != null) {
            blobs.close();
        }
    }

    @Override
    protected ObjectStore store() {
        return store;
    }

    @Override
    protected String expectedKind() {
        return "s3";
    }

    @Test
    void whenTheLocationIsReadThenPartSizeEndpointAndRegionAreTaken() {
        assertThat(store.partSize()).isEqualTo(S3ObjectStore.MIN_PART_SIZE);
        assertThat(store.toString()).contains("s3://" + BUCKET).contains("127.0.0.1").contains("eu-central-1")
                .doesNotContain(SECRET_KEY);
    }

    @Test
    void whenTheSecretIsWrongThenOperationsFailWithoutLeakingIt() {
        try (var wrong = S3ObjectStore.create(location(), Optional.of(ACCESS_KEY), Optional.of("not-the-secret"))) {
            assertThatThrownBy(() -> wrong.put(key("denied"), new ByteArrayInputStream(new byte[] {1}), "text/plain"))
                    .isInstanceOf(ObjectStoreException.class)
                    .hasMessageNotContaining("not-the-secret");
            assertThat(wrong.reachable()).isFalse();
        }
        assertThat(store.get(key("denied"))).isEmpty();
    }

    @Test
    void whenTheBucketDoesNotExistThenOperationsFail() {
        String missing = location().replace("s3://" + BUCKET, "s3://no-such-bucket");
        try (var elsewhere = S3ObjectStore.create(missing, Optional.of(ACCESS_KEY), Optional.of(SECRET_KEY))) {
            assertThatThrownBy(() -> elsewhere.put("k", new ByteArrayInputStream(new byte[] {1}), "text/plain"))
                    .isInstanceOf(ObjectStoreException.class);
            assertThat(elsewhere.reachable()).isFalse();
        }
    }
}
