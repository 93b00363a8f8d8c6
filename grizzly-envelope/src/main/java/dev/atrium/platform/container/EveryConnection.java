package dev.atrium.platform.container;

import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.portunif.PUContext;
import org.glassfish.grizzly.portunif.ProtocolFinder;

/**
 * The one protocol finder of the listener: every connection is HTTP, as it was before port unification. Grizzly's
 * own HTTP finder would look at the first bytes and close, without any answer, a connection whose request line it
 * does not recognise; the HTTP codec should refuse those, with its status.
 */
public class EveryConnection implements ProtocolFinder {

    @Override
    public Result find(PUContext puContext, FilterChainContext ctx) {
        return Result.FOUND;
    }
}
