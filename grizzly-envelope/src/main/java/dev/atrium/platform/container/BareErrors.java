package dev.atrium.platform.container;

import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.memory.Buffers;

/**
 * Sits just below the HTTP codec and replaces a bare error (a whole 4xx or 5xx with {@code Content-Length: 0} and no
 * body) with the same status in the error envelope ({@link Refusal}): the codec's own refusals (unmarked by
 * {@link ApplicationWrites}, such as Grizzly's {@code customizeErrorResponse} after a header it refuses), and the web
 * container's bare errors before any application (a path it cannot decode, TRACE), which carry no request id. An
 * answer to HEAD, an application's answer (Atrium's all carry {@code X-Request-ID}) and anything else pass as they
 * came.
 */
final class BareErrors extends BaseFilter {

    private static final byte[] STATUS_LINE_START = {'H', 'T', 'T', 'P', '/', '1', '.'};

    @Override
    public NextAction handleWrite(FilterChainContext ctx) {
        ApplicationWrites.Origin origin = ApplicationWrites.MARK.remove(ctx);
        if (origin != ApplicationWrites.Origin.HEAD && ctx.getMessage() instanceof Buffer buffer) {
            byte[] answer = Refusal.envelope(head(buffer), origin == null);
            if (answer != null) {
                ctx.setMessage(Buffers.wrap(ctx.getMemoryManager(), answer));
                buffer.tryDispose();
            }
        }
        return ctx.getInvokeAction();
    }

    /**
     * The bytes of a write that may be a bare error, without moving the buffer: short, "HTTP/1." and a 4xx or 5xx at
     * its start, the end of a header block at its end. Null for anything else, such as a body or a long answer, after
     * looking at a few bytes only.
     */
    static byte[] head(Buffer buffer) {
        int length = buffer.remaining();
        int start = buffer.position();
        if (length < 16 || length > Refusal.MAX_LENGTH || !startsLikeAnError(buffer, start)
                || buffer.get(start + length - 4) != '\r' || buffer.get(start + length - 3) != '\n'
                || buffer.get(start + length - 2) != '\r' || buffer.get(start + length - 1) != '\n') {
            return null;
        }
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = buffer.get(start + i);
        }
        return bytes;
    }

    private static boolean startsLikeAnError(Buffer buffer, int start) {
        for (int i = 0; i < STATUS_LINE_START.length; i++) {
            if (buffer.get(start + i) != STATUS_LINE_START[i]) {
                return false;
            }
        }
        byte status = buffer.get(start + 9);
        return status == '4' || status == '5';
    }
}
