package org.dpopt.optim.objpert;

import static org.dpopt.optim.objpert.ObjPertFixtures.classification;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunPlan;
import org.dpopt.oracle.DataPasses;
import org.dpopt.oracle.DatasetPasses;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * The distributed entry points ({@code run(DataPasses, shape, plan, rng)}) run the in-memory algorithm:
 * through passes that add in the in-memory order but fetch rows as a distributed engine does (a copy
 * of the distinct requested rows), both variants give the in-memory model bit for bit — so the SVRG
 * index draws, their chunking and the row positions are faithful — and the failure paths release the
 * same data-independent point. Deterministic (fixed seeds).
 */
class DistributedEntryTest {

    /** In-memory sums; rows fetched as a copy of the distinct ids, in id order (as SparkPasses does). */
    static final class FetchingPasses implements DataPasses {
        final DatasetPasses inner;
        long fetched;
        long calls;

        FetchingPasses(Dataset data) {
            inner = new DatasetPasses(data);
        }

        @Override
        public long size() {
            return inner.size();
        }

        @Override
        public int dimension() {
            return inner.dimension();
        }

        @Override
        public double meanLoss(GeneralizedLinearLoss loss, DMatrixRMaj w) {
            return inner.meanLoss(loss, w);
        }

        @Override
        public void meanGradient(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj out) {
            inner.meanGradient(loss, w, out);
        }

        @Override
        public void meanHessian(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj h) {
            inner.meanHessian(loss, w, h);
        }

        @Override
        public Rows rows(long[] ids, int count) {
            int[] distinct = Arrays.stream(Arrays.copyOf(ids, count)).mapToInt(Math::toIntExact).sorted().distinct()
                    .toArray();
            int[] at = new int[count];
            for (int t = 0; t < count; t++) {
                at[t] = Arrays.binarySearch(distinct, (int) ids[t]);
            }
            fetched += distinct.length;
            calls++;
            return new Rows(inner.data().subset(distinct), at);
        }

        @Override
        public void requireSupNorm(double bound) {
            inner.requireSupNorm(bound);
        }
    }

    private static final PrivacyBudget B = PrivacyBudget.of(1, 1e-5);

    private static void sameRelease(OptimizationResult mem, OptimizationResult dist) {
        assertArrayEquals(mem.solution().data, dist.solution().data, 0.0, "bit for bit");
        assertEquals(mem.privacy(), dist.privacy());
        assertEquals(mem.ledger(), dist.ledger());
        assertEquals(mem.plan().statement(), dist.ledger());
        assertEquals(mem.parameters(), dist.parameters());
    }

    @Test
    void exactVariantThroughPassesIsTheInMemoryRun() {
        for (ConvexSet dom : new ConvexSet[] {ConvexSets.l2Ball(1), ConvexSets.l2Ball(0.2)}) {
            Problem p = Problem.of(classification(400, 4, 3), Losses.logistic(), dom);
            for (ObjectivePerturbation op : new ObjectivePerturbation[] {ObjectivePerturbation.builder().build(),
                ObjectivePerturbation.builder().newtonSteps(1).build()}) {
                RunPlan plan = op.plan(p.shape(), B);
                sameRelease(op.run(p, plan, Rngs.seeded(2)),
                        op.run(new FetchingPasses(p.data()), p.shape(), plan, Rngs.seeded(2)));
            }
        }
    }

