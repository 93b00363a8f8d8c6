package dev.atrium.platform.objects;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Objects in an S3 bucket (AWS or any S3-compatible server), on the AWS SDK v2 with its small
 * {@code HttpURLConnection}-based HTTP client and path-style addressing ({@code endpoint/bucket/key}), which every
 * S3-compatible server understands.
 * <p>
 * A stream of unknown length is never held whole: up to {@link #partSize()} bytes are read first; a stream that
 * ends there is stored with one {@code PutObject}, a longer one as a multipart upload of parts of that size (only
 * one part in memory at a time), aborted if anything fails so no half object and no orphaned parts remain.
 * <p>
 * The SDK's default request checksums (CRC trailers since 2.30) are asked for only where S3 requires them, since
 * many S3-compatible servers do not understand them.
 */
public class S3ObjectStore implements ObjectStore, AutoCloseable {

    /** S3's smallest part of a multipart upload (all but the last). */
    public static final int MIN_PART_SIZE = 5 * 1024 * 1024;
    static final int DEFAULT_PART_SIZE = 8 * 1024 * 1024;

    private static final Logger LOG = Logger.getLogger(S3ObjectStore.class.getName());
    private static final String DEFAULT_TYPE = "application/octet-stream";

    private final S3Client client;
    private final String bucket;
    private final int partSize;
    private final String description;

    S3ObjectStore(S3Client client, String bucket, int partSize, String description) {
        if (partSize < MIN_PART_SIZE) {
            throw new IllegalArgumentException("The part size must be at least " + MIN_PART_SIZE + " bytes");
        }
        this.client = client;
        this.bucket = bucket;
        this.partSize = partSize;
        this.description = description;
    }

    /**
     * The store a location names: {@code s3://bucket?endpoint=http://host:port&region=eu-central-1}. Without an
     * endpoint it is AWS S3 itself; without a region, {@code us-east-1}. The access key and secret are used when
     * both are given, else the SDK's default chain (environment, system properties, profile, container or instance
     * role). {@code path-style=false} switches to virtual-hosted addressing ({@code bucket.endpoint/key}).
     */
    public static S3ObjectStore create(String location, Optional<String> accessKey, Optional<String> secretKey) {
        var target = Location.parse(location);
        AwsCredentialsProvider credentials;
        if (accessKey.filter(k -> !k.isBlank()).isPresent() && secretKey.filter(k -> !k.isBlank()).isPresent()) {
            credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey.get().trim(),
                    secretKey.get().trim()));
        } else if (accessKey.filter(k -> !k.isBlank()).isPresent() || secretKey.filter(k -> !k.isBlank()).isPresent()) {
            throw new IllegalStateException("Set both the S3 access key and the secret key, or neither");
        } else {
            credentials = DefaultCredentialsProvider.builder().build();
        }
        var builder = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(10))
                        .socketTimeout(Duration.ofSeconds(60)))
                .region(Region.of(target.region()))
                .credentialsProvider(credentials)
                .forcePathStyle(target.pathStyle())
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        target.endpoint().ifPresent(builder::endpointOverride);
        return new S3ObjectStore(builder.build(), target.bucket(), target.partSize().orElse(DEFAULT_PART_SIZE),
                target.describe());
    }

    /** The parts of an {@code s3://} location. */
    record Location(String bucket, Optional<URI> endpoint, String region, boolean pathStyle,
                    Optional<Integer> partSize) {

        static Location parse(String location) {
            if (location == null || !location.startsWith("s3://")) {
                throw new IllegalArgumentException("An S3 location starts with s3://");
            }
            String rest = location.substring("s3://".length());
            int query = rest.indexOf('?');
            String bucket = (query < 0 ? rest : rest.substring(0, query)).replaceAll("/+$", "");
            if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
                throw new IllegalArgumentException("Not a valid S3 bucket name: '" + bucket + "'");
            }
            Map<String, String> parameters = new LinkedHashMap<>();
            if (query >= 0) {
                for (String pair : rest.substring(query + 1).split("&")) {
                    if (pair.isEmpty()) {
                        continue;
                    }
                    int eq = pair.indexOf('=');
                    String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                    String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                    parameters.put(name, value);
                }
            }
            for (String name : parameters.keySet()) {
                if (!List.of("endpoint", "region", "path-style", "part-size-mb").contains(name)) {
                    throw new IllegalArgumentException("Unknown S3 location parameter '" + name
                            + "' (known: endpoint, region, path-style, part-size-mb)");
                }
            }
            Optional<URI> endpoint = Optional.ofNullable(parameters.get("endpoint")).filter(e -> !e.isBlank())
                    .map(e -> {
                        URI uri = URI.create(e.trim());
                        if (uri.getScheme() == null || !uri.getScheme().matches("https?") || uri.getHost() == null) {
                            throw new IllegalArgumentException("The S3 endpoint must be an http(s) URL: " + e);
                        }
                        return uri;
                    });
            String region = Optional.ofNullable(parameters.get("region")).map(String::trim).filter(r -> !r.isEmpty())
                    .orElse("us-east-1");
            String pathStyle = parameters.getOrDefault("path-style", "true").trim();
            if (!pathStyle.equals("true") && !pathStyle.equals("false")) {
                throw new IllegalArgumentException("path-style is true or false");
            }
            Optional<Integer> partSize = Optional.ofNullable(parameters.get("part-size-mb")).map(mb -> {
                try {
                    int size = Math.multiplyExact(Integer.parseInt(mb.trim()), 1024 * 1024);
                    if (size < MIN_PART_SIZE) {
                        throw new IllegalArgumentException("part-size-mb is at least 5");
                    }
                    return size;
                } catch (NumberFormatException | ArithmeticException e) {
                    throw new IllegalArgumentException("part-size-mb is a whole number from 5 to 2047");
                }
            });
            return new Location(bucket, endpoint, region, Boolean.parseBoolean(pathStyle), partSize);
        }

        /** For logs: no credentials are ever part of a location. */
        String describe() {
            return "s3://" + bucket + " at " + endpoint.map(URI::toString).orElse("AWS") + " (" + region
                    + (pathStyle ? ", path-style" : "") + ")";
        }
    }

    int partSize() {
        return partSize;
    }

    @Override
    public long put(String key, InputStream content, String contentType) {
        ObjectStore.checkedKey(key);
        String type = contentType == null || contentType.isBlank() ? DEFAULT_TYPE : contentType;
        byte[] first;
        try {
            first = content.readNBytes(partSize);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the content of object " + key, e);
        }
        if (first.length < partSize) {
            try {
                client.putObject(r -> r.bucket(bucket).key(key).contentType(type).contentLength((long) first.length),
                        RequestBody.fromBytes(first));
            } catch (SdkException e) {
                throw failure("store", key, e);
            }
            return first.length;
        }
        return putInParts(key, type, content, first);
    }

    private long putInParts(String key, String type, InputStream content, byte[] first) {
        String uploadId;
        try {
            uploadId = client.createMultipartUpload(r -> r.bucket(bucket).key(key).contentType(type)).uploadId();
        } catch (SdkException e) {
            throw failure("store", key, e);
        }
        try {
            var parts = new ArrayList<CompletedPart>();
            long total = 0;
            byte[] part = first;
            while (part.length > 0) {
                int number = parts.size() + 1;
                byte[] body = part;
                String etag = client.uploadPart(r -> r.bucket(bucket).key(key).uploadId(uploadId).partNumber(number)
                        .contentLength((long) body.length), RequestBody.fromBytes(body)).eTag();
                parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
                total += part.length;
                part = part.length < partSize ? new byte[0] : content.readNBytes(partSize);
            }
            client.completeMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId)
                    .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()));
            return total;
        } catch (IOException | RuntimeException e) {
            abort(key, uploadId, e);
            if (e instanceof SdkException sdk) {
                throw failure("store", key, sdk);
            }
            throw e instanceof IOException io ? new UncheckedIOException("Cannot read the content of object " + key,
                    io) : (RuntimeException) e;
        }
    }

    private void abort(String key, String uploadId, Exception cause) {
        try {
            client.abortMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId));
        } catch (SdkException e) {
            cause.addSuppressed(e);
            LOG.log(Level.WARNING, e, () -> "Could not abort the multipart upload of " + key
                    + "; the bucket's lifecycle rule for incomplete uploads must clean it up");
        }
    }

    @Override
    public Optional<StoredObject> get(String key) {
        ObjectStore.checkedKey(key);
        ResponseInputStream<GetObjectResponse> stream;
        try {
            stream = client.getObject(r -> r.bucket(bucket).key(key));
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return Optional.empty();
            }
            throw failure("read", key, e);
        } catch (SdkException e) {
            throw failure("read", key, e);
        }
        GetObjectResponse response = stream.response();
        String type = response.contentType() == null || response.contentType().isBlank() ? DEFAULT_TYPE
                : response.contentType();
        return Optional.of(new StoredObject(stream, type, response.contentLength()));
    }

    @Override
    public boolean delete(String key) {
        ObjectStore.checkedKey(key);
        try {
            // S3 deletes silently whether or not the key exists: ask first, to answer whether something went
            client.headObject(r -> r.bucket(bucket).key(key));
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return false;
            }
            throw failure("delete", key, e);
        } catch (SdkException e) {
            throw failure("delete", key, e);
        }
        try {
            client.deleteObject(r -> r.bucket(bucket).key(key));
            return true;
        } catch (SdkException e) {
            throw failure("delete", key, e);
        }
    }

    @Override
    public List<String> list(String prefix) {
        String from = prefix == null ? "" : prefix;
        try {
            var keys = new ArrayList<String>();
            for (var page : client.listObjectsV2Paginator(r -> r.bucket(bucket).prefix(from))) {
                page.contents().stream().map(S3Object::key).forEach(keys::add);
            }
            // S3 orders by UTF-8 bytes; the contract orders as Java strings do (the same for ASCII keys)
            keys.sort(null);
            return keys;
        } catch (SdkException e) {
            throw failure("list", from + "*", e);
        }
    }

    @Override
    public String kind() {
        return "s3";
    }

    @Override
    public boolean reachable() {
        try {
            client.headBucket(r -> r.bucket(bucket));
            return true;
        } catch (SdkException e) {
            LOG.fine(() -> "The bucket " + bucket + " does not answer: " + e.getClass().getSimpleName());
            return false;
        }
    }

    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return description;
    }

    private RuntimeException failure(String action, String key, SdkException e) {
        return new ObjectStoreException("Cannot " + action + " object " + key + " in " + description + ": "
                + e.getMessage(), e);
    }
}
