package dev.atrium.marketplace.boundary;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;

import dev.atrium.marketplace.control.MarketplaceSettings;
import dev.atrium.platform.boundary.FilterOrder;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * Bounds a submission's body before anything reads it: a declared {@code Content-Length} above the limit is
 * answered 413 at once, and a body without one (chunked) is cut off with 413 as soon as it passes the limit, so no
 * reader, and no temporary file, ever holds more than the limit.
 */
@Provider
@ApplicationScoped
@UploadLimit
@Priority(FilterOrder.AUTHORIZATION + 1)
public class UploadLimitFilter implements ContainerRequestFilter {

    @Inject
    MarketplaceSettings settings;

    @Override
    public void filter(ContainerRequestContext request) {
        long max = settings.requestMaxBytes();
        String declared = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        if (declared != null) {
            try {
                if (Long.parseLong(declared.trim()) > max) {
                    throw tooLarge(max);
                }
            } catch (NumberFormatException e) {
                throw BusinessException.badRequest("Content-Length is not a number");
            }
        }
        request.setEntityStream(new Bounded(request.getEntityStream(), max));
    }

    static BusinessException tooLarge(long max) {
        return new BusinessException(Problem.PAYLOAD_TOO_LARGE, "The submission is too large",
                "A bundle may have at most " + max + " bytes with its card");
    }

    /** Counts what is read and fails once more than the limit has come. */
    static final class Bounded extends FilterInputStream {
        private final long max;
        private long count;

        Bounded(InputStream in, long max) {
            super(in);
            this.max = max;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                add(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                add(n);
            }
            return n;
        }

        private void add(long n) {
            count += n;
            if (count > max) {
                throw tooLarge(max);
            }
        }
    }
}
