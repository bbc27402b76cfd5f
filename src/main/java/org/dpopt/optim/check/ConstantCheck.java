package org.dpopt.optim.check;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.noise.ReportNoisyMax;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.BaseOptimizer;
import org.dpopt.optim.core.OptimizerBuilder;
import org.dpopt.optim.core.PrivateRun;
import org.ejml.data.DMatrixRMaj;

/**
 * A binary classifier checked privately against the two constant classifiers before it is released.
 * The trained optimizer runs at (ε − ε₀, δ); then report-noisy-max over three training-set counts —
 * the rows the trained w labels correctly, the rows with a negative label, the rows with a positive
 * label — picks what is released: w, or the constant classifier of the winning class (w = 0 apart from
 * the intercept, whose score has the sign of that class: ∓1 before projection onto the domain). A model that is worse on its own training data than "always the
 * majority class" is then rarely released; a good one costs ε₀ of the budget. A public head start
 * (a margin, in Laplace scales) for the trained classifier's count makes replacing it rarer still.
 *
 * <p>Privacy: for a fixed w each score is a counting query, moved by at most 1 when a row is added,
 * removed or replaced; under add/remove-one all three move in the same direction, so Laplace noise of
 * scale 1/ε₀ makes the choice ε₀-DP, and 2/ε₀ is used for replace-one (C. Dwork, A. Roth, "The
 * Algorithmic Foundations of Differential Privacy", Found. Trends Theor. Comput. Sci., 2014, §3.3).
 * The choice is made after w is released to this code, so adaptive composition applies: the statement
 * is {@code Composed[trained statement, EpsilonDelta(ε₀, 0)]}, certified as the trained plan's ε at δ
 * plus ε₀ (basic composition, valid for every trained statement), so a trained plan calibrated to
 * ε − ε₀ keeps the whole within (ε, δ). Only the index of the winner is used; the
 * noisy counts are not released.
 *
 * <p>Needs a binary classification loss and an intercept (the constant classifiers are intercept-only
 * models). The optimizer keeps the trained optimizer's name. The trained optimizer runs with its own
 * run options (its diagnostics, observer and audit mutation); this check's options apply to the
 * selection only. A check cannot be the trained optimizer of another check.
 */
public final class ConstantCheck extends BaseOptimizer<ConstantCheck.Builder> {
    private ConstantCheck(Builder b) {
        super(b.trained.name(), b.trained.relation(), b);
    }

    /**
     * A builder checking the classifier of {@code trained}.
     *
     * @param trained the optimizer that trains the classifier (its relation is the check's)
     */
    public static Builder builder(PrivateOptimizer trained) {
        Builder b = new Builder();
        b.trained = Checks.notNull("trained", trained);
        if (trained instanceof ConstantCheck) {
            throw Checks.fail("trained optimizer", "not itself a constant check", trained.name());
        }
        return b;
    }

    /** The optimizer that trains the classifier. */
    public PrivateOptimizer trained() {
        return config.trained;
    }

    /** The share of ε spent on the check. */
    public double share() {
        return config.share;
    }

    /** The plan of the training stage inside a plan of this check (for engines that run it themselves). */
    public static RunPlan trainedPlan(RunPlan plan) {
        return plan.detail(Stages.class).trained();
    }

    @Override
    protected RunPlan planFor(ProblemShape shape, PrivacyBudget budget) {
        requireClassifierWithIntercept(shape);
        double eps0 = config.share * budget.epsilon();
        if (!(eps0 > 0 && Double.isFinite(2 / eps0))) {
            throw Checks.fail("constant check share", "large enough that share x epsilon = " + eps0
                    + " has a finite Laplace scale", config.share);
        }
        ReportNoisyMax rnm = new ReportNoisyMax(1.0, eps0, relation() == NeighboringRelation.ADD_OR_REMOVE_ONE,
                relation());
        RunPlan trained = config.trained.plan(shape, PrivacyBudget.of(budget.epsilon() - eps0, budget.delta()));
        return compose(shape, budget, trained, rnm);
    }

