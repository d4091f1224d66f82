package io.tributary.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class SvgBarChartTest {

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> elements(Document doc, String name) {
        NodeList nodes = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", name);
        return java.util.stream.IntStream.range(0, nodes.getLength()).mapToObj(i -> (Element) nodes.item(i)).toList();
    }

    /** The bars' segments: every rect but the background and the legend's squares. */
    private static List<Element> bars(Document doc) {
        return elements(doc, "rect").stream().filter(r -> !r.getAttribute("y").isEmpty()
            && !r.getAttribute("height").equals("12")).toList();
    }

    @Test
    void barWidthsAreProportionalToTheirValuesOnAnAxisFromZero() throws Exception {
        SvgBarChart chart = new SvgBarChart("rates", "rows/s", List.of("rows/s"), List.of(
            new SvgBarChart.Bar("B1", "keyset", List.of(20_000.0), ""),
            new SvgBarChart.Bar("A", "pipeline", List.of(5_000.0), "")));

        Document doc = parse(chart.svg());

        List<Element> bars = bars(doc);
        assertEquals(2, bars.size());
        double first = Double.parseDouble(bars.get(0).getAttribute("width"));
        double second = Double.parseDouble(bars.get(1).getAttribute("width"));
        assertEquals(4.0, first / second, 1e-6);
        assertEquals(bars.get(0).getAttribute("x"), bars.get(1).getAttribute("x"));
        String text = doc.getDocumentElement().getTextContent();
        assertTrue(text.contains("20,000"), text);
        assertTrue(text.contains("5,000"), text);
        assertTrue(text.contains("rows/s"), text);
    }

    @Test
    void stackedSegmentsFollowEachOtherAndTheLegendNamesEverySeries() throws Exception {
        SvgBarChart chart = new SvgBarChart("cpu", "us/row", List.of("JVM", "JIT", "PG"), List.of(
            new SvgBarChart.Bar("A", "w=2", List.of(119.0, 59.0, 54.0), "-")));

        Document doc = parse(chart.svg());

        List<Element> segments = bars(doc);
        assertEquals(3, segments.size());
        for (int i = 1; i < segments.size(); i++) {
            double end = Double.parseDouble(segments.get(i - 1).getAttribute("x"))
                + Double.parseDouble(segments.get(i - 1).getAttribute("width"));
            assertEquals(end, Double.parseDouble(segments.get(i).getAttribute("x")), 0.11);
            assertFalse(segments.get(i).getAttribute("fill").equals(segments.get(i - 1).getAttribute("fill")));
        }
        String text = doc.getDocumentElement().getTextContent();
        assertTrue(text.contains("JVM") && text.contains("JIT") && text.contains("PG"), text);
        assertTrue(text.contains("232"), "the bar's total: " + text);
    }

    @Test
    void aLongLegendTakesMoreLinesAndTheBarsMoveDown() throws Exception {
        List<String> series = List.of("ingest/planner", "snapshot-workers", "stream-workers", "storage-writer",
            "Kafka broker", "bench probes", "other", "GC and JVM threads", "source Postgres", "storage Postgres",
            "api");
        List<Double> values = series.stream().map(s -> 1.0).toList();
        SvgBarChart chart = new SvgBarChart("roles", "us/row", series, List.of(
            new SvgBarChart.Bar("A", "", values, "-")));
        SvgBarChart oneLine = new SvgBarChart("cpu", "us/row", List.of("JVM", "JIT"), List.of(
            new SvgBarChart.Bar("A", "", List.of(1.0, 1.0), "-")));

        Document doc = parse(chart.svg());

        List<Element> squares = elements(doc, "rect").stream().filter(r -> r.getAttribute("height").equals("12"))
            .toList();
        assertEquals(series.size(), squares.size());
        List<String> lines = squares.stream().map(r -> r.getAttribute("y")).distinct().toList();
        assertTrue(lines.size() > 1, "legend lines: " + lines);
        List<Element> texts = elements(doc, "text");
        for (String name : series) {
            Element text = texts.stream().filter(t -> t.getTextContent().equals(name)).findFirst().orElseThrow();
            assertTrue(Integer.parseInt(text.getAttribute("x")) + 7 * name.length() <= 960, name);
        }
        int lastLegend = lines.stream().mapToInt(Integer::parseInt).max().orElseThrow();
        List<Element> segments = bars(doc);
        assertEquals(series.size(), segments.size());
        assertTrue(Integer.parseInt(segments.get(0).getAttribute("y")) > lastLegend + 12);
        assertEquals(Integer.parseInt(bars(parse(oneLine.svg())).get(0).getAttribute("y"))
            + 18 * (lines.size() - 1), Integer.parseInt(segments.get(0).getAttribute("y")));
    }

    @Test
    void aBarWithoutValuesShowsItsMissingTextAndTextIsEscaped() throws Exception {
        SvgBarChart chart = new SvgBarChart("a <b> & \"c\"", "x", List.of("x"), List.of(
            new SvgBarChart.Bar("A & B", "w<2>", List.of(), "TIMEOUT")));

        String svg = chart.svg();
        Document doc = parse(svg);

        assertTrue(bars(doc).isEmpty());
        String text = doc.getDocumentElement().getTextContent();
        assertTrue(text.contains("TIMEOUT"), text);
        assertTrue(text.contains("a <b> & \"c\""), text);
        assertTrue(svg.contains("A &amp; B"), svg);
    }

    @Test
    void longDetailsAreCutInTheirMiddleSoTheirEndsStayApart() {
        String common = "fresh group replaying bench_a_w2.rows, writer in its own JVM, 1 loop, batches of 5,000";
        String a = SvgBarChart.shorten(common);
        String b = SvgBarChart.shorten(common + ", writer of writer-e7d7e6e.jar");
        assertEquals(72, a.length());
        assertEquals(72, b.length());
        assertTrue(a.startsWith("fresh group") && a.endsWith("batches of 5,000"), a);
        assertTrue(b.endsWith("writer-e7d7e6e.jar"), b);
        assertEquals("short", SvgBarChart.shorten("short"));
    }

    @Test
    void sameChartSameBytes() {
        SvgBarChart chart = new SvgBarChart("t", "u", List.of("x"),
            List.of(new SvgBarChart.Bar("A", "", List.of(1.5), "")));
        assertEquals(chart.svg(), new SvgBarChart("t", "u", List.of("x"),
            List.of(new SvgBarChart.Bar("A", "", List.of(1.5), ""))).svg());
    }

    @Test
    void axisEndsAtARoundValueAtOrAboveTheLargestBar() {
        assertEquals(1.0, SvgBarChart.niceMax(0));
        assertEquals(10_000.0, SvgBarChart.niceMax(9_199));
        assertEquals(250_000.0, SvgBarChart.niceMax(210_000));
        assertEquals(500.0, SvgBarChart.niceMax(400));
    }

    @Test
    void rejectsNegativeValuesAndBarsOfTheWrongWidth() {
        assertThrows(IllegalArgumentException.class, () -> new SvgBarChart.Bar("A", "", List.of(-1.0), ""));
        assertThrows(IllegalArgumentException.class, () -> new SvgBarChart("t", "u", List.of("x", "y"),
            List.of(new SvgBarChart.Bar("A", "", List.of(1.0), ""))));
        List<String> tooMany = java.util.stream.IntStream.rangeClosed(0, SvgBarChart.MAX_SERIES)
            .mapToObj(i -> "s" + i).toList();
        assertThrows(IllegalArgumentException.class, () -> new SvgBarChart("t", "u", tooMany, List.of()));
    }
}
