package dev.atrium.ai.boundary;

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

import dev.atrium.ai.control.FileService;
import dev.atrium.identity.boundary.CallerPrincipal;
import dev.atrium.platform.boundary.FilterOrder;
import dev.atrium.platform.error.BusinessException;

/**
 * Bounds an upload's body by the caller's limit before anything reads it, right after the permission check (so a
 * caller without {@code file:upload} hears 403, not 413): a declared {@code Content-Length} above the file limit
 * plus the multipart envelope is answered 413 at once, and a body without one (chunked) is cut off with 413 as soon
 * as it passes that, so neither memory nor the temporary files of the multipart reader ever hold more. The file
 * part itself is held to the exact limit while it is stored.
 */
@Provider
@ApplicationScoped
@FileUploadLimit
@Priority(FilterOrder.AUTHORIZATION + 1)
public class FileUploadLimitFilter implements ContainerRequestFilter {

    @Inject
    UploadLimits limits;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!(request.getSecurityContext().getUserPrincipal() instanceof CallerPrincipal principal)) {
            return;
        }
        long file = limits.fileBytes(principal.caller().userId());
        long body = file + UploadLimits.ENVELOPE_BYTES;
        String declared = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        if (declared != null) {
            long length;
            try {
                length = Long.parseLong(declared.trim());
            } catch (NumberFormatException e) {
                throw BusinessException.badRequest("Content-Length is not a number");
            }
            if (length > body) {
                throw FileService.tooLarge(file);
            }
        }
        request.setEntityStream(new Bounded(request.getEntityStream(), body, file));
    }

    /** Counts what is read and fails once more than the limit has come. */
    static final class Bounded extends FilterInputStream {
        private final long max;
        private final long file;
        private long count;

        Bounded(InputStream in, long max, long file) {
            super(in);
            this.max = max;
            this.file = file;
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

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(n);
            add(skipped);
            return skipped;
        }

        private void add(long n) {
            count += n;
            if (count > max) {
                throw FileService.tooLarge(file);
            }
        }
    }
}
