/**
 * Charts of a bench run's results: a parser of the results markdown table the bench writes
 * ({@link io.tributary.bench.report.ResultsMarkdown}), a dependency-free SVG writer of horizontal bar charts
 * ({@link io.tributary.bench.report.SvgBarChart}), the three charts drawn from a table, rows/s, CPU per row and CPU
 * per row by role ({@link io.tributary.bench.report.BenchCharts}), and a main that renders them from an existing
 * results file ({@link io.tributary.bench.report.RenderCharts}).
 */
package io.tributary.bench.report;
