package io.tributary.chaos.infra;

import io.tributary.postgres.PgEndpoint;
import io.tributary.testing.net.TcpProxy;
import java.util.Map;
import java.util.stream.Collectors;

/** Postgres endpoints and the proxies in front of them. */
final class Endpoints {

    private Endpoints() {
    }

    /** A proxy to {@code endpoint}'s server. */
    static TcpProxy proxyTo(PgEndpoint endpoint) {
        return TcpProxy.start(endpoint.host(), endpoint.port());
    }

    /** {@code endpoint} reached through {@code proxy}: same database, user and URL parameters. */
    static PgEndpoint through(PgEndpoint endpoint, TcpProxy proxy) {
        Map<String, String> parameters = endpoint.parameters();
        String query = parameters.isEmpty() ? "" : parameters.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("&", "?", ""));
        return PgEndpoint.of("jdbc:postgresql://" + proxy.host() + ":" + proxy.port() + "/" + endpoint.database()
            + query, endpoint.user(), endpoint.password());
    }
}
