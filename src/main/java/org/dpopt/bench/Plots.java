package org.dpopt.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG line plots via XChart (headless). */
public final class Plots {
    private Plots() {
    }

    /** One named series, with error bars (half-lengths, one per point) or none ({@code err} null). */
    public record Series(String name, double[] x, double[] y, double[] err) {
        /** A series without error bars. */
        public Series(String name, double[] x, double[] y) {
            this(name, x, y, null);
        }
    }

    /**
     * Writes a line plot to {@code file} (PNG).
     *
     * @param logX log-scale x axis
     * @param logY log-scale y axis
     */
    public static void line(Path file, String title, String xLabel, String yLabel, List<Series> series,
            boolean logX, boolean logY) {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(800).height(560).title(title).xAxisTitle(xLabel)
                .yAxisTitle(yLabel).build();
        chart.getStyler().setXAxisLogarithmic(logX);
        chart.getStyler().setYAxisLogarithmic(logY);
        chart.getStyler().setLegendVisible(true);
        for (Series s : series) {
            var added = s.err() == null ? chart.addSeries(s.name(), s.x(), s.y())
                    : chart.addSeries(s.name(), s.x(), s.y(), s.err());
            added.setMarker(SeriesMarkers.CIRCLE);
        }
        try {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
