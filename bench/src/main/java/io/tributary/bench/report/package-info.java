/**
 * Charts of a bench run's results: a parser of the results markdown table the bench writes
 * ({@link io.tributary.bench.report.ResultsMarkdown}), a dependency-free SVG writer of horizontal bar charts
 * ({@link io.tributary.bench.report.SvgBarChart}), the two charts drawn from a table
 * ({@link io.tributary.bench.report.BenchCharts}) and a main that renders them from an existing results file
 * ({@link io.tributary.bench.report.RenderCharts}).
 */
package io.tributary.bench.report;
