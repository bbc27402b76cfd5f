package org.dpopt.optim.frankwolfe;

import java.util.function.IntConsumer;
import org.dpopt.data.Dataset;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.core.PrivateRun;
import org.ejml.data.DMatrixRMaj;

/**
 * The loop the one-pass methods share (theory-notes/frank-wolfe.md §3–4):
 * <pre>
 *   order ← a data-independent read order;  k* ~ Uniform{0, …, Rm − 1}
 *   for pass = 1..K (sequential composition), for r = 1..R  (one part of a parallel composition):
 *       d ← (1/b₀) Σ_{next b₀ records} ∇f(w; z)                     anchor
 *       for t = 1..m:  if this is step k*, out ← w;  step: one release from d, a move of w, and
 *                      (t &lt; m) d ← d + (1/b) Σ_{next b records} [∇f(w_new; z) − ∇f(w_old; z)]
 * </pre>
 * The output is the iterate at the uniformly random step k* (the paper preset; its index is a non-private
 * diagnostic) or the last iterate (the practical preset: a function of the released selections only).
 * Subclasses make the step; each record is read once, through {@link #nextRecord()}.
 */
abstract class OnePassRounds {
    final Dataset data;
    final GeneralizedLinearLoss loss;
    final OnePassSchedule schedule;
    /** The running gradient estimate d. */
    final DMatrixRMaj est;
    /** The current iterate (subclasses may swap it with a buffer). */
    DMatrixRMaj w;
    private final int[] order;
    private final IntConsumer visitor;
    private int pos;

    /**
     * Draws the read order from the run's generator.
     *
     * @param visitor told every record index as it is read (a test probe), or null
     */
    OnePassRounds(PrivateRun run, GeneralizedLinearLoss loss, OnePassSchedule schedule, IntConsumer visitor) {
        this.data = run.problem().data();
        this.loss = loss;
        this.schedule = schedule;
        this.visitor = visitor;
        this.est = new DMatrixRMaj(data.dimension(), 1);
        this.w = new DMatrixRMaj(data.dimension(), 1);
        this.order = schedule.order(data.size(), run.rng());
    }

    /**
     * Runs the K passes of R rounds; the rounds of a pass are the parts of one parallel composition, and
     * the passes compose sequentially. Returns the output iterate.
     */
    final DMatrixRMaj iterate(PrivateRun run) {
        int d = data.dimension();
        long chosen = schedule.lastIterate() ? -1 : run.rng().nextLong(schedule.totalSteps());
        DMatrixRMaj out = new DMatrixRMaj(d, 1);
        long k = 0;
        for (int pass = 0; pass < schedule.passes(); pass++) {
            pos = 0; // every pass reads the same data-independent order once
            if (!schedule.parallelRounds()) {
                k = round(k, chosen, out);
                continue;
            }
            try (PrivateRun.Parallel rounds = run.parallel()) {
                for (int r = 0; r < schedule.rounds(); r++) {
                    rounds.nextPart();
                    k = round(k, chosen, out);
                }
            }
        }
        if (schedule.lastIterate()) {
            System.arraycopy(w.data, 0, out.data, 0, d); // post-processing of every released selection
            return out;
        }
        run.diagnose(Diagnostic.OUTPUT_INDEX, chosen);
        return out;
    }

    /** One round from step k (the global index): its anchor and m steps; returns the next index. */
    private long round(long k, long chosen, DMatrixRMaj out) {
        anchorGradient();
        for (int t = 0; t < schedule.steps(); t++, k++) {
            if (k == chosen) {
                System.arraycopy(w.data, 0, out.data, 0, out.numRows);
            }
            step(schedule.step(k), t + 1 < schedule.steps());
        }
        return k;
    }

    /**
     * One step of size mu (at most the schedule's μ): a release computed from {@link #est}, the move of
     * {@link #w}, and, if {@code more}, the difference batch that carries est to the new iterate.
     */
    abstract void step(double mu, boolean more);

    /** The next record of the read order. */
    final int nextRecord() {
        int i = order[pos++];
        if (visitor != null) {
            visitor.accept(i);
        }
        return i;
    }

    /** est ← (1/b₀) Σ ∇f(w; z) over the next b₀ records. */
    private void anchorGradient() {
        java.util.Arrays.fill(est.data, 0.0);
        double inv0 = 1.0 / schedule.anchor();
        for (int a = 0; a < schedule.anchor(); a++) {
            int i = nextRecord();
            data.addScaledRow(i, loss.derivative(data.dot(i, w), data.label(i)) * inv0, est);
        }
    }
}
