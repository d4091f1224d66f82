package io.tributary.syncrules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Optional;

/**
 * What parameter queries can see about a connecting client: its verified token claims and the (unverified)
 * parameters it sent.
 *
 * <ul>
 *   <li>{@code request.user_id()} and {@code token_parameters.user_id}: the {@code sub} claim;</li>
 *   <li>{@code request.jwt() ->> 'claim'}: a top-level claim of the token;</li>
 *   <li>{@code token_parameters.x}: {@code x} inside the token's {@code parameters} claim;</li>
 *   <li>{@code request.parameters() ->> 'x'}: a client parameter.</li>
 * </ul>
 *
 * @param claims           the token payload (a JSON object; copied, so later changes to the argument are not seen)
 * @param clientParameters the client parameters (a JSON object; copied)
 */
public record RequestContext(ObjectNode claims, ObjectNode clientParameters) {

    public RequestContext {
        claims = Objects.requireNonNull(claims, "claims").deepCopy();
        clientParameters = Objects.requireNonNull(clientParameters, "clientParameters").deepCopy();
    }

    /** A client whose token holds only {@code sub = userId}, without client parameters. */
    public static RequestContext forUser(String userId) {
        ObjectNode claims = JsonNodeFactory.instance.objectNode();
        claims.put("sub", Objects.requireNonNull(userId, "userId"));
        return new RequestContext(claims, JsonNodeFactory.instance.objectNode());
    }

    /** A client with the given token claims and no client parameters. */
    public static RequestContext withClaims(ObjectNode claims) {
        return new RequestContext(claims, JsonNodeFactory.instance.objectNode());
    }

    /** The token subject ({@code sub} claim) when it is a string. */
    public Optional<String> userId() {
        JsonNode sub = claims.path("sub");
        return sub.isTextual() ? Optional.of(sub.textValue()) : Optional.empty();
    }

    /** Returns {@code claims()} and {@code clientParameters()} as copies: the context itself stays immutable. */
    @Override
    public ObjectNode claims() {
        return claims.deepCopy();
    }

    @Override
    public ObjectNode clientParameters() {
        return clientParameters.deepCopy();
    }

    /** A top-level claim, or a {@code MissingNode} when absent; callers must not modify it. */
    public JsonNode claim(String name) {
        return claims.path(name);
    }

    /** A client parameter, or a {@code MissingNode} when absent; callers must not modify it. */
    public JsonNode clientParameter(String name) {
        return clientParameters.path(name);
    }
}
