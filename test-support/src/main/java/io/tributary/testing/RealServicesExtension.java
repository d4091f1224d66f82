package io.tributary.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Resolves {@link TestServices} parameters. The {@link ServiceStack} behind them is started on first use and
 * closed when the whole test run ends (it lives in the root context's store).
 */
public final class RealServicesExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(RealServicesExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestServices.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ServiceStack stack = context.getRoot().getStore(NAMESPACE)
            .getOrComputeIfAbsent(ServiceStack.class, type -> ServiceStack.start(System.getenv()), ServiceStack.class);
        return new TestServices(stack, context.getUniqueId());
    }
}
