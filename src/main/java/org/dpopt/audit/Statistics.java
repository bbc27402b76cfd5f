package org.dpopt.audit;

import java.util.function.ToDoubleFunction;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.ejml.data.DMatrixRMaj;

/**
 * The audit statistics. White-box ones read the noisy releases projected on the canary direction u
 * ({@link RunView}); black-box ones read only the released model.
 *
 * <p><b>Log-likelihood ratio for Poisson-sampled Gaussian releases.</b> With a worst-case gradient
 * canary (its clipped gradient is c·u, and no other record has a component along u), the projection
 * y_t = ⟨v_t, u⟩ of release t is N(0, σ_t²) without the canary and the mixture
 * (1 − q_t)N(0, σ_t²) + q_t N(c, σ_t²) with it, independently over t given the past (the other
 * records' contributions are orthogonal to u). The Neyman–Pearson optimal statistic for this pair is
 * the sum of per-release log-likelihood ratios
 * <pre>
 *   Λ = Σ_t log(1 − q_t + q_t exp((c y_t − c²/2)/σ_t²)),
 * </pre>
 * which for q_t = 1 is, up to constants, the noise-weighted sum of projections. Because this pair is
 * the dominating pair of the accountant's Poisson-subsampled Gaussian, thresholding Λ traces the
 * ledger's own trade-off curve: the audit can be tight (Nasr, Song, Thakurta, Papernot, Carlini,
 * "Adversary Instantiation: Lower Bounds for Differentially Private Machine Learning", IEEE S&amp;P
 * 2021, arXiv:2101.04535, for gradient canaries and intermediate releases; Nasr et al. 2023 for the
 * log-likelihood statistic).
 */
public final class Statistics {
    private Statistics() {
    }

    /** A statistic from its name, kind and score function. */
    public static AuditStatistic of(String name, boolean whiteBox, ToDoubleFunction<RunView> score) {
        Checks.notNull("name", name);
        Checks.notNull("score", score);
        return new Scored(name, whiteBox, score, Double.NaN);
    }

    /**
     * Σ_t log(1 − q_t + q_t exp((c_t y_t − c_t²/2)/σ_t²)) with c_t = shift·Δ_t (the canary's
     * contribution along u, as a multiple of the recorded sensitivity) and q_t, σ_t as recorded.
     */
    public static AuditStatistic poissonGaussianLlr(double shift) {
        Checks.positive("shift", shift);
        return of("llr-poisson-gaussian", true, r -> {
            double s = 0;
            for (int t = 0; t < r.releases(); t++) {
                double c = shift * r.sensitivities()[t];
                double sig2 = r.noiseScales()[t] * r.noiseScales()[t];
                double l = (c * r.projections()[t] - 0.5 * c * c) / sig2;
                double q = Double.isNaN(r.samplingRates()[t]) ? 1 : r.samplingRates()[t];
                s += logMix(q, l);
            }
            return s;
        });
    }

    /**
     * White-box, a canary in one part of a parallel composition, the part unknown and uniform (PG mirror
     * descent's independent labels): log Σ_p exp(Λ_p), Λ_p the Poisson-Gaussian log-likelihood ratio of
     * {@link #poissonGaussianLlr} over the releases of part p — the likelihood ratio of the mixture over
     * parts, up to the constant log P.
     */
    public static AuditStatistic partMixtureLlr(double shift) {
        Checks.positive("shift", shift);
        return of("llr-part-mixture", true, r -> {
            java.util.Map<Integer, Double> perPart = new java.util.TreeMap<>();
            for (int t = 0; t < r.releases(); t++) {
                double c = shift * r.sensitivities()[t];
                double sig2 = r.noiseScales()[t] * r.noiseScales()[t];
                double l = (c * r.projections()[t] - 0.5 * c * c) / sig2;
                double q = Double.isNaN(r.samplingRates()[t]) ? 1 : r.samplingRates()[t];
                perPart.merge(r.parts()[t], logMix(q, l), Double::sum);
            }
            double max = Double.NEGATIVE_INFINITY;
            for (double v : perPart.values()) {
                max = Math.max(max, v);
            }
            double sum = 0;
            for (double v : perPart.values()) {
                sum += Math.exp(v - max);
            }
            return max + Math.log(sum);
        });
    }

