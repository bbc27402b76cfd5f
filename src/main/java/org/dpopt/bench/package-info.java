/**
 * Benchmark suites of {@code dpopt bench --suite NAME}: each writes CSV files and PNG plots (XChart) and
 * returns a summary; {@link org.dpopt.bench.BenchSuites} lists them. A pure client of the public API.
 * Timings are ratios against a baseline measured in the same run; results are recorded in
 * {@code validation/}.
 */
package org.dpopt.bench;
