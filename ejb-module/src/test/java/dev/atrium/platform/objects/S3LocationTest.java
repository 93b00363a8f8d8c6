package dev.atrium.platform.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class S3LocationTest {

    @Test
    void whenOnlyABucketIsGivenThenItIsAwsInUsEast1PathStyle() {
        var location = S3ObjectStore.Location.parse("s3://atrium-files");

        assertThat(location.bucket()).isEqualTo("atrium-files");
        assertThat(location.endpoint()).isEmpty();
        assertThat(location.region()).isEqualTo("us-east-1");
        assertThat(location.pathStyle()).isTrue();
        assertThat(location.partSize()).isEmpty();
    }

    @Test
    void whenParametersAreGivenThenTheyAreTaken() {
        var location = S3ObjectStore.Location.parse("s3://files.example?endpoint=http%3A%2F%2Fminio%3A9000"
                + "&region=eu-central-1&path-style=false&part-size-mb=16");

        assertThat(location.endpoint()).contains(URI.create("http://minio:9000"));
        assertThat(location.region()).isEqualTo("eu-central-1");
        assertThat(location.pathStyle()).isFalse();
        assertThat(location.partSize()).contains(16 * 1024 * 1024);
        assertThat(location.describe()).isEqualTo("s3://files.example at http://minio:9000 (eu-central-1)");
    }

    @Test
    void whenTheLocationIsMalformedThenItIsRefusedWithAReason() {
        assertThatThrownBy(() -> S3ObjectStore.Location.parse("s3://UPPER")).hasMessageContaining("bucket");
        assertThatThrownBy(() -> S3ObjectStore.Location.parse("s3://b-1?endpoint=ftp://x"))
                .hasMessageContaining("http(s)");
        assertThatThrownBy(() -> S3ObjectStore.Location.parse("s3://b-1?bucket=other"))
                .hasMessageContaining("Unknown");
        assertThatThrownBy(() -> S3ObjectStore.Location.parse("s3://b-1?part-size-mb=1"))
                .hasMessageContaining("at least 5");
        assertThatThrownBy(() -> S3ObjectStore.Location.parse("s3://b-1?path-style=yes"))
                .hasMessageContaining("path-style");
    }

    @Test
    void whenOnlyOneOfTheKeysIsGivenThenTheStoreIsNotMade() {
        assertThatThrownBy(() -> S3ObjectStore.create("s3://b-1", Optional.of("access"), Optional.empty()))
                .hasMessageContaining("both");
    }

    @Test
    void whenTheLocationIsNeitherS3NorFileThenTheProducerRefusesIt() {
        assertThatThrownBy(() -> ObjectStoreProducer.create(Optional.of("ftp://x"), "data", Optional.empty(),
                Optional.empty())).hasMessageContaining("s3://");
        assertThat(ObjectStoreProducer.create(Optional.empty(), System.getProperty("java.io.tmpdir")
                + "/atrium-producer-test", Optional.empty(), Optional.empty()).kind()).isEqualTo("file");
    }
}