    private RunPlan compose(ProblemShape shape, PrivacyBudget budget, RunPlan trained, ReportNoisyMax rnm) {
        if (trained.accountant() == null) {
            throw Checks.fail("trained optimizer", "a private one", trained.algorithm());
        }
        return RunPlan.builder(name(), shape)
                .privacy(CheckAccountant.statement(trained.statement(), rnm.epsilon()), relation(),
                        new CheckAccountant(trained, rnm.epsilon()), budget)
                .parameters(trained.parameters().toBuilder().put(Param.CONSTANT_CHECK_EPSILON, rnm.epsilon())
                        .put(Param.CONSTANT_CHECK_SCALE, rnm.scale())
                        .put(Param.CONSTANT_CHECK_MARGIN, exactHeadStart(config.margin * rnm.scale(), shape.size()))
                        .build())
                .budgetBinding(trained.budgetBinding())
                .exactSizeRequired(trained.exactSizeRequired())
                .detail(new Stages(trained, rnm))
                .build();
    }

    /** Head starts (in rows) at or above this are refused: their sums with the counts could not stay exact. */
    static final double MAX_HEAD_START = 0x1p50;

    /**
     * The head start m in rows, rounded down to the coarsest power-of-two grid on which count + m is exact
     * in double arithmetic for every count 0..n (the counts are at most the planned n: a run refuses more
     * rows). The trained classifier's score is then exactly count + m, so one row moves every score by at
     * most 1 and the selection's sensitivity stays 1; a rounded sum could move by 1 plus a rounding step
     * (by 2 or more once m is near 2^53). The grid step is at most 2^-1 and about 2^-52·(n + m), so the
     * head start changes by less than that. From public constants only.
     *
     * @throws IllegalArgumentException if m is at least {@link #MAX_HEAD_START} rows
     */
    static double exactHeadStart(double m, int n) {
        if (!(m >= 0 && m < MAX_HEAD_START)) {
            throw Checks.fail("constant check margin", "a head start below 2^50 rows (margin x Laplace scale)", m);
        }
        if (m == 0) {
            return 0;
        }
        // n + m < 2^(e+1), and every multiple of 2^(e-51) below 2^(e+2) is a double (53 significand bits)
        int e = Math.getExponent((double) n + m);
        double step = Math.scalb(1.0, e - 51); // at most 2^-1, so every count is on the grid too
        return Math.floor(m / step) * step;
    }

    private static void requireClassifierWithIntercept(ProblemShape shape) {
        Loss loss = shape.loss();
        if (!loss.isClassification() || loss.outputs() != 1) {
            throw Checks.fail("loss", "a binary classification loss for the constant check", loss.name());
        }
        if (!shape.hasIntercept()) {
            throw Checks.fail("intercept", "fitted for the constant check (its constant classifiers are "
                    + "intercept-only models)", false);
        }
    }

