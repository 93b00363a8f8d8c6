package dev.atrium.platform.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.http.HTTPRequestSender;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.http.ReadOnlyHTTPRequest;

/**
 * Sends the Nimbus OAuth 2.0 SDK's requests over the JDK client with one deadline for the whole exchange, and cuts
 * the answer off (cancelling the exchange) as soon as it passes a number of bytes, so that a slow or endless
 * provider holds neither a thread nor memory for long. Nimbus's own sender has only per-read timeouts and reads the
 * whole body before anyone could measure it. Redirects are never followed; the request's own timeouts are ignored.
 */
public final class BoundedSender implements HTTPRequestSender {

    private static final Set<String> RESTRICTED = Set.of("content-length", "host", "connection", "expect", "upgrade");

    private final Duration deadline;
    private final int maxResponseBytes;
    private final HttpClient http;

    public BoundedSender(Duration connectTimeout, Duration deadline, int maxResponseBytes) {
        this.deadline = deadline;
        this.maxResponseBytes = maxResponseBytes;
        this.http = HttpClient.newBuilder().connectTimeout(connectTimeout).version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** The answer's status, Content-Type and body; {@link TooLarge} beyond the byte limit. */
    @Override
    public HTTPResponse send(ReadOnlyHTTPRequest request) throws IOException {
        var builder = HttpRequest.newBuilder(request.getURI()).timeout(deadline);
        request.getHeaderMap().forEach((name, values) -> {
            if (!RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> builder.header(name, v));
            }
        });
        String body = request.getBody();
        builder.method(request.getMethod().name(), body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        CompletableFuture<HttpResponse<byte[]>> exchange = http.sendAsync(builder.build(),
                info -> new Bounded(maxResponseBytes));
        HttpResponse<byte[]> response;
        try {
            response = exchange.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new IOException("timed out");
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            while (cause != null && !(cause instanceof TooLarge) && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof TooLarge tooLarge) {
                throw tooLarge;
            }
            throw new IOException("exchange failed", e.getCause());
        }
        var answer = new HTTPResponse(response.statusCode());
        response.headers().firstValue("Content-Type").ifPresent(type -> {
            try {
                answer.setContentType(type);
            } catch (ParseException e) {
                // left unset: parsing the body then fails and says so
            }
        });
        answer.setBody(new String(response.body(), StandardCharsets.UTF_8));
        return answer;
    }

    /** The answer passed the byte limit; the exchange was cancelled. */
    public static final class TooLarge extends IOException {
        TooLarge() {
            super("answer too large");
        }
    }

    /** The answer's body, cut off (and the exchange cancelled) beyond {@code max} bytes. */
    private static final class Bounded implements HttpResponse.BodySubscriber<byte[]> {
        private final int max;
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private Flow.Subscription subscription;

        Bounded(int max) {
            this.max = max;
        }

        @Override
        public CompletableFuture<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer item : items) {
                if (out.size() + item.remaining() > max) {
                    subscription.cancel();
                    result.completeExceptionally(new TooLarge());
                    return;
                }
                byte[] bytes = new byte[item.remaining()];
                item.get(bytes);
                out.writeBytes(bytes);
            }
        }

        @Override
        public void onError(Throwable error) {
            result.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            result.complete(out.toByteArray());
        }
    }
}
