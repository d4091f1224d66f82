package io.tributary.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A horizontal bar chart as a standalone SVG document, written without any library: one bar per entry, each bar one
 * or more stacked segments, a label and a smaller second line on its left (cut in its middle when too long), its
 * total printed at its end, a linear axis from 0 with gridlines, and a legend when there is more than one series
 * (on as many lines as it needs). Colours come from a fixed palette per series, so a chart has at most
 * 12 series. Values must be finite and >= 0; a bar with no segment (no value) shows its
 * {@code missing} text instead. Instances are immutable values; {@link #svg()} is deterministic (same chart, same
 * bytes).
 *
 * @param title the heading drawn above the chart
 * @param unit what the axis counts, e.g. {@code rows/s}
 * @param series the names of the stacked segments, in stacking order (one name: a plain bar chart)
 * @param bars the bars, top to bottom
 */
public record SvgBarChart(String title, String unit, List<String> series, List<Bar> bars) {

    /** The most series a chart can have: one colour each. */
    static final int MAX_SERIES = 12;
    private static final String[] PALETTE = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
        "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#2f4b7c", "#a0cbe8"};
    private static final int WIDTH = 960;
    private static final int LABEL_WIDTH = 420;
    private static final int PLOT_WIDTH = 430;
    private static final int TOP = 64;
    private static final int LEGEND_PITCH = 18;
    private static final int BAR_PITCH = 38;
    private static final int BAR_HEIGHT = 20;
    private static final int TICKS = 5;
    private static final int DETAIL_CHARS = 72;

    /**
     * One bar: {@code label} (first line), {@code detail} (second line, cut in its middle to fit), its segment
     * values in the order of the chart's series (empty: no value, {@code missing} is shown).
     */
    public record Bar(String label, String detail, List<Double> values, String missing) {
        public Bar {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(detail, "detail");
            Objects.requireNonNull(missing, "missing");
            values = List.copyOf(values);
            for (double v : values) {
                if (!Double.isFinite(v) || v < 0) {
                    throw new IllegalArgumentException("bar values must be finite and >= 0: " + values);
                }
            }
        }

        /** The sum of the bar's segments. */
        public double total() {
            return values.stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    public SvgBarChart {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(unit, "unit");
        series = List.copyOf(series);
        bars = List.copyOf(bars);
        if (series.isEmpty() || series.size() > MAX_SERIES) {
            throw new IllegalArgumentException("1 to " + MAX_SERIES + " series, not " + series.size());
        }
        for (Bar bar : bars) {
            if (!bar.values().isEmpty() && bar.values().size() != series.size()) {
                throw new IllegalArgumentException("bar " + bar.label() + " has " + bar.values().size()
                    + " values for " + series.size() + " series");
            }
        }
    }

    /** The chart as an SVG document (UTF-8 text, ending with a newline). */
    public String svg() {
        double max = niceMax(bars.stream().mapToDouble(Bar::total).max().orElse(0));
        int plotLeft = LABEL_WIDTH;
        List<int[]> legend = legendPlaces();
        int top = TOP + LEGEND_PITCH * (legend.isEmpty() ? 0 : legend.get(legend.size() - 1)[1]);
        int height = top + bars.size() * BAR_PITCH + 44;
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
            + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n", WIDTH, height, WIDTH, height));
        out.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", WIDTH, height));
        out.append(String.format(Locale.ROOT, "<text x=\"12\" y=\"24\" font-size=\"16\" font-weight=\"bold\">%s"
            + "</text>\n", escape(title)));
        legend(out, legend);
        int axisY = top + bars.size() * BAR_PITCH;
        for (int i = 0; i <= TICKS; i++) {
            double value = max * i / TICKS;
            double x = plotLeft + PLOT_WIDTH * (double) i / TICKS;
            out.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\""
                + " stroke=\"#dddddd\"/>\n", x, top - 6, x, axisY));
            out.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">%s"
                + "</text>\n", x, axisY + 16, format(value)));
        }
        out.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">%s"
            + "</text>\n", plotLeft + PLOT_WIDTH / 2.0, axisY + 34, escape(unit)));
        for (int b = 0; b < bars.size(); b++) {
            bar(out, bars.get(b), top + b * BAR_PITCH, plotLeft, max);
        }
        out.append("</svg>\n");
        return out.toString();
    }

    /**
     * Where each series' legend entry goes, {@code {x, line}} (line 0 first), an entry starting a new line when it
     * would pass the right edge; none for a single series.
     */
    private List<int[]> legendPlaces() {
        if (series.size() < 2) {
            return List.of();
        }
        List<int[]> places = new ArrayList<>();
        int x = 12;
        int line = 0;
        for (String name : series) {
            int width = 28 + 7 * name.length();
            if (x > 12 && x + width - 12 > WIDTH - 12) {
                x = 12;
                line++;
            }
            places.add(new int[] {x, line});
            x += width;
        }
        return places;
    }

    private void legend(StringBuilder out, List<int[]> places) {
        for (int s = 0; s < places.size(); s++) {
            int x = places.get(s)[0];
            int y = 36 + LEGEND_PITCH * places.get(s)[1];
            out.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>\n",
                x, y, PALETTE[s]));
            out.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>\n", x + 16, y + 10,
                escape(series.get(s))));
        }
    }

    private void bar(StringBuilder out, Bar bar, int y, int plotLeft, double max) {
        out.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
            plotLeft - 8, y + 9, escape(bar.label())));
        out.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"10\""
            + " fill=\"#777777\">%s</text>\n", plotLeft - 8, y + 22, escape(shorten(bar.detail()))));
        if (bar.values().isEmpty()) {
            out.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#b00020\">%s</text>\n",
                plotLeft + 4, y + 15, escape(bar.missing())));
            return;
        }
        double x = plotLeft;
        for (int s = 0; s < bar.values().size(); s++) {
            double w = max == 0 ? 0 : PLOT_WIDTH * bar.values().get(s) / max;
            out.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
                + "<title>%s: %s</title></rect>\n", x, y + 2, w, BAR_HEIGHT, PALETTE[s], escape(series.get(s)),
                format(bar.values().get(s))));
            x += w;
        }
        out.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%s</text>\n", x + 4, y + 16,
            format(bar.total())));
    }

    /** The smallest of 1, 2, 2.5 or 5 times a power of ten at or above {@code value} (1 for 0). */
    static double niceMax(double value) {
        if (value <= 0) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * power >= value) {
                return step * power;
            }
        }
        return 10 * power;
    }

    /** A value as the results tables print it: thousands separated, no decimals at or above 10. */
    static String format(double value) {
        if (value >= 10 || value == Math.rint(value)) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return String.format(Locale.ROOT, "%.1f", value);
    }

    /** {@code text} cut in its middle to fit, so that rows differing only at their end stay apart. */
    static String shorten(String text) {
        if (text.length() <= DETAIL_CHARS) {
            return text;
        }
        int head = (DETAIL_CHARS - 3) * 2 / 5;
        return text.substring(0, head) + "..." + text.substring(text.length() - (DETAIL_CHARS - 3 - head));
    }

    /** {@code text} with the five XML special characters escaped. */
    static String escape(String text) {
        StringBuilder b = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
