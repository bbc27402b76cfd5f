package org.dpopt.optim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.BasicCompositionAccountant;
import org.dpopt.accounting.ComposedEvent;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.GaussianMechanism;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyLedger;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Problem;
import org.dpopt.noise.GaussianNoise;
import org.ejml.data.DMatrixRMaj;

/**
 * Objective perturbation for generalized linear losses, exact (A_ObjP) and approximate (A_ObjP-App).
 *
 * <p>Papers: Bassily, Feldman, Talwar, Thakurta, "Private Stochastic Convex Optimization with Optimal
 * Rates", NeurIPS 2019, arXiv:1908.09970, §5 (Algorithm 2, Thms 5.2–5.3, the approximate variant and
 * its SVRG lemma); Kifer, Smith, Thakurta, "Private Convex Empirical Risk Minimization and
 * High-dimensional Regression", COLT 2012 (the mechanism and the rank-one Hessian condition);
 * Iyengar et al., "Towards Practical Differentially Private Convex Optimization", IEEE S&amp;P 2019
 * (approximate minima perturbation).
 *
 * <p><b>Exact</b>: draw G ~ N(0, σ_G²I) and return ŵ = argmin_W J(w),
 * J(w) = F̂(w) + ⟨G, w⟩/n + λ‖w‖², solved by {@link CertifiedNewtonSolver} to a certified distance
 * (W = ℝ^d or a centred ℓ2 ball). <b>Approximate</b>: budget split (ε/2, δ/2) + (ε/2, δ/2); G for
 * (ε/2, δ/2); SVRG ({@link Svrg}) to a certified suboptimality α (default M²λ/n²), so that
 * ‖w̃ − ŵ‖ ≤ r = √(2α/λ); output Π_W(w̃ + H) with H Gaussian for ℓ2 sensitivity 2r at (ε/2, δ/2)
 * (exact Balle–Wang calibration). If the certificate is not reached within the data-independent epoch
 * budget the run throws instead of releasing.
 *
 * <p>Assumptions (checked on the loss <em>type</em> and its declared constants, never on data): the loss
 * is a convex {@link GeneralizedLinearLoss} (rank-one Hessians φ″xxᵀ) with Lipschitz φ′ (finite β₀;
 * φ″ may jump at finitely many points, as for squared, Huber and smoothed hinge — see the theory note);
 * β ≤ ε_part·n·λ (KST12's Λ ≥ 2β/ε with Λ = 2nλ). Default λ = (2L/M)√(2/n + 4d ln(1/δ_part)/(ε_part²n²)).
 *
 * <p>Noise for the linear term (replace-one, Δ_G = 2L): by default the bound derived in
 * {@code theory-notes/objective-perturbation.md}, σ_G = Δ_G/(√(t² + 2ε₀) − t) with t = √(2 ln(1/δ_part))
 * and ε₀ = ε_part − ln(1 + β/Λ); never larger than KST12's σ_G² = Δ_G²(8 ln(2/δ) + 4ε)/ε², which is
 * available as {@link NoiseRule#KST12}.
 *
 * <p>Privacy: exact — EpsilonDelta(ε, δ); approximate — Composed(EpsilonDelta(ε/2, δ/2), Gaussian(z)),
 * reported by basic composition (replace-one). The approximate variant's privacy does not depend on
 * SVRG converging: only a certified iterate is ever perturbed and released.
 */
public final class ObjectivePerturbation extends LegacyOptimizer {

    /** Exact minimization or the approximate variant. */
    public enum Variant {
        /** A_ObjP with the certified Newton solver. */
        EXACT,
        /** A_ObjP-App with SVRG and Gaussian output noise. */
        SVRG
    }

    /** Calibration of σ_G. */
    public enum NoiseRule {
        /** The two-dimensional tail bound (default; never larger than KST12). */
        TIGHT,
        /** KST12's σ_G² = Δ_G²(8 ln(2/δ) + 4ε)/ε². */
        KST12
    }

    private final Variant variant;
    private final double lambda; // NaN: theorem
    private final double accuracy; // NaN: M²λ/n²
    private final NoiseRule noiseRule;
    private final double tolerance;
    private final int epochs; // 0: data-independent budget
    private final double failureProbability; // NaN: 1e-3·δ/(1 + e^ε)
    private final boolean earlyStop;

    private ObjectivePerturbation(Builder b) {
        this.variant = b.variant;
        this.lambda = b.lambda;
        this.accuracy = b.accuracy;
        this.noiseRule = b.noiseRule;
        this.tolerance = b.tolerance;
        this.epochs = b.epochs;
        this.failureProbability = b.failureProbability;
        this.earlyStop = b.earlyStop;
    }

