package io.tributary.launcher.deploy;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Just enough of PromQL to check dashboards and autoscaler queries: the metric names an expression selects and
 * the values its label matchers compare with.
 */
public final class PromQl {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern GROUPING = Pattern.compile(
        "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without",
        "on", "ignoring", "group_left", "group_right", "inf", "nan");

    private PromQl() {
    }

    /** A label matcher: {@code label op "value"}, the value unescaped. */
    public record LabelMatcher(String label, String operator, String value) {
    }

    /** The metric names selected by {@code expression} (identifiers that are neither functions nor keywords). */
    public static Set<String> metricNames(String expression) {
        String text = STRING.matcher(expression).replaceAll("\"\"");
        text = text.replaceAll("\\{[^}]*}", " ").replaceAll("\\[[^]]*]", " ");
        text = GROUPING.matcher(text).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher matcher = IDENTIFIER.matcher(text);
        while (matcher.find()) {
            String name = matcher.group();
            boolean variable = matcher.start() > 0 && text.charAt(matcher.start() - 1) == '$';
            boolean function = text.substring(matcher.end()).stripLeading().startsWith("(");
            if (!variable && !function && !KEYWORDS.contains(name.toLowerCase(Locale.ROOT))) {
                names.add(name);
            }
        }
        return names;
    }

    /** Every matcher on {@code label} in {@code expression}. */
    public static List<LabelMatcher> matchers(String expression, String label) {
        Matcher matcher = Pattern.compile("\\b" + Pattern.quote(label) + "\\s*(=~|!~|!=|=)\\s*(" + STRING.pattern()
            + ")").matcher(expression);
        List<LabelMatcher> matchers = new ArrayList<>();
        while (matcher.find()) {
            matchers.add(new LabelMatcher(label, matcher.group(1), unquote(matcher.group(2))));
        }
        return matchers;
    }

    private static String unquote(String quoted) {
        String body = quoted.substring(1, quoted.length() - 1);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\\' && i + 1 < body.length()) {
                out.append(body.charAt(++i));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
