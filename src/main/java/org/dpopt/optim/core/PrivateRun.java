package org.dpopt.optim.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.AblqStepEvent;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.PrivacyLedger;
import org.dpopt.accounting.TruncatedPoissonEvent;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.noise.NoiseSource;
import org.dpopt.noise.ReportNoisyMax;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.Diagnostics;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.RunPlan;
import org.ejml.data.DMatrixRMaj;

/**
 * The run core, for optimizer implementations: the one place where a noisy release happens.
 *
 * <p>Every release method adds noise <em>and</em> records the release's event in the same call, and
 * derives the noise from the event it records (a Gaussian release draws at the event's own noise
 * multiplier), so a release without a ledger entry, or with a different one, cannot be written.
 * {@link #finish} then checks at run time what was only tested before: the recorded ledger equals the
 * plan's statement, and a plan calibrated to a budget spent at most that budget. It assembles the
 * result: the private release apart from the non-private diagnostics, which are kept only when asked
 * for.
 *
 * <p>One object per run; not thread-safe.
 */
public final class PrivateRun {

    /**
     * Relative slack when comparing the certified ε with the budget: the report recomputes with the
     * same accountant what calibration already certified, so only the last bits may differ.
     */
    public static final double BUDGET_TOLERANCE = 1e-9;

    private final RunPlan plan;
    private final Problem problem;
    private final UniformRandomProvider rng;
    private final RunOptions options;
    private final NoiseSource noise;
    private final Deque<PrivacyLedger> ledgers = new ArrayDeque<>();
    private final Diagnostics.Builder diagnostics = Diagnostics.builder();
    private final List<String> notes = new ArrayList<>();
    private boolean finished;

    private PrivateRun(RunPlan plan, Problem problem, UniformRandomProvider rng, RunOptions options) {
        this.plan = plan;
        this.problem = problem;
        this.rng = rng;
        this.options = options;
        this.noise = NoiseSource.of(rng);
        ledgers.push(new PrivacyLedger());
    }

    /**
     * Starts a run of a plan on a problem.
     *
     * @throws IllegalArgumentException if the problem's public shape is not the one the plan was made
     *         for, or the dataset does not fit the plan's size
     */
    public static PrivateRun start(RunPlan plan, Problem problem, UniformRandomProvider rng, RunOptions options) {
        Checks.notNull("plan", plan);
        Checks.notNull("problem", problem);
        Checks.notNull("rng", rng);
        Checks.notNull("options", options);
        checkShape(plan, problem.shape(), problem.data().size());
        plan.prepareReport(); // computed on another core while the run iterates
        return new PrivateRun(plan, problem, rng, options);
    }

    /**
     * Starts a run whose data is not in this JVM (a distributed engine computes the data-dependent sums;
     * noise, updates and the ledger stay here). {@link #problem()} is then unavailable.
     *
     * @param shape the public shape of the distributed data (its declared dimension, bound, loss, domain
     *              and size)
     * @param rows the actual number of rows (checked against the plan; never released)
     * @throws IllegalArgumentException as {@link #start(RunPlan, Problem, UniformRandomProvider, RunOptions)}
     */
    public static PrivateRun startDistributed(RunPlan plan, ProblemShape shape, long rows, UniformRandomProvider rng,
            RunOptions options) {
        Checks.notNull("plan", plan);
        Checks.notNull("shape", shape);
        Checks.notNull("rng", rng);
        Checks.notNull("options", options);
        checkShape(plan, shape, rows);
        plan.prepareReport(); // computed on another core while the run iterates
        return new PrivateRun(plan, null, rng, options);
    }

    private static void checkShape(RunPlan plan, ProblemShape got, long rows) {
        ProblemShape want = plan.shape();
        if (got.dimension() != want.dimension()) {
            throw Checks.fail("dimension of the data", "the planned d = " + want.dimension(), got.dimension());
        }
        if (got.rowNormBound() != want.rowNormBound()) {
            throw Checks.fail("declared row-norm bound", "the planned " + want.rowNormBound(), got.rowNormBound());
        }
        if (!got.loss().equals(want.loss())) {
            throw Checks.fail("loss", "the planned " + want.loss().name(), got.loss().name());
        }
        if (!got.domain().equals(want.domain())) {
            throw Checks.fail("domain", "the planned " + want.domain(), got.domain());
        }
        if (got.size() != want.size()) {
            throw Checks.fail("dataset size of the problem", "the planned n = " + want.size(), got.size());
        }
        if (plan.exactSizeRequired() && rows != want.size()) {
            throw Checks.fail("declared dataset size", "equal to the number of rows " + rows + " for "
                    + plan.algorithm() + " (its schedule addresses records by position)", want.size());
        }
        if (rows > want.size()) {
            throw Checks.fail("number of rows", "at most the declared dataset size " + want.size(), rows);
        }
    }