    @Test
    void svrgThroughFetchedRowsIsTheInMemoryRunInAnyChunking() {
        Problem p = Problem.of(classification(400, 4, 5), Losses.logistic(), ConvexSets.l2Ball(1));
        ApproximateObjectivePerturbation op = ApproximateObjectivePerturbation.builder().build();
        RunPlan plan = op.plan(p.shape(), B);
        OptimizationResult mem = op.run(p, plan, Rngs.seeded(4));
        FetchingPasses passes = new FetchingPasses(p.data());
        sameRelease(mem, op.run(passes, p.shape(), plan, Rngs.seeded(4)));
        SvrgSchedule s = plan.detail(SvrgSchedule.class);
        long k = Svrg.schedule(s.perturbation().lambda(), s.perturbation().beta(), false).innerSteps();
        assertEquals(s.epochs(), passes.calls, "one fetch per epoch when k fits one chunk");
        assertTrue(passes.fetched <= s.epochs() * Math.min(k, 400), "at most k distinct rows per epoch");
        // chunks of 7 ids draw the same indices in the same order: the same iterates, bit for bit
        for (int chunk : new int[] {1, 7, (int) k - 1}) {
            DMatrixRMaj lin = DMatrixRMaj.wrap(4, 1, new double[] {0.003, -0.001, 0.002, 0.004});
            PerturbedObjective a = new PerturbedObjective(new DatasetPasses(p.data()), Losses.logistic(),
                    ConvexSets.l2Ball(1), lin, 0.05, 1, 0.25);
            PerturbedObjective b = new PerturbedObjective(new FetchingPasses(p.data()), Losses.logistic(),
                    ConvexSets.l2Ball(1), lin, 0.05, 1, 0.25);
            Svrg.Result ra = Svrg.solve(a, 1e-12, 3, false, Rngs.seeded(9));
            Svrg.Result rb = Svrg.solve(b, 1e-12, 3, false, Rngs.seeded(9), chunk);
            assertArrayEquals(ra.w().data, rb.w().data, 0.0, "chunk " + chunk);
        }
        assertNotEquals(mem.solution().get(0), op.run(p, plan, Rngs.seeded(5)).solution().get(0));
    }

    @Test
    void forcedFailuresReleaseTheDataIndependentPointThroughPassesToo() {
        Problem p1 = Problem.of(classification(300, 4, 41), Losses.logistic(), ConvexSets.l2Ball(2));
        Problem p2 = Problem.of(classification(300, 4, 43), Losses.logistic(), ConvexSets.l2Ball(2));
        ObjectivePerturbation failing = ObjectivePerturbation.builder().newtonSteps(1).backupStepsForTesting(1)
                .build();
        RunPlan plan = failing.plan(p1.shape(), B);
        OptimizationResult r1 = failing.run(new FetchingPasses(p1.data()), p1.shape(), plan, Rngs.seeded(9));
        OptimizationResult r2 = failing.run(new FetchingPasses(p2.data()), p2.shape(), plan, Rngs.seeded(9));
        assertArrayEquals(new double[4], r1.solution().data, 0.0);
        assertArrayEquals(r1.solution().data, r2.solution().data, 0.0);
        assertEquals(r1.privacy().toString(), r2.privacy().toString());
        assertTrue(r1.nonPrivateDiagnostics().isEmpty());
        assertEquals(1e-5, r1.privacy().delta(), 0);
        OptimizationResult d = failing.toBuilder().diagnostics(true).build().run(new FetchingPasses(p1.data()),
                p1.shape(), plan, Rngs.seeded(9));
        assertEquals(2, d.nonPrivateDiagnostics().get(Diagnostic.SOLVER_FALLBACK));
    }

    @Test
    void rowsOtherThanThePlannedNAreRefused() {
        Problem p = Problem.of(classification(300, 4, 1), Losses.logistic(), ConvexSets.l2Ball(1));
        RunPlan exact = ObjectivePerturbation.builder().build().plan(p.shape(), B);
        RunPlan svrg = ApproximateObjectivePerturbation.builder().build().plan(p.shape(), B);
        FetchingPasses fewer = new FetchingPasses(classification(299, 4, 1));
        String m1 = assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.builder().build()
                .run(fewer, p.shape(), exact, Rngs.seeded(1))).getMessage();
        String m2 = assertThrows(IllegalArgumentException.class, () -> ApproximateObjectivePerturbation.builder()
                .build().run(fewer, p.shape(), svrg, Rngs.seeded(1))).getMessage();
        assertTrue(m1.contains("equal to the number of rows 299"), m1);
        assertEquals(m1.replace("objective-perturbation", "objective-perturbation-svrg"), m2);
    }
}
