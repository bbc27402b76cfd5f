package org.dpopt.optim;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Futures;
import org.dpopt.loss.ProblemShape;

/**
 * Everything a run of one optimizer will do that can be known before reading data: made by
 * {@link PrivateOptimizer#plan} from a {@link ProblemShape} and a budget, it holds the privacy
 * statement (the composed event every run records), the accountant that certifies it, the planned
 * public parameters, and the optimizer's own schedule ({@link #detail}). Calibrate once, run many
 * seeds: {@code opt.run(problem, plan, rng)} reuses a plan.
 *
 * <p>Immutable.
 */
public final class RunPlan {
    private final String algorithm;
    private final ProblemShape shape;
    private final PrivacyBudget budget;
    private final DpEvent statement;
    private final PrivacyAccountant accountant;
    private final NeighboringRelation relation;
    private final RunParameters parameters;
    private final boolean budgetBinding;
    private final boolean exactSizeRequired;
    private final Object detail;
    private volatile PrivacyReport report;
    private CompletableFuture<PrivacyReport> pending;

    /**
     * Runs a report computed ahead ({@link #prepareReport}) on a daemon thread of its own, which ends with
     * the computation: no thread of the library stays behind once the report is known.
     */
    private static final Executor AHEAD = task -> {
        Thread t = new Thread(task, "dpopt-report-ahead");
        t.setDaemon(true);
        t.start();
    };

    private RunPlan(Builder b) {
        this.algorithm = Checks.notNull("algorithm", b.algorithm);
        this.shape = Checks.notNull("shape", b.shape);
        this.statement = DpEvents.normalize(Checks.notNull("statement", b.statement));
        this.relation = Checks.notNull("relation", b.relation);
        this.budget = b.budget;
        this.accountant = b.accountant;
        if (accountant != null && accountant.relation() != relation) {
            throw Checks.fail("accountant relation", "the plan's relation " + relation, accountant.relation());
        }
        if (accountant == null && budget != null) {
            throw Checks.fail("accountant", "given for a private plan", null);
        }
        this.parameters = b.parameters == null ? RunParameters.empty() : b.parameters;
        this.budgetBinding = b.budgetBinding;
        this.exactSizeRequired = b.exactSizeRequired;
        this.detail = b.detail;
    }

    /** A builder (for optimizer implementations). */
    public static Builder builder(String algorithm, ProblemShape shape) {
        Builder b = new Builder();
        b.algorithm = algorithm;
        b.shape = shape;
        return b;
    }

    /** The optimizer's name. */
    public String algorithm() {
        return algorithm;
    }

    /** The public shape the plan was made for. */
    public ProblemShape shape() {
        return shape;
    }

    /** The target budget; null for a non-private plan. */
    public PrivacyBudget budget() {
        return budget;
    }

    /** The canonical composed event every run of this plan records. */
    public DpEvent statement() {
        return statement;
    }

    /** The accountant that calibrated the plan and certifies its runs; null for a non-private plan. */
    public PrivacyAccountant accountant() {
        return accountant;
    }

    /** The neighbouring relation the statement refers to. */
    public NeighboringRelation relation() {
        return relation;
    }

    /** Planned public quantities (noise multiplier, steps, step sizes, ...). */
    public RunParameters parameters() {
        return parameters;
    }

    /**
     * True if the plan was calibrated to the budget, so a run must certify ε ≤ budget; false when the
     * caller fixed the noise (the report then states what was spent).
     */
    public boolean budgetBinding() {
        return budgetBinding;
    }

    /**
     * True if the schedule addresses records by position (fixed batches, chunks, parts), so the
     * planned size must equal the number of rows; false if it works for any dataset no larger than
     * the planned size (Poisson sampling).
     */
    public boolean exactSizeRequired() {
        return exactSizeRequired;
    }

    /**
     * The accountant's report on the statement at the budget's δ, computed once per plan (every run of the
     * plan records the statement, so all its runs share it); null for a non-private plan.
     */
    public PrivacyReport report() {
        if (accountant == null) {
            return null;
        }
        PrivacyReport r = report;
        if (r == null) {
            CompletableFuture<PrivacyReport> f;
            synchronized (this) {
                f = pending;
            }
            r = f != null ? Futures.join(f) : accountant.report(statement, budget.delta());
            report = r;
        }
        return r;
    }

    /**
     * Starts computing {@link #report()} on a background daemon thread (which ends with it), for a caller that will ask for it
     * after other work (a run computes it ahead while it iterates); {@link #report()} then waits for that
     * result, or rethrows its exception. The report is the same: a pure function of the statement and δ.
     * Only the PLD accountant's report is computed ahead: it costs FFTs (its lower bound is not part of
     * calibration) and that accountant may be called from several threads; for any other accountant, a
     * non-private plan, or a report known or under way, nothing happens.
     */
    public void prepareReport() {
        if (!(accountant instanceof PldAccountant) || report != null) {
            return;
        }
        synchronized (this) {
            if (pending == null) {
                pending = CompletableFuture.supplyAsync(() -> accountant.report(statement, budget.delta()), AHEAD);
            }
        }
    }


    /**
     * The optimizer's own schedule, for the optimizer that made the plan.
     *
     * @throws IllegalArgumentException if the plan was made by another optimizer
     */
    public <T> T detail(Class<T> type) {
        if (!type.isInstance(detail)) {
            throw Checks.fail("plan", "made by the optimizer it is run with (" + type.getSimpleName() + ")",
                    algorithm);
        }
        return type.cast(detail);
    }

    @Override
    public String toString() {
        return "RunPlan[" + algorithm + ", n=" + shape.size() + ", d=" + shape.dimension() + ", "
                + statement.describe() + ", " + parameters + "]";
    }

    /** Builder. */
    public static final class Builder {
        private String algorithm;
        private ProblemShape shape;
        private PrivacyBudget budget;
        private DpEvent statement;
        private PrivacyAccountant accountant;
        private NeighboringRelation relation;
        private RunParameters parameters;
        private boolean budgetBinding = true;
        private boolean exactSizeRequired = true;
        private Object detail;

        private Builder() {
        }

        /** The privacy statement, its relation and the accountant that certifies it under budget. */
        public Builder privacy(DpEvent stmt, NeighboringRelation rel, PrivacyAccountant acc, PrivacyBudget b) {
            this.statement = stmt;
            this.relation = rel;
            this.accountant = acc;
            this.budget = b;
            return this;
        }

        /** Planned parameters. */
        public Builder parameters(RunParameters p) {
            this.parameters = p;
            return this;
        }

        /** See {@link RunPlan#budgetBinding()} (default true). */
        public Builder budgetBinding(boolean on) {
            this.budgetBinding = on;
            return this;
        }

        /** See {@link RunPlan#exactSizeRequired()} (default true). */
        public Builder exactSizeRequired(boolean on) {
            this.exactSizeRequired = on;
            return this;
        }

        /** The optimizer's own schedule object. */
        public Builder detail(Object d) {
            this.detail = d;
            return this;
        }

        /** The immutable plan. */
        public RunPlan build() {
            return new RunPlan(this);
        }
    }
}
