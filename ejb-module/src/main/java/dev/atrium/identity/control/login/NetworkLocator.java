package dev.atrium.identity.control.login;

import java.util.Optional;

/**
 * Where a client address is, as coarse as a location-change alert needs: two logins of one user from different
 * answers within a short time raise an alert. {@link PrefixNetworkLocator} answers the network prefix (no geo
 * database can be shipped here); a GeoIP adapter can replace it as a CDI alternative answering a country or city.
 */
public interface NetworkLocator {

    /** The location of this address; empty when it is not an IP address literal. */
    Optional<String> locate(String address);
}
