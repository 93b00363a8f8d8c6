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
final class CodecRefusals extends BaseFilter {

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

    /** The bytes of a short write, without moving the buffer; null for a long one (no bare error is long). */
    private static byte[] head(Buffer buffer) {
        int length = buffer.remaining();
        if (length > Refusal.MAX_LENGTH) {
            return null;
        }
        byte[] bytes = new byte[length];
        int start = buffer.position();
        for (int i = 0; i < length; i++) {
            bytes[i] = buffer.get(start + i);
        }
        return bytes;
    }
}
