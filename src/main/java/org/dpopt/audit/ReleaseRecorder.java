package org.dpopt.audit;

import java.util.Arrays;
import org.dpopt.accounting.AblqStepEvent;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.TruncatedPoissonEvent;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.optim.core.ReleaseObserver;
import org.ejml.data.DMatrixRMaj;

/**
 * A {@link ReleaseObserver} that keeps, for each Gaussian release, its projections on the k canary
 * directions together with the noise scale, sensitivity and sampling rate its event records and the
 * part of a parallel composition it belongs to, and the index of each report-noisy-max selection.
 * Reset between runs; used on one thread.
 */
final class ReleaseRecorder implements ReleaseObserver {
    private final DMatrixRMaj directions;
    private final int k;
    private double[] proj;
    private double[] sigma = new double[64];
    private double[] sens = new double[64];
    private double[] rate = new double[64];
    private int[] part = new int[64];
    private int count;
    private int currentPart = -1;
    private int[] sel = new int[64];
    private int selCount;

    /** @param directions the unit vectors u_j as columns, d×k (not modified) */
    ReleaseRecorder(DMatrixRMaj directions) {
        this.directions = directions.copy();
        this.k = directions.numCols;
        this.proj = new double[64 * k];
    }

    void reset() {
        count = 0;
        selCount = 0;
        currentPart = -1;
    }

    @Override
    public void part(int index) {
        currentPart = index;
    }

    @Override
    public void gaussian(DMatrixRMaj value, double sensitivity, DpEvent event) {
        if (count == sigma.length) {
            int n = 2 * count;
            proj = Arrays.copyOf(proj, n * k);
            sigma = Arrays.copyOf(sigma, n);
            sens = Arrays.copyOf(sens, n);
            rate = Arrays.copyOf(rate, n);
            part = Arrays.copyOf(part, n);
        }
        int d = Math.min(directions.numRows, value.getNumElements());
        for (int c = 0; c < k; c++) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                s += value.data[j] * directions.data[j * k + c];
            }
            proj[count * k + c] = s;
        }
        sigma[count] = PrivateRun.noiseMultiplierOf(event) * sensitivity;
        sens[count] = sensitivity;
        rate[count] = samplingRate(event);
        part[count] = currentPart;
        count++;
    }

    private static double samplingRate(DpEvent e) {
        if (e instanceof PoissonSampledEvent p) {
            return p.samplingProbability();
        }
        if (e instanceof TruncatedPoissonEvent t) {
            return t.samplingProbability();
        }
        if (e instanceof AblqStepEvent) {
            return Double.NaN; // fixed-partition batches: not an independent inclusion
        }
        return 1;
    }

    @Override
    public void selection(int index, DpEvent event) {
        if (selCount == sel.length) {
            sel = Arrays.copyOf(sel, 2 * selCount);
        }
        sel[selCount++] = index;
    }

    /** The view of canary c of the run just made. */
    RunView view(DMatrixRMaj solution, int c) {
        double[] p = new double[count];
        for (int t = 0; t < count; t++) {
            p[t] = proj[t * k + c];
        }
        DMatrixRMaj u = new DMatrixRMaj(directions.numRows, 1);
        for (int i = 0; i < directions.numRows; i++) {
            u.data[i] = directions.data[i * k + c];
        }
        return new RunView(p, Arrays.copyOf(sigma, count), Arrays.copyOf(sens, count), Arrays.copyOf(rate, count),
                Arrays.copyOf(part, count), Arrays.copyOf(sel, selCount), solution, u);
    }
}