    /**
     * The problem being solved (its data is the private input).
     *
     * @throws IllegalStateException in a distributed run, whose data is not in this JVM
     */
    public Problem problem() {
        if (problem == null) {
            throw new IllegalStateException("a distributed run has no in-memory problem");
        }
        return problem;
    }

    /** The plan being run. */
    public RunPlan plan() {
        return plan;
    }

    /**
     * The generator for data-independent randomness (batch sampling, orders, partitions). In seeded
     * mode the noise draws share its stream, so a seed fixes the whole run.
     */
    public UniformRandomProvider rng() {
        return rng;
    }

    /** The audit mutation in force ({@link Mutation#NONE} for real runs). */
    public Mutation mutation() {
        return options.mutation();
    }

    /** True if non-private diagnostics were asked for (skip their extra passes otherwise). */
    public boolean diagnosticsOn() {
        return options.diagnostics();
    }

    /** Records a non-private diagnostic (kept only if asked for). */
    public void diagnose(Diagnostic key, double value) {
        diagnostics.put(key, value);
    }

    /** Adds a note to the run's report. */
    public void note(String text) {
        notes.add(Checks.notNull("note", text));
    }

    /**
     * A Gaussian release: v ← v + N(0, (zΔ)²I) where z is the noise multiplier of {@code event}, and the
     * event is recorded. Modified: v.
     *
     * @param v the value to release
     * @param sensitivity Δ, the ℓ2 sensitivity of v (from public constants)
     * @param event the event this release is accounted as: a {@code GaussianEvent}, or one applied to a
     *              sampled batch ({@code PoissonSampledEvent}, {@code TruncatedPoissonEvent},
     *              {@code AblqStepEvent})
     */
    public void gaussian(DMatrixRMaj v, double sensitivity, DpEvent event) {
        double z = noiseMultiplierOf(event);
        open();
        double used = mutation() == Mutation.HALF_SENSITIVITY ? 0.5 * sensitivity : sensitivity;
        noise.addGaussian(v, used, mutation() == Mutation.HALF_NOISE ? 0.5 * z : z);
        ledgers.peek().record(event);
        options.observer().gaussian(v, used, event);
    }

    /**
     * Objective-perturbation noise: out ← out + N(0, σ²I), recorded as {@code event} (the mechanism's
     * guarantee, e.g. an (ε, δ) event from the perturbation theorem). σ is proportional to the per-record
     * gradient bound it is calibrated for, so the {@code half-sensitivity} mutant, like {@code half-noise},
     * draws at σ/2. Modified: out.
     */
    public void objectiveNoise(DMatrixRMaj out, double sigma, DpEvent event) {
        Checks.notNull("event", event);
        open();
        boolean halved = mutation() == Mutation.HALF_NOISE || mutation() == Mutation.HALF_SENSITIVITY;
        noise.addObjectiveNoise(out, halved ? 0.5 * sigma : sigma);
        ledgers.peek().record(event);
    }

    /**
     * Report-noisy-max: the noisy arg-max ({@code sign} = +1) or arg-min (−1) of scores[0..count), and
     * its event {@code rnm.event()} recorded. Not modified: scores.
     */
    public int reportNoisyMax(ReportNoisyMax rnm, double[] scores, int count, double sign) {
        Checks.notNull("rnm", rnm);
        open();
        ReportNoisyMax drawn = rnm;
        if (mutation() == Mutation.HALF_NOISE || mutation() == Mutation.RNM_HALF_SCALE) {
            drawn = new ReportNoisyMax(rnm.sensitivity(), 2 * rnm.epsilon(), rnm.monotone(), rnm.relation());
        }
        int j = noise.reportNoisyMax(drawn, scores, count, sign);
        ledgers.peek().record(rnm.event());
        options.observer().selection(j, rnm.event());
        return j;
    }

