package org.dpopt.cli;

import java.io.PrintWriter;
import org.dpopt.accounting.AblqStepEvent;
import org.dpopt.accounting.ComposedEvent;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.LaplaceEvent;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.accounting.TruncatedPoissonEvent;
import org.dpopt.audit.OptimizerAudit;
import org.dpopt.optim.core.ReleaseObserver;
import org.ejml.data.DMatrixRMaj;

/**
 * A one-line progress bar on stderr: units done, rate and ETA, redrawn at most ten times a second, shown
 * only when asked for (the CLI shows it on a terminal or with {@code --progress}, never with
 * {@code --quiet}). A small own bar rather than a library: it is forty lines, and it must never write
 * to stdout, which carries the one JSON object.
 *
 * <p>For training it is a {@link ReleaseObserver}: it counts the run's noisy releases against the number
 * the plan's statement makes (public), and only counts — observing cannot change the run.
 */
final class ProgressBar implements OptimizerAudit.Progress, ReleaseObserver {
    private final PrintWriter err;
    private final boolean show;
    private final String unit;
    private long start = System.nanoTime();
    private long lastDraw;
    private boolean drawn;
    private long releases;
    private long planned;

    ProgressBar(PrintWriter err, boolean show, String unit) {
        this.err = err;
        this.show = show;
        this.unit = unit;
    }

    /** Whether to show the bar: --progress forces it, --quiet hides it, else only on a terminal. */
    static boolean wanted(boolean progress, boolean quiet) {
        return !quiet && (progress || System.console() != null);
    }

    @Override
    public void update(long done, long total) {
        if (!show) {
            return;
        }
        long now = System.nanoTime();
        if (done < total && now - lastDraw < 100_000_000L) {
            return;
        }
        lastDraw = now;
        err.print("\r" + line(Math.min(done, total), total, (now - start) / 1e9, unit));
        err.flush();
        drawn = true;
    }

    static String line(long done, long total, double seconds, String unit) {
        int width = 30;
        int filled = (int) (width * done / Math.max(1, total));
        double rate = seconds > 0 ? done / seconds : 0;
        double eta = rate > 0 ? (total - done) / rate : Double.NaN;
        return "[" + "=".repeat(filled) + " ".repeat(width - filled) + "] " + done + "/" + total + " " + unit + "  "
                + String.format("%.0f %s/s  ETA %s", rate, unit, Double.isNaN(eta) ? "?" : String.format("%.0fs", eta));
    }

    /** Sets the number of releases a training run will make (from its plan's statement). */
    void plan(DpEvent statement) {
        planned = releases(statement);
        start = System.nanoTime();
    }

    @Override
    public void gaussian(DMatrixRMaj value, double sensitivity, DpEvent event) {
        update(++releases, planned);
    }

    @Override
    public void selection(int index, DpEvent event) {
        update(++releases, planned);
    }

    /** The number of noisy releases an event describes. */
    static long releases(DpEvent e) {
        if (e instanceof SelfComposedEvent s) {
            return s.count() * releases(s.event());
        } else if (e instanceof ComposedEvent c) {
            return c.events().stream().mapToLong(ProgressBar::releases).sum();
        } else if (e instanceof ParallelComposedEvent p) {
            return p.events().stream().mapToLong(ProgressBar::releases).sum();
        } else if (e instanceof PoissonSampledEvent p) {
            return releases(p.event());
        } else if (e instanceof TruncatedPoissonEvent t) {
            return releases(t.event());
        }
        return e instanceof GaussianEvent || e instanceof LaplaceEvent || e instanceof EpsilonDeltaEvent
                || e instanceof AblqStepEvent ? 1 : 0;
    }

    /** Draws a count whose total is not known in advance ("12 accountant evaluations, 3.1 s"). */
    void count(long done) {
        if (!show) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastDraw < 100_000_000L) {
            return;
        }
        lastDraw = now;
        err.print("\r" + done + " " + unit + ", " + String.format("%.1f s", (now - start) / 1e9));
        err.flush();
        drawn = true;
    }

    void finish() {
        if (drawn) {
            err.println();
            err.flush();
        }
    }
}