    /** log(1 − q + q e^l), stably. */
    static double logMix(double q, double l) {
        if (q >= 1) {
            return l;
        }
        if (l > 0) {
            return l + Math.log(q + (1 - q) * Math.exp(-l));
        }
        return Math.log1p(q * Math.expm1(l));
    }

    /**
     * The log-likelihood ratio of the aligned shuffled pair, epoch by epoch. Every other record's clipped
     * gradient is −c·u (c = Δ_t, the recorded sensitivity) and every batch holds exactly {@code batch}
     * records, so after adding the public offset {@code batch}·c every projection ỹ_t is noise except
     * at the one step of each epoch that holds the canary (ỹ = 2c + noise) or, on the other dataset,
     * the null record (ỹ = c + noise). With the step uniform within the epoch, the likelihood ratio of
     * the epoch is Σ_t exp((2cỹ_t − 2c²)/σ_t²) / Σ_t exp((cỹ_t − c²/2)/σ_t²); the epochs of a dynamic
     * shuffle are independent, so their log ratios add (Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha,
     * Zhang, "Scalable DP-SGD: Shuffling vs. Poisson Subsampling", NeurIPS 2024, arXiv:2411.04205, whose
     * lower bound is this pair).
     *
     * @param stepsPerEpoch S, the releases of one epoch (consecutive blocks of S releases)
     * @param batch b, the exact batch size the test assumes
     * @param threshold a test fixed in advance, or NaN to choose it on the selection half
     */
    public static AuditStatistic alignedShuffleLlr(int stepsPerEpoch, int batch, double threshold) {
        Checks.atLeastOne("stepsPerEpoch", stepsPerEpoch);
        Checks.atLeastOne("batch", batch);
        AuditStatistic s = of("llr-aligned-shuffle", true, r -> {
            double total = 0;
            for (int start = 0; start < r.releases(); start += stepsPerEpoch) {
                int end = Math.min(r.releases(), start + stepsPerEpoch);
                double[] with = new double[end - start];
                double[] without = new double[end - start];
                for (int t = start; t < end; t++) {
                    double c = r.sensitivities()[t];
                    double sig2 = r.noiseScales()[t] * r.noiseScales()[t];
                    double y = r.projections()[t] + batch * c;
                    with[t - start] = (2 * c * y - 2 * c * c) / sig2;
                    without[t - start] = (c * y - 0.5 * c * c) / sig2;
                }
                total += logSumExp(with) - logSumExp(without);
            }
            return total;
        });
        return Double.isNaN(threshold) ? s : fixed(s, threshold);
    }

    private static double logSumExp(double[] v) {
        double max = Double.NEGATIVE_INFINITY;
        for (double x : v) {
            max = Math.max(max, x);
        }
        double sum = 0;
        for (double x : v) {
            sum += Math.exp(x - max);
        }
        return max + Math.log(sum);
    }

    /** {@link #of(String, boolean, ToDoubleFunction)} with a test fixed in advance. */
    static AuditStatistic fixed(AuditStatistic s, double threshold) {
        Checks.finite("threshold", threshold);
        return new Scored(s.name(), s.whiteBox(), s::score, threshold);
    }

    /** A statistic given by its parts (the threshold NaN when it is chosen on the selection half). */
    private record Scored(String name, boolean whiteBox, ToDoubleFunction<RunView> scorer, double fixedThreshold)
            implements AuditStatistic {
        @Override
        public double score(RunView run) {
            return scorer.applyAsDouble(run);
        }
    }

    /**
     * Black-box: sign·⟨w, u_j⟩ for the released model w and the direction u_j of the trial's canary (one
     * trial per canary).
     */
    public static AuditStatistic canaryProjection(double sign) {
        double s = Math.signum(sign);
        if (s == 0) {
            throw Checks.fail("sign", "+1 or -1", sign);
        }
        return of("model-projection", false, r -> s * r.modelProjection());
    }

