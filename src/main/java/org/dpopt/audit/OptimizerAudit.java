package org.dpopt.audit;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NonPrivateEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.Mutation;

/**
 * Runs an audit: the optimizer {@code runs/2} times on each dataset of the pair, every run seeded from
 * the audit's seed (an audit is a test: its runs are research-mode runs, reproducible and not private),
 * one score per run from the statistic, then the bounds.
 *
 * <p>Run i on dataset b ∈ {D, D′} uses the seed {@link #runSeed}(seed, b, i). A pair with k canaries
 * gives k trials per run (one score per canary). The first half of each dataset's runs is the
 * selection half, the rest the evaluation half ({@link EpsilonLowerBound}); a statistic with a test
 * fixed in advance evaluates every run. The
 * plan is made once from the public shape (both datasets are planned for the same declared size) and
 * reused; optimizers not yet on the run core are planned per run by their {@code optimize}.
 */
public final class OptimizerAudit {
    private OptimizerAudit() {
    }

    /**
     * The audit's size and confidence.
     *
     * @param runs total runs, even, ≥ 8 (half on each dataset)
     * @param alpha α ∈ (0, 1): each bound holds with probability ≥ 1 − α
     * @param seed the audit's seed
     */
    public record Settings(int runs, double alpha, long seed) {
        /** Validates. */
        public Settings {
            Checks.atLeast("runs", runs, 8);
            if (runs % 2 != 0) {
                throw Checks.fail("runs", "even (half on each dataset)", runs);
            }
            Checks.openUnit("alpha", alpha);
        }
    }

    /** Sees the audit's progress (called on the audit's thread after each run). */
    @FunctionalInterface
    public interface Progress {
        /** Nothing. */
        Progress NONE = (done, total) -> {
        };

        /** {@code done} of {@code total} runs are finished. */
        void update(long done, long total);
    }

