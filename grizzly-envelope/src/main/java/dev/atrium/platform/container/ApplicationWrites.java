package dev.atrium.platform.container;

import org.glassfish.grizzly.Grizzly;
import org.glassfish.grizzly.attributes.Attribute;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;

/**
 * Sits just above the HTTP codec and marks every write that comes from above it (the web container, WebSocket,
 * anything an application answers): {@link CodecRefusals}, below the codec, never touches a marked write. Only what
 * the codec writes by itself, its refusals, reaches it unmarked.
 */
final class ApplicationWrites extends BaseFilter {

    static final Attribute<Boolean> MARK = Grizzly.DEFAULT_ATTRIBUTE_BUILDER
            .createAttribute(ApplicationWrites.class.getName());

    @Override
    public NextAction handleWrite(FilterChainContext ctx) {
        MARK.set(ctx, Boolean.TRUE);
        return ctx.getInvokeAction();
    }
}