    @Override
    public OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        Checks.notNull("problem", problem);
        Stages s = plan.detail(Stages.class);
        PrivateRun run = PrivateRun.start(plan, problem, rng, options());
        OptimizationResult trained = config.trained.run(problem, s.trained(), rng);
        return check(run, trained, ClassCounts.of(problem.data()));
    }

    /**
     * The check after a training stage run elsewhere (a distributed engine runs
     * {@link #trainedPlan(RunPlan)} with its own sums, then counts on its rows).
     *
     * @param plan a plan of this check
     * @param shape the public shape of the distributed rows (the plan's)
     * @param trained the result of running {@link #trainedPlan(RunPlan)} on those rows
     * @param counts the counting queries on the same rows
     */
    public OptimizationResult check(RunPlan plan, ProblemShape shape, OptimizationResult trained, ClassCounts counts,
            UniformRandomProvider rng) {
        Checks.notNull("counts", counts);
        Checks.notNull("trained", trained);
        if (trained.plan() != trainedPlan(plan)) {
            throw Checks.fail("trained result", "a run of this check's training plan", trained.plan().algorithm());
        }
        return check(PrivateRun.startDistributed(plan, shape, counts.rows(), rng, options()), trained, counts);
    }

    private OptimizationResult check(PrivateRun run, OptimizationResult trained, ClassCounts counts) {
        run.include(trained);
        DMatrixRMaj w = trained.solution();
        long positives = counts.positives();
        long negatives = counts.rows() - positives;
        long correct = counts.correct(w);
        double[] scores = {correct + margin(run.plan()), negatives, positives};
        int j = run.reportNoisyMax(run.plan().detail(Stages.class).rnm(), scores, scores.length, 1.0);
        run.diagnose(Diagnostic.CONSTANT_CHECK_LEAD, correct - Math.max(negatives, positives));
        if (j == 0) {
            run.note(Choice.TRAINED.note);
            return run.finish(w);
        }
        run.note((j == 2 ? Choice.POSITIVE : Choice.NEGATIVE).note);
        return run.finish(constant(run.plan().shape(), j == 2 ? 1.0 : -1.0));
    }

    private static double margin(RunPlan plan) {
        return plan.parameters().real(Param.CONSTANT_CHECK_MARGIN);
    }

    /** The intercept-only classifier of score {@code sign}: w = (0, …, 0, sign/c), projected onto the domain. */
    static DMatrixRMaj constant(ProblemShape shape, double sign) {
        DMatrixRMaj w = new DMatrixRMaj(shape.dimension(), 1);
        w.set(shape.dimension() - 1, 0, sign / shape.interceptScale());
        shape.domain().project(w);
        return w;
    }

    /** What a check released. */
    public enum Choice {
        /** The trained classifier. */
        TRAINED("constant check: the trained classifier was released (its noisy count of correct training labels "
                + "beat both constant classifiers')"),
        /** The constant classifier of the negative class. */
        NEGATIVE("constant check: the constant classifier of the negative class was released instead of the "
                + "trained one, whose noisy count of correct training labels was lower"),
        /** The constant classifier of the positive class. */
        POSITIVE("constant check: the constant classifier of the positive class was released instead of the "
                + "trained one, whose noisy count of correct training labels was lower");

        private final String note;

        Choice(String note) {
            this.note = note;
        }
    }

    /**
     * What the check of a run released, read from its report (part of the release); empty for a run
     * without the check.
     */
    public static java.util.Optional<Choice> choice(OptimizationResult r) {
        Checks.notNull("result", r);
        for (Choice c : Choice.values()) {
            if (r.privacy().notes().contains(c.note)) {
                return java.util.Optional.of(c);
            }
        }
        return java.util.Optional.empty();
    }

    /** The training plan and the selection of one plan of the check. */
    record Stages(RunPlan trained, ReportNoisyMax rnm) {
    }

    /** Builder. */
    public static final class Builder extends OptimizerBuilder<Builder> {
        private PrivateOptimizer trained;
        private double share = 0.1;
        private double margin = 0;

        private Builder() {
        }

        /** The share of ε spent on the check, in (0, 1) (default 0.1). */
        public Builder share(double s) {
            Checks.openUnit("constant check share", s);
            this.share = s;
            return this;
        }

        /**
         * The head start of the trained classifier, in Laplace scales of the check (default 0): its count
         * of correct labels is raised by margin × scale before the noisy choice, so a constant classifier
         * replaces it only when clearly better. A public constant: the privacy is unchanged. The plan rounds
         * the head start in rows down to a grid on which every count plus it is exact (a change of about
         * 2^-52 n rows), and refuses a head start of 2^50 rows or more.
         */
        public Builder margin(double scales) {
            Checks.nonNegative("constant check margin", scales);
            Checks.finite("constant check margin", scales);
            this.margin = scales;
            return this;
        }

        @Override
        public ConstantCheck build() {
            return new ConstantCheck(this);
        }
    }
}
