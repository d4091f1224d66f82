package io.tributary.bench.probe;

import java.lang.management.ManagementFactory;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Requests the Kafka broker of this JVM (the bench's embedded broker) has handled, per request type, from its
 * {@code kafka.network:type=RequestMetrics,name=RequestsPerSec} meters over JMX: {@link #counts()} before and after a
 * window, then {@link #since}. A broker in another process, or none, gives empty counts. Thread-safe.
 */
public final class BrokerRequests {

    private static final String METERS = "kafka.network:type=RequestMetrics,name=RequestsPerSec,*";

    private BrokerRequests() {
    }

    /** Requests handled so far per request type ({@code Produce}, {@code Fetch}, ...), summed over versions. */
    public static Map<String, Long> counts() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Map<String, Long> counts = new HashMap<>();
        try {
            for (ObjectName name : server.queryNames(new ObjectName(METERS), null)) {
                String request = name.getKeyProperty("request");
                Object count = server.getAttribute(name, "Count");
                if (request != null && count instanceof Number n) {
                    counts.merge(request, n.longValue(), Long::sum);
                }
            }
        } catch (JMException e) {
            return Map.of();
        }
        return counts;
    }

    /** The requests per type handled between {@code before} and {@code after} (types with none left out). */
    public static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> handled = new HashMap<>();
        after.forEach((type, count) -> {
            long n = count - before.getOrDefault(type, 0L);
            if (n > 0) {
                handled.put(type, n);
            }
        });
        return handled;
    }

    /** {@code "Produce 1.2, Fetch 0.8, ..."}: the {@code top} most frequent types, per 1,000 rows. */
    public static String perThousandRows(Map<String, Long> handled, long rows, int top) {
        return handled.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
            .limit(top)
            .map(e -> String.format(Locale.ROOT, "%s %.2f", e.getKey(), e.getValue() * 1000.0 / Math.max(1, rows)))
            .collect(Collectors.joining(", "));
    }
}
