package org.dpopt.accounting.pld;

/**
 * The forward step of the tilted FFT: each factor's tilted array x_i = p_i e^{λl}/M̃_i, folded onto a
 * circle of N points, normalized so that Σ x_i ≈ 1 and transformed; with the bounds the rest of the
 * evaluation charges — the relative rounding ξ of the tilted entries, a bound D_i on the ℓ2 error of
 * each forward transform (Higham's normwise FFT bound), S_i ≥ Σ x_i ≥ every |X_k|, and the ℓ1 mass of
 * entries flushed to 0 below 1e-290.
 */
final class TiltedSpectra {

    /** Packed real spectra (JTransforms' layout), one per factor. */
    final double[][] spectra;
    /** Bound on the ℓ2 norm of each forward transform's error. */
    final double[] dNorm;
    /** Bound on Σ x (≥ every |X_k|). */
    final double[] sums;
    double xi;
    double logScale;
    /** Σ T_i·(ℓ1 mass of entries flushed to 0), added to e2 with the growth factor. */
    double dropped;
    /** Σ T_i·offset_i mod N: where the window's first grid index sits on the circle. */
    long offsetMod;

    private TiltedSpectra(int m) {
        spectra = new double[m][];
        dNorm = new double[m];
        sums = new double[m];
    }

    /** One factor's tilted array before normalization, its largest relative rounding and flushed mass. */
    private record Tilted(double[] x, double maxRel, double drop) {
    }

    static TiltedSpectra of(Composition c, double lambda, int n, double beta) {
        TiltedSpectra s = new TiltedSpectra(c.pmfs.length);
        for (int i = 0; i < c.pmfs.length; i++) {
            s.add(i, c.pmfs[i], c.counts[i], lambda, c.h, n, beta);
        }
        return s;
    }

    private static Tilted tilt(Pmf p, double lambda, double h, double logM, int n) {
        double[] x = new double[n];
        double maxRel = 0;
        double drop = 0;
        for (int j = 0; j < p.probs.length; j++) {
            double pj = p.probs[j];
            if (!(pj > 0)) {
                continue;
            }
            double lossTerm = lambda * ((p.offset + j) * h);
            double e = lossTerm - logM;
            double v;
            double rel;
            if (e > 700) {
                double lp = Math.log(pj);
                v = Math.exp(lp + e);
                rel = Pmf.U * (3 * Math.abs(lossTerm) + 2 * Math.abs(logM) + 2 * Math.abs(lp) + 4);
            } else {
                v = pj * Math.exp(e);
                rel = Pmf.U * (3 * Math.abs(lossTerm) + 2 * Math.abs(logM) + 4);
            }
            if (!(v >= 1e-290) || Double.isInfinite(v)) {
                if (Double.isInfinite(v)) {
                    throw new IllegalStateException("tilted PLD entry overflowed (internal error)");
                }
                drop += 1e-290;
                continue;
            }
            maxRel = Math.max(maxRel, rel);
            x[(int) Math.floorMod(j, (long) n)] += v;
        }
        return new Tilted(x, maxRel, drop);
    }

    private void add(int i, Pmf p, long count, double lambda, double h, int n, double beta) {
        double logM = p.logMgf(lambda, h, 0);
        Tilted t = tilt(p, lambda, h, logM, n);
        double[] x = t.x();
        // normalize so that Σx ≈ 1 (folds the MGF's own rounding into logM); compensated sum
        double s = neumaierSum(x);
        if (!(s > 0)) {
            throw new IllegalStateException("tilted PLD has no mass (internal error)");
        }
        for (int k = 0; k < n; k++) {
            x[k] /= s;
        }
        double drop = t.drop() / s;
        logM += Math.log(s);
        long wraps = (p.probs.length + n - 1) / n;
        double relI = t.maxRel() + Pmf.U * (wraps + 3) + 2 * Pmf.U * (Math.abs(logM) + 1);
        xi += count * relI;
        logScale += count * logM;
        double norm2 = 0;
        double sum = 0;
        for (double v : x) {
            norm2 += v * v;
            sum += v;
        }
        sums[i] = sum * (1 + 4 * Pmf.U * (Math.log(n) + 2)) + 1e-300;
        dropped += count * drop;
        Fft.plan(n).realForward(x);
        dNorm[i] = beta * Math.sqrt(n) * Math.sqrt(norm2) * (1 + 1e-6);
        spectra[i] = x;
        offsetMod = Math.floorMod(offsetMod + Math.floorMod(count, (long) n) * Math.floorMod(p.offset, (long) n),
                (long) n);
    }

    /** Σ v with Neumaier's compensation (Neumaier, ZAMM 54, 1974). */
    static double neumaierSum(double[] v) {
        double s = 0;
        double c = 0;
        for (double x : v) {
            double t = s + x;
            if (Math.abs(s) >= Math.abs(x)) {
                c += (s - t) + x;
            } else {
                c += (x - t) + s;
            }
            s = t;
        }
        return s + c;
    }
}