    /**
     * Records a finished run of another plan made as the first stage of this one (an optimizer that runs
     * another and then makes releases of its own): the stage's ledger, which that run's own
     * {@code finish} checked against its plan's statement, enters this run's ledger as one part. The
     * stage's report notes are kept (except its secure-noise charge: this run's report states its own),
     * and its diagnostics when diagnostics are on.
     *
     * @throws IllegalArgumentException if the stage is not a finished private run whose ledger is its
     *         plan's statement
     */
    public void include(OptimizationResult stage) {
        Checks.notNull("stage", stage);
        open();
        if (stage.plan().accountant() == null || !stage.ledger().equals(stage.plan().statement())) {
            throw Checks.fail("stage", "a private run whose ledger is its plan's statement",
                    stage.ledger().describe());
        }
        if (stage.plan().relation() != plan.relation() || !stage.plan().shape().equals(plan.shape())) {
            throw Checks.fail("stage", "a run planned for this run's shape and relation", stage.plan());
        }
        if (stage.noise().equals(NoiseSource.SECURE_DESCRIPTION) != noise.isSecure()) {
            throw Checks.fail("stage", "a run with this run's kind of noise (" + noise.description() + ")",
                    stage.noise());
        }
        ledgers.peek().record(stage.ledger());
        noise.countDrawsOf(stage.secureDraws()); // this run's implementation δ covers the stage's draws
        for (String s : stage.privacy().notes()) {
            if (!s.startsWith("secure noise")) {
                notes.add(s);
            }
        }
        diagnostics.putAll(stage.nonPrivateDiagnostics());
    }

    /**
     * Starts a parallel composition over disjoint parts of the data: call {@link Parallel#nextPart()}
     * before each part's releases, and close it to record {@code Parallel[part events]}.
     */
    public Parallel parallel() {
        open();
        return new Parallel();
    }

    /** The releases of disjoint parts, composed in parallel. */
    public final class Parallel implements AutoCloseable {
        private final List<DpEvent> parts = new ArrayList<>();
        private PrivacyLedger current;
        private boolean closed;

        private Parallel() {
        }

        /** Ends the previous part (if any) and starts the next one. */
        public void nextPart() {
            if (closed) {
                throw new IllegalStateException("parallel composition already closed");
            }
            endPart();
            current = new PrivacyLedger();
            ledgers.push(current);
            options.observer().part(parts.size());
        }

        private void endPart() {
            if (current != null) {
                if (ledgers.peek() != current) {
                    throw new IllegalStateException("nested parallel composition not closed");
                }
                ledgers.pop();
                parts.add(current.build());
                current = null;
            }
        }

        /** Records the parallel composition of the parts in the enclosing ledger. */
        @Override
        public void close() {
            if (closed) {
                return;
            }
            endPart();
            closed = true;
            if (!parts.isEmpty()) {
                ledgers.peek().record(new ParallelComposedEvent(parts));
            }
        }
    }

    private void open() {
        if (finished) {
            throw new IllegalStateException("release after the run finished");
        }
    }

    /**
     * Ends the run: checks ledger == statement and the budget, reports, and assembles the result.
     * Not modified: solution (copied).
     *
     * @throws IllegalStateException if the ledger differs from the plan's statement or a calibrated
     *         plan spent more than its budget (both are bugs)
     */
    public OptimizationResult finish(DMatrixRMaj solution) {
        Checks.notNull("solution", solution);
        open();
        finished = true;
        if (ledgers.size() != 1) {
            throw new IllegalStateException("a parallel composition was not closed");
        }
        RunReport.Closed closed = RunReport.close(plan, ledgers.peek(), noise, mutation(), notes);
        Diagnostics diag = options.diagnostics() ? diagnostics.build() : Diagnostics.none();
        return new OptimizationResult(solution, closed.report(), plan, closed.ledger(), noise.description(), diag,
                noise.secureDraws());
    }

    /**
     * The noise multiplier of a Gaussian release event, looking through the sampling wrappers a batch
     * release is accounted with.
     *
     * @throws IllegalArgumentException if the event is not a Gaussian release
     */
    public static double noiseMultiplierOf(DpEvent event) {
        Checks.notNull("event", event);
        if (event instanceof GaussianEvent g) {
            return g.noiseMultiplier();
        }
        if (event instanceof PoissonSampledEvent p) {
            return noiseMultiplierOf(p.event());
        }
        if (event instanceof TruncatedPoissonEvent t) {
            return noiseMultiplierOf(t.event());
        }
        if (event instanceof AblqStepEvent a) {
            return a.noiseMultiplier();
        }
        throw Checks.fail("event of a Gaussian release", "a Gaussian event or a sampled one", event.describe());
    }
}
