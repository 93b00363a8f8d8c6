package dev.atrium.platform.container;

import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.memory.Buffers;

/**
 * Sits just below the HTTP codec. A write that did not come through {@link ApplicationWrites} is the codec's own, and
 * when it is a refusal (a 4xx or 5xx with an empty body, Grizzly's {@code customizeErrorResponse}) its bytes are
 * replaced by the same status in the error envelope ({@link Refusal}). Anything else passes as it came.
 */
final class CodecRefusals extends BaseFilter {

    @Override
    public NextAction handleWrite(FilterChainContext ctx) {
        boolean fromAbove = ApplicationWrites.MARK.remove(ctx) != null;
        if (!fromAbove && ctx.getMessage() instanceof Buffer buffer) {
            byte[] answer = Refusal.envelope(head(buffer));
            if (answer != null) {
                ctx.setMessage(Buffers.wrap(ctx.getMemoryManager(), answer));
                buffer.tryDispose();
            }
        }
        return ctx.getInvokeAction();
    }

    /** The bytes of a short write, without moving the buffer; null for a long one (no refusal is long). */
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