    /**
     * White-box, parallel compositions: sign·⟨v, u⟩ for the first Gaussian release v of the given part
     * (the part index the run core reports to the observer). For Phased-SGD, part 0 is the first phase,
     * whose noisy output carries the canaries of its first steps with less noise than the final model.
     */
    public static AuditStatistic partRelease(int part, double sign) {
        double s = Math.signum(sign);
        return of("part-release", true, r -> {
            for (int t = 0; t < r.releases(); t++) {
                if (r.parts()[t] == part) {
                    return s * r.projections()[t];
                }
            }
            throw new IllegalStateException("no release in part " + part + " was observed");
        });
    }

    /**
     * Black-box: −|⟨w, u_j⟩|, larger when the released coordinate is pulled towards 0 (a canary in the
     * curved region of its loss adds curvature along u_j and shrinks the coordinate's spread).
     */
    public static AuditStatistic canaryShrinkage() {
        return of("model-shrinkage", false, r -> -Math.abs(r.modelProjection()));
    }

    /**
     * White-box, fixed test: 1 if the first report-noisy-max release selected {@code index}, else 0; the
     * test "canary present" iff the score exceeds 1/2, fixed before the runs.
     */
    public static AuditStatistic firstSelection(int index) {
        return fixed(of("first-selection", true, r -> r.selections().length > 0 && r.selections()[0] == index
                ? 1 : 0), 0.5);
    }

    /**
     * Black-box, fixed test: "canary present" iff the released model is the positive constant classifier,
     * i.e. intercept-only (every coordinate but the last, the intercept's, exactly 0) with a positive
     * intercept — the release of a constant check that chose the positive class. Score 1 or 0, test
     * "score &gt; 1/2" fixed before the runs.
     */
    public static AuditStatistic positiveConstantReleased() {
        return fixed(of("positive-constant-released", false, r -> {
            double[] w = r.solution().data;
            int last = r.solution().getNumElements() - 1;
            for (int j = 0; j < last; j++) {
                if (w[j] != 0) {
                    return 0;
                }
            }
            return w[last] > 0 ? 1 : 0;
        }), 0.5);
    }

    /** Black-box: ⟨w, u⟩ for the released model w and a fixed direction u. */
    public static AuditStatistic modelProjection(DMatrixRMaj direction) {
        double[] u = Checks.notNull("direction", direction).data.clone();
        return of("model-projection", false, r -> {
            double s = 0;
            for (int j = 0; j < u.length; j++) {
                s += u[j] * r.solution().data[j];
            }
            return s;
        });
    }

    /**
     * Black-box: minus the loss of the released model on the canary record (a model that saw the
     * canary fits it better), the membership-inference statistic of the literature.
     *
     * @param canary a one-row dataset holding the canary
     */
    public static AuditStatistic canaryLoss(Loss loss, Dataset canary) {
        Checks.notNull("loss", loss);
        Checks.notNull("canary", canary);
        return of("canary-loss", false, r -> {
            return -loss.value(r.solution(), canary, 0);
        });
    }

    /** White-box: how often report-noisy-max selected the given index (the canary's favoured vertex). */
    public static AuditStatistic selectionCount(int index) {
        return of("selection-count", true, r -> {
            int k = 0;
            for (int j : r.selections()) {
                if (j == index) {
                    k++;
                }
            }
            return k;
        });
    }

    /**
     * White-box: the largest projection max_t ⟨v_t, u⟩ over the releases — the test of Chua et al.
     * for shuffled batches, where the canary's batch is the one whose sum stands out.
     */
    public static AuditStatistic maxProjection() {
        return of("max-projection", true, r -> {
            double m = Double.NEGATIVE_INFINITY;
            for (double y : r.projections()) {
                m = Math.max(m, y);
            }
            return m;
        });
    }
}