    /** The seed of run i on dataset b (0: D, 1: D′): a 64-bit mix of the three (SplitMix64 finalizer). */
    public static long runSeed(long seed, int side, long i) {
        long z = seed * 0x9E3779B97F4A7C15L + (2 * i + side + 1) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * Audits one configuration.
     *
     * @throws IllegalArgumentException if the configuration does not run the mutant
     * @throws IllegalStateException if a white-box statistic observed no release (the optimizer does not
     *         report its releases), or runs on D and D′ claim different guarantees
     */
    public static AuditResult run(AuditTarget t, Mutation mutant, Settings s, Progress progress) {
        Checks.notNull("target", t);
        Checks.notNull("mutant", mutant);
        Checks.notNull("settings", s);
        Checks.notNull("progress", progress);
        if (!t.runs(mutant)) {
            throw Checks.fail("--mutant", "one this configuration of " + t.algorithm() + " runs "
                    + t.mutants().stream().map(Mutation::cliName).sorted().toList(), mutant.cliName());
        }
        long t0 = System.nanoTime();
        int perSide = s.runs() / 2;
        int k = t.pair().canaries();
        double[][] scores = new double[2][perSide * k];
        int threads = Math.max(1, Math.min(THREADS, Runtime.getRuntime().availableProcessors()));
        Job job = new Job(t, s, scores, threads, new AtomicLong(), progress);
        Worker[] workers = new Worker[threads];
        for (int w = 0; w < threads; w++) {
            workers[w] = new Worker(job, mutant, w);
        }
        runAll(workers);
        // Only the first worker draws while the runs go on; whichever worker ends last, the bar ends full.
        progress.update(job.done().get(), s.runs());
        Worker first = workers[0];
        for (Worker w : workers) {
            first.sameClaim(w.claim);
        }
        PrivacyReport claim = first.claim;
        DpEvent ledger = first.ledger;
        PrivacyAccountant planAccountant = first.planAccountant;
        if (ledger instanceof NonPrivateEvent || !Double.isFinite(claim.epsilon())) {
            throw Checks.fail("algorithm", "a private one (an audit tests a finite claimed epsilon)", t.algorithm());
        }
        PrivacyAccountant claimAcc = t.claimAccountant() != null ? t.claimAccountant() : planAccountant;
        if (claimAcc == null) {
            throw new IllegalStateException(t.algorithm() + ": the plan names no accountant and the audit target "
                    + "gives none");
        }
        return analyse(t, mutant, s, scores[1], scores[0], claim, ledger, claimAcc, t0);
    }

    /**
     * Threads an audit uses (at most the available processors). Every run has its own seed and its own
     * optimizer state, so the scores do not depend on the number of threads.
     */
    static final int THREADS = 2;

    private static void runAll(Worker[] workers) {
        if (workers.length == 1) {
            workers[0].run();
            return;
        }
        Thread[] th = new Thread[workers.length - 1];
        for (int w = 1; w < workers.length; w++) {
            th[w - 1] = new Thread(workers[w], "audit-" + w);
            th[w - 1].start();
        }
        workers[0].run();
        for (Thread x : th) {
            try {
                x.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("audit interrupted", e);
            }
        }
        for (Worker w : workers) {
            if (w.failure != null) {
                if (w.failure instanceof RuntimeException re) {
                    throw re;
                }
                throw new IllegalStateException(w.failure);
            }
        }
    }

    /**
     * What the workers of one audit share: the target, the settings, the score table they fill, the
     * number of workers (the stride of each one's runs), the count of finished runs and the progress sink.
     */
    private record Job(AuditTarget t, Settings s, double[][] scores, int stride, AtomicLong done,
            Progress progress) {
    }

    /** Runs i ≡ offset (mod stride) on both datasets, with its own optimizer, observer and problems. */
    private static final class Worker implements Runnable {
        private final Job job;
        private final int offset;
        private final ReleaseRecorder recorder;
        private final PrivateOptimizer opt;
        private final Problem[] problems;
        private final RunPlan plan;
        PrivacyReport claim;
        DpEvent ledger;
        PrivacyAccountant planAccountant;
        Throwable failure;

        Worker(Job job, Mutation mutant, int offset) {
            this.job = job;
            this.offset = offset;
            AuditTarget t = job.t();
            recorder = new ReleaseRecorder(t.pair().direction());
            opt = t.factory().build(mutant, recorder);
            problems = new Problem[] {t.pair().problem(false, t.loss(), t.domain()),
                t.pair().problem(true, t.loss(), t.domain())};
            plan = planOnce(opt, problems[1], t);
        }

        @Override
        public void run() {
            try {
                int perSide = job.s().runs() / 2;
                for (int i = offset; i < perSide; i += job.stride()) {
                    for (int side = 0; side < 2; side++) {
                        runOne(side, i);
                    }
                }
            } catch (RuntimeException | Error e) {
                failure = e;
                if (offset == 0) {
                    throw e;
                }
            }
        }

        private void runOne(int side, int i) {
            AuditTarget t = job.t();
            UniformRandomProvider rng = Rngs.seeded(runSeed(job.s().seed(), side, i));
            recorder.reset();
            Problem p = problems[side];
            OptimizationResult r = plan != null ? opt.run(p, plan, rng) : opt.optimize(p, t.budget(), rng);
            int k = t.pair().canaries();
            for (int c = 0; c < k; c++) {
                RunView view = recorder.view(r.solution(), c);
                if (t.statistic().whiteBox() && view.releases() == 0 && view.selections().length == 0) {
                    throw new IllegalStateException("the white-box statistic " + t.statistic().name()
                            + " observed no release of " + opt.name() + " (its releases are not reported to the "
                            + "observer)");
                }
                job.scores()[side][i * k + c] = t.statistic().score(view);
            }
            if (claim == null) {
                claim = r.privacy();
                ledger = r.ledger();
                planAccountant = r.plan().accountant();
            } else {
                sameClaim(r.privacy());
            }
            long n = job.done().incrementAndGet();
            if (offset == 0) {
                job.progress().update(n, job.s().runs());
            }
        }

        void sameClaim(PrivacyReport other) {
            if (Math.abs(other.epsilon() - claim.epsilon()) > 1e-9 * Math.max(1, claim.epsilon())
                    || other.delta() != claim.delta()) {
                throw new IllegalStateException("runs claim different guarantees: " + claim + " and " + other);
            }
        }
    }

    private static RunPlan planOnce(PrivateOptimizer opt, Problem with, AuditTarget t) {
        try {
            return opt.plan(with.shape(), t.budget());
        } catch (IllegalStateException notPorted) {
            // TRANSITIONAL: an optimizer not yet on the run core plans inside optimize() only
            return null;
        }
    }

    private static AuditResult analyse(AuditTarget t, Mutation mutant, Settings s, double[] with, double[] without,
            PrivacyReport claim, DpEvent ledger, PrivacyAccountant claimAcc, long t0) {
        int k = t.pair().canaries();
        double alpha = s.alpha();
        double delta = claim.delta();
        double fixed = t.statistic().fixedThreshold();
        EpsilonLowerBound.Evaluation[] e = AuditResult.analyse(with, without, s.runs() / 2, k, fixed, alpha, delta);
        EpsilonLowerBound.Evaluation cp = e[0];
        EpsilonLowerBound.Evaluation gdp = e[1];
        PrivacyAccountant curve = t.curveAccountant() != null ? t.curveAccountant() : claimAcc;
        // the ledger test reads the Gaussian-DP evaluation's rates: one threshold, one confidence statement
        LedgerFamily family = new LedgerFamily(ledger, curve, claimAcc, delta);
        LedgerFamily.Result lt = family.test(gdp.fprUpper(), gdp.fnrUpper());
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new AuditResult(t.algorithm(), t.design(), mutant, t.statistic().name(), t.statistic().whiteBox(),
                t.pair().relation().toString(), t.pair().description(), claim.epsilon(), delta, claim.accountant(),
                ledger.describe(), alpha, s.runs(), s.seed(), k, fixed, cp, gdp, lt, family, seconds, with, without);
    }
}