    /** A builder (default: exact variant, theorem λ, tight noise). */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return variant == Variant.EXACT ? "objective-perturbation" : "objective-perturbation-svrg";
    }

    @Override
    public NeighboringRelation relation() {
        return NeighboringRelation.REPLACE_ONE;
    }

    /**
     * KST12's σ_G for a linear-term shift of norm at most deltaG at (ε, δ).
     */
    public static double kstSigma(double deltaG, double epsilon, double delta) {
        return deltaG * Math.sqrt(8 * Math.log(2 / delta) + 4 * epsilon) / epsilon;
    }

    /**
     * The tight σ_G: the smallest σ with t·Δ/σ + Δ²/(2σ²) ≤ ε − ln(1 + β/Λ), t = √(2 ln(1/δ)).
     *
     * @param deltaG Δ_G = sup ‖∇f(w;z) − ∇f(w;z′)‖
     * @param betaOverBigLambda β/Λ with Λ = 2nλ
     */
    public static double tightSigma(double deltaG, double betaOverBigLambda, double epsilon, double delta) {
        double eps0 = epsilon - Math.log1p(betaOverBigLambda);
        if (!(eps0 > 0)) {
            throw Checks.fail("epsilon - ln(1 + beta/Lambda)", "positive", eps0);
        }
        double t = Math.sqrt(2 * Math.log(1 / delta));
        double a = 2 * eps0 / (Math.sqrt(t * t + 2 * eps0) + t); // = √(t²+2ε₀) − t, stably
        return deltaG / a;
    }

    /** The theorem's λ = (2L/M)√(2/n + 4d ln(1/δ)/(ε²n²)). */
    public static double theoremLambda(double lipschitz, double radius, int n, int d, double epsilon, double delta) {
        return (2 * lipschitz / radius)
                * Math.sqrt(2.0 / n + 4.0 * d * Math.log(1 / delta) / (epsilon * epsilon * (double) n * n));
    }

    /** Everything that depends only on public quantities. */
    record Plan(GeneralizedLinearLoss loss, double lipschitz, double beta, double lambda, double epsPart,
            double deltaPart, double sigmaG, double alpha, double radiusR, double zH, double sigmaH, DpEvent event) {
    }

    Plan plan(Problem problem, PrivacyBudget budget) {
        Checks.notNull("problem", problem);
        Checks.notNull("budget", budget);
        Loss loss = problem.loss();
        if (!(loss instanceof GeneralizedLinearLoss gll)) {
            throw Checks.fail("loss", "a GeneralizedLinearLoss (rank-one Hessian) for objective perturbation",
                    loss.name());
        }
        if (gll.convexity() != Loss.Convexity.CONVEX) {
            throw Checks.fail("loss convexity", "CONVEX for objective perturbation", gll.convexity());
        }
        double beta = problem.smoothness();
        if (!gll.isTwiceDifferentiable() || !Double.isFinite(beta)) {
            throw Checks.fail("loss smoothness beta", "finite (phi' Lipschitz, phi'' bounded) for objective "
                    + "perturbation; use a smooth loss such as logistic or smoothed-hinge instead of " + gll.name(), beta);
        }
        double lip = problem.lipschitz();
        if (!(lip > 0 && Double.isFinite(lip))) {
            throw Checks.fail("Lipschitz constant L", "positive and finite", lip);
        }
        int n = problem.size();
        int d = problem.dimension();
        double m = problem.domain().radius(problem.dimension());
        boolean approx = variant == Variant.SVRG;
        if (!approx && !CertifiedNewtonSolver.supports(problem.domain())) {
            throw Checks.fail("domain", "the whole space or a centred L2 ball for exact objective perturbation "
                    + "(use objective-perturbation-svrg for other sets)", problem.domain());
        }
        double epsPart = approx ? budget.epsilon() / 2 : budget.epsilon();
        // SVRG variant: the certified-failure event (probability <= p for every dataset) costs (1 + e^eps) p of
        // delta; it is taken out of the budget first so that the whole guarantee stays within (eps, delta)
        double deltaAvail = approx ? budget.delta() - failureTerm(budget) : budget.delta();
        if (!(deltaAvail > 0)) {
            throw Checks.fail("failure probability term (1 + e^eps) p", "below delta = " + budget.delta(),
                    failureTerm(budget));
        }
        double deltaPart = approx ? deltaAvail / 2 : budget.delta();
        double lam = lambda;
        if (Double.isNaN(lam)) {
            if (!Double.isFinite(m)) {
                throw Checks.fail("domain radius M", "finite when lambda is not given (the theorem's lambda "
                        + "uses M); give lambda (--l2) or a radius", m);
            }
            lam = theoremLambda(lip, m, n, d, epsPart, deltaPart);
        }
        double betaMax = epsPart * n * lam;
        if (beta > betaMax) {
            throw Checks.fail("smoothness beta", "at most eps" + (approx ? "/2" : "") + "*n*lambda = " + betaMax
                    + " for objective perturbation (KST12 / BFTT19 Thm 5.2); lambda >= " + beta / (epsPart * n)
                    + " would satisfy it", beta);
        }
        double deltaG = 2 * lip; // replace-one: ‖φ′(·)x − φ′(·)x′‖ ≤ 2L
        double bigLambda = 2 * n * lam;
        double sigmaG = noiseRule == NoiseRule.TIGHT
                ? tightSigma(deltaG, beta / bigLambda, epsPart, deltaPart)
                : kstSigma(deltaG, epsPart, deltaPart);
        DpEvent objp = new EpsilonDeltaEvent(epsPart, deltaPart);
        if (!approx) {
            return new Plan(gll, lip, beta, lam, epsPart, deltaPart, sigmaG, Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN, DpEvents.normalize(objp));
        }
        double alpha = accuracy;
        if (Double.isNaN(alpha)) {
            if (!Double.isFinite(m)) {
                throw Checks.fail("domain radius M", "finite when the accuracy alpha is not given (alpha = "
                        + "M^2 lambda/n^2)", m);
            }
            alpha = m * m * lam / ((double) n * n);
        }
        double r = Math.sqrt(2 * alpha / lam);
        double zH = GaussianMechanism.noiseMultiplier(budget.epsilon() / 2, deltaAvail / 2);
        DpEvent event = DpEvents.normalize(ComposedEvent.of(objp, new GaussianEvent(zH)));
        return new Plan(gll, lip, beta, lam, epsPart, deltaPart, sigmaG, alpha, r, zH, zH * 2 * r, event);
    }

    /** The δ charged for a failed (thrown) SVRG run: (1 + e^ε)·p. */
    double failureTerm(PrivacyBudget budget) {
        return (1 + Math.exp(Math.min(budget.epsilon(), 700))) * failureProbability(budget);
    }

    /** p for the epoch budget: as set, or 1e-3·δ/(1 + e^ε) so that a failure adds at most δ/1000. */
    double failureProbability(PrivacyBudget budget) {
        if (!Double.isNaN(failureProbability)) {
            return failureProbability;
        }
        return 1e-3 * budget.delta() / (1 + Math.exp(Math.min(budget.epsilon(), 700)));
    }

    @Override
    public DpEvent privacyEvent(Problem problem, PrivacyBudget budget) {
        return plan(problem, budget).event();
    }

    @Override
    public OptimizationResult optimize(Problem problem, PrivacyBudget budget, UniformRandomProvider rng) {
        Checks.notNull("rng", rng);
        Plan p = plan(problem, budget);
        int n = problem.size();
        int d = problem.dimension();
        GaussianNoise noise = GaussianNoise.of(rng);
        DMatrixRMaj b = new DMatrixRMaj(d, 1);
        noise.addTo(b, p.sigmaG() / n); // b = G/n
        PerturbedObjective obj = new PerturbedObjective(problem.data(), p.loss(), problem.domain(), b, p.lambda());
        PrivacyLedger ledger = new PrivacyLedger();
        Map<String, Double> params = new HashMap<>();
        Map<String, Double> diag = new HashMap<>();
        params.put("lambda", p.lambda());
        params.put("sigma_G", p.sigmaG());
        params.put("beta", p.beta());
        params.put("lipschitz", p.lipschitz());
        params.put("epsilon_objp", p.epsPart());
        params.put("delta_objp", p.deltaPart());
        DMatrixRMaj out;
        long steps;
        long evals;
        List<String> notes = new ArrayList<>();
        if (variant == Variant.EXACT) {
            CertifiedNewtonSolver.Solution s = new CertifiedNewtonSolver(tolerance, 500).solve(obj);
            ledger.record(new EpsilonDeltaEvent(p.epsPart(), p.deltaPart()));
            out = s.w();
            steps = s.newtonSteps();
            evals = s.gradientEvaluations();
            diag.put("certified_distance", s.distance());
            notes.add("exact objective perturbation: minimizer certified within " + s.distance()
                    + " (the theorem assumes exact minimization); Newton steps are a data-dependent diagnostic");
        } else {
            double pFail = failureProbability(budget);
            int certifiedEpochs = Svrg.epochBudget(obj, p.beta(), p.lipschitz(), p.alpha(), pFail);
            if (epochs > 0 && epochs < certifiedEpochs) {
                throw Checks.fail("epochs", "at least the budget " + certifiedEpochs + " that bounds the failure "
                        + "probability by " + pFail + " (fewer epochs would make failing a data-dependent release)",
                        epochs);
            }
            int budgetEpochs = Math.max(epochs, certifiedEpochs);
            Svrg.Result s = Svrg.solve(obj, p.beta(), p.alpha(), budgetEpochs, earlyStop, rng);
            if (!(s.suboptimality() <= p.alpha())) {
                throw new IllegalStateException("SVRG did not certify suboptimality alpha = " + p.alpha()
                        + " within " + budgetEpochs + " epochs (best certified " + s.suboptimality()
                        + "); nothing released");
            }
            ledger.record(new EpsilonDeltaEvent(p.epsPart(), p.deltaPart()));
            out = s.w();
            noise.addTo(out, p.sigmaH());
            ledger.record(new GaussianEvent(p.zH()));
            problem.domain().project(out);
            steps = s.epochs();
            evals = s.gradientEvaluations();
            params.put("alpha", p.alpha());
            params.put("distance_bound_r", p.radiusR());
            params.put("sigma_H", p.sigmaH());
            params.put("noise_multiplier_H", p.zH());
            params.put("epoch_budget", (double) budgetEpochs);
            params.put("inner_steps", (double) Svrg.schedule(obj, p.beta()).innerSteps());
            diag.put("certified_suboptimality", s.suboptimality());
            notes.add("split (eps/2, delta/2) objective perturbation + (eps/2, delta/2) Gaussian output noise");
            notes.add("a run fails (throws, releasing only that fact) with probability <= " + pFail
                    + " for every dataset; its cost (1 + e^eps) p = " + failureTerm(budget)
                    + " is included in delta");
            if (earlyStop) {
                notes.add("early stop: the epoch count (steps, timing) depends on the data and is not covered");
            }
        }
        DpEvent recorded = ledger.build();
        double deltaForLedger = variant == Variant.EXACT ? budget.delta() : budget.delta() - failureTerm(budget);
        PrivacyReport r0 = new BasicCompositionAccountant(NeighboringRelation.REPLACE_ONE)
                .report(recorded, deltaForLedger);
        PrivacyReport report = new PrivacyReport(r0.epsilon(), r0.epsilonLower(), budget.delta(), r0.accountant(),
                r0.relation(), r0.event(), r0.bound(), r0.notes());
        for (String s : notes) {
            report = report.withNote(s);
        }
        diag.put("train_loss", problem.empiricalRisk(out));
        return result(problem, budget, out, report, recorded, steps, evals, params, diag);
    }

    /** Builder; every setter validates. */
    public static final class Builder {
        private Variant variant = Variant.EXACT;
        private double lambda = Double.NaN;
        private double accuracy = Double.NaN;
        private NoiseRule noiseRule = NoiseRule.TIGHT;
        private double tolerance = 1e-9;
        private int epochs = 0;
        private double failureProbability = Double.NaN;
        private boolean earlyStop = false;

        private Builder() {
        }

        /** EXACT (default) or SVRG. */
        public Builder variant(Variant v) {
            this.variant = Checks.notNull("variant", v);
            return this;
        }

        /** λ &gt; 0 in λ‖w‖² (default: the theorem's value; required when W is unbounded). */
        public Builder lambda(double l) {
            this.lambda = Checks.positive("lambda", l);
            return this;
        }

        /** Target certified suboptimality α &gt; 0 of the SVRG variant (default M²λ/n²). */
        public Builder accuracy(double a) {
            this.accuracy = Checks.positive("accuracy", a);
            return this;
        }

        /** TIGHT (default) or KST12. */
        public Builder noiseRule(NoiseRule r) {
            this.noiseRule = Checks.notNull("noiseRule", r);
            return this;
        }

        /** Certified relative distance to the exact minimizer for the exact variant (default 1e-9). */
        public Builder tolerance(double t) {
            this.tolerance = Checks.inRange("tolerance", t, 1e-14, 1e-3);
            return this;
        }

        /** Fixed SVRG epoch budget ≥ 1 (default: the data-independent budget of {@link Svrg#epochBudget}). */
        public Builder epochs(int e) {
            this.epochs = Checks.atLeastOne("epochs", e);
            return this;
        }

        /** Failure probability p of the default epoch budget, in (0, 1) (default 1e-3·δ/(1 + e^ε)). */
        public Builder failureProbability(double pr) {
            this.failureProbability = Checks.openUnit("failureProbability", pr);
            return this;
        }

        /** Stop SVRG once certified (faster; the epoch count then depends on the data). Default false. */
        public Builder earlyStop(boolean e) {
            this.earlyStop = e;
            return this;
        }

        /** Builds the immutable optimizer. */
        public ObjectivePerturbation build() {
            return new ObjectivePerturbation(this);
        }
    }
}
