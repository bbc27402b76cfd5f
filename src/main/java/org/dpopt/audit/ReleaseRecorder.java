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
 * A {@link ReleaseObserver} that keeps, for each Gaussian release, its projection on the canary
 * direction u together with the noise scale, sensitivity and sampling rate its event records, and the
 * index of each report-noisy-max selection. Reset between runs; used on one thread.
 */
final class ReleaseRecorder implements ReleaseObserver {
    private final double[] direction;
    private double[] proj = new double[64];
    private double[] sigma = new double[64];
    private double[] sens = new double[64];
    private double[] rate = new double[64];
    private int count;
    private int[] sel = new int[64];
    private int selCount;

    /** @param direction the unit vector u (not modified) */
    ReleaseRecorder(DMatrixRMaj direction) {
        this.direction = direction.data.clone();
    }

    void reset() {
        count = 0;
        selCount = 0;
    }

    @Override
    public void gaussian(DMatrixRMaj value, double sensitivity, DpEvent event) {
        if (count == proj.length) {
            int n = 2 * count;
            proj = Arrays.copyOf(proj, n);
            sigma = Arrays.copyOf(sigma, n);
            sens = Arrays.copyOf(sens, n);
            rate = Arrays.copyOf(rate, n);
        }
        double s = 0;
        int d = Math.min(direction.length, value.getNumElements());
        for (int j = 0; j < d; j++) {
            s += value.data[j] * direction[j];
        }
        proj[count] = s;
        sigma[count] = PrivateRun.noiseMultiplierOf(event) * sensitivity;
        sens[count] = sensitivity;
        rate[count] = samplingRate(event);
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

    RunView view(DMatrixRMaj solution) {
        return new RunView(Arrays.copyOf(proj, count), Arrays.copyOf(sigma, count), Arrays.copyOf(sens, count),
                Arrays.copyOf(rate, count), Arrays.copyOf(sel, selCount), solution);
    }
}
