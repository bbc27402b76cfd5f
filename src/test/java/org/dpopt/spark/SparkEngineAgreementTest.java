package org.dpopt.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.geometry.Polytope;
import org.dpopt.geometry.Polytopes;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;
import org.dpopt.optim.objpert.ApproximateObjectivePerturbation;
import org.dpopt.optim.objpert.ObjectivePerturbation;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.sampling.PlanKey;
import org.dpopt.sampling.PlannedPoissonSampler;
import org.dpopt.sampling.Samplers;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same key, the same batches; the same generator, the same model and report: the Spark engine
 * against the in-memory one on n = 10⁴ synthetic rows (d = 8) read from one CSV file by both readers.
 * All comparisons are deterministic (fixed seeds); none can pass by chance.
 */
class SparkEngineAgreementTest {

    static final int N = 10_000;
    static final int D = 8;
    @TempDir
    static Path dir;
    static Dataset memory;
    static DistributedData spark;

    @BeforeAll
    static void read() throws Exception {
        SparkTests.Both both = SparkTests.logistic(dir, N, D, 1);
        memory = both.memory();
        spark = both.spark();
    }

    @Test
    void readersGiveTheSameRowsBitForBit() {
        assertEquals(N, spark.rows());
        assertEquals(D, spark.dimension());
        Dataset back = spark.collect();
        assertArrayEquals(memory.features().data, back.features().data);
        assertArrayEquals(memory.labels(), back.labels());
    }

    @Test
    void sameKeySameBatchesEveryStepPoissonAndTruncated() {
        for (PlannedPoissonSampler s : new PlannedPoissonSampler[] {new PlannedPoissonSampler(100, 100, 0),
                new PlannedPoissonSampler(100, 100, 100)}) {
            int[][] want = s.plan(N, PlanKey.draw(Rngs.seeded(7))).materialize();
            for (SparkBatches.Layout layout : SparkBatches.Layout.values()) {
                SparkBatches b = new SparkBatches(spark, Losses.logistic(), null, layout);
                b.open(s, N, Rngs.seeded(7));
                Map<Long, long[]> got = b.members();
                int truncatedSteps = 0;
                for (int t = 0; t < 100; t++) {
                    long[] g = got.getOrDefault((long) t, new long[0]);
                    assertArrayEquals(java.util.Arrays.stream(want[t]).asLongStream().toArray(), g,
                            s.name() + " " + layout + " step " + t);
                    truncatedSteps += g.length == 100 ? 1 : 0;
                }
                if (s.truncated()) {
                    // Bin(10⁴, 0.01) > 100 has probability 0.47: some of 100 steps are cut (false failure 1e-27)
                    assertTrue(truncatedSteps > 0, "some steps truncated");
                }
            }
        }
    }

    @Test
    void sameKeySameBatchesForKeyedShuffles() {
        for (boolean persistent : new boolean[] {true, false}) {
            org.dpopt.sampling.PlannedShuffleSampler s = new org.dpopt.sampling.PlannedShuffleSampler(500, 2, persistent);
            int[][] want = s.plan(N, PlanKey.draw(Rngs.seeded(8))).materialize();
            SparkBatches b = new SparkBatches(spark, Losses.logistic(), null);
            b.open(s, N, Rngs.seeded(8));
            Map<Long, long[]> got = b.members();
            assertEquals(40, want.length);
            boolean[] seen = new boolean[N];
            for (int t = 0; t < 40; t++) {
                assertArrayEquals(java.util.Arrays.stream(want[t]).asLongStream().toArray(), got.get((long) t),
                        s.name() + " step " + t);
                if (t < 20) {
                    for (int i : want[t]) {
                        assertTrue(!seen[i], "each record once per epoch");
                        seen[i] = true;
                    }
                }
            }
            boolean sameEpochs = java.util.Arrays.deepEquals(java.util.Arrays.copyOfRange(want, 0, 20),
                    java.util.Arrays.copyOfRange(want, 20, 40));
            assertEquals(persistent, sameEpochs, "persistent: the same batches every epoch; dynamic: new ones");
        }
    }

    @Test
    void eachStepReadsOnlyItsOwnBatch() {
        PlannedPoissonSampler s = new PlannedPoissonSampler(100, 100, 130);
        for (SparkBatches.Layout layout : SparkBatches.Layout.values()) {
            SparkBatches b = new SparkBatches(spark, Losses.logistic(), null, layout);
            b.open(s, N, Rngs.seeded(3));
            Map<Long, long[]> members = b.members();
            assertTrue(b.planPartitions() >= 2, "the plan is spread over partitions: " + b.planPartitions());
            DMatrixRMaj w = new DMatrixRMaj(D, 1);
            for (long t = 0; t < 100; t += 9) {
                b.addBatch(t, w, 1.0, new DMatrixRMaj(D, 1));
                SparkBatches.StepStats st = b.lastStep();
                assertEquals(members.getOrDefault(t, new long[0]).length, st.rowsRead(), layout + " rows read at " + t);
                assertTrue(st.rowsRead() <= 130, "at most B rows");
                if (layout == SparkBatches.Layout.BY_STEP) {
                    assertEquals(1, st.partitions(), "one partition per step");
                    assertTrue(st.batchesVisited() <= 100 / b.planPartitions() + 1, "batches " + st.batchesVisited());
                } else {
                    assertEquals(b.planPartitions(), st.partitions(), "one task per block, each on its own members");
                }
            }
        }
    }

    @Test
    void driverSampledStepsReadOnlyTheirBatch() {
        org.dpopt.sampling.PoissonSampler s = new org.dpopt.sampling.PoissonSampler(100, 20);
        org.dpopt.sampling.BatchSampler.BatchIterator it = s.iterator(N, Rngs.seeded(6));
        int[] idx = new int[N];
        double[] w = new double[N];
        SparkBatches b = new SparkBatches(spark, Losses.logistic(), null);
        b.open(s, N, Rngs.seeded(6));
        for (long t = 0; t < 20; t++) {
            int k = it.next(idx, w);
            b.addBatch(t, new DMatrixRMaj(D, 1), 1.0, new DMatrixRMaj(D, 1));
            assertEquals(k, b.lastStep().rowsRead(), "rows read = the in-memory sampler's batch at step " + t);
        }
    }

    @Test
    void dpSgdSameGeneratorSameModelAndReport() {
        for (String sampler : new String[] {"poisson", "truncated-poisson", "shuffle-dynamic", "planned-poisson",
            "planned-truncated-poisson", "planned-shuffle-dynamic"}) {
            NoisySgd opt = NoisySgd.builder().sampler(Samplers.byName(sampler)).batchSize(200).epochs(2)
                    .learningRate(0.5).build();
            Problem problem = Problem.of(memory, Losses.logistic());
            RunPlan plan = opt.plan(problem.shape(), PrivacyBudget.of(1.0, 1e-5));
            OptimizationResult mem = opt.run(problem, plan, Rngs.seeded(11));
            ProblemShape shape = spark.shape(Losses.logistic(), ConvexSets.unconstrained(), 0);
            OptimizationResult dist = opt.run(new SparkBatches(spark, Losses.logistic(), null), shape, spark.rows(),
                    plan, Rngs.seeded(11));
            assertClose(mem.solution(), dist.solution(), 1e-9);
            assertEquals(mem.privacy(), dist.privacy());
            assertEquals(plan.statement(), dist.ledger(), "ledger == statement");
            assertEquals(mem.ledger(), dist.ledger());
            if (sampler.startsWith("planned-")) {
                OptimizationResult byStep = opt.run(new SparkBatches(spark, Losses.logistic(), null,
                        SparkBatches.Layout.BY_STEP), shape, spark.rows(), plan, Rngs.seeded(11));
                assertArrayEquals(mem.solution().data, byStep.solution().data, "by-step layout: bit for bit");
            }
            OptimizationResult other = opt.run(new SparkBatches(spark, Losses.logistic(), null), shape, spark.rows(),
                    plan, Rngs.seeded(12));
            assertNotEquals(dist.solution().get(0), other.solution().get(0), "another seed, another model");
        }
    }

    @Test
    void dpSgdSecureByDefaultRunsAndDiffers() {
        NoisySgd opt = NoisySgd.builder().sampler(Samplers.byName("planned-poisson")).batchSize(500).epochs(1).build();
        ProblemShape shape = spark.shape(Losses.logistic(), ConvexSets.unconstrained(), 0);
        RunPlan plan = opt.plan(shape, PrivacyBudget.of(1.0, 1e-5));
        OptimizationResult a = opt.run(new SparkBatches(spark, Losses.logistic(), null), shape, N, plan, Rngs.secure());
        OptimizationResult b = opt.run(new SparkBatches(spark, Losses.logistic(), null), shape, N, plan, Rngs.secure());
        assertEquals("secure", a.noise());
        assertNotEquals(a.solution().get(0), b.solution().get(0));
        assertEquals(plan.statement(), a.ledger());
    }

    @Test
    void noisyFrankWolfeSameGeneratorSameModelAndReport() {
        Polytope l1 = Polytopes.l1Ball(5);
        NoisyFrankWolfe opt = NoisyFrankWolfe.builder().iterations(40).build();
        Problem problem = Problem.of(memory, Losses.logistic(), l1);
        RunPlan plan = opt.plan(problem.shape(), PrivacyBudget.of(1.0, 1e-5));
        OptimizationResult mem = opt.run(problem, plan, Rngs.seeded(5));
        SparkPasses passes = new SparkPasses(spark);
        OptimizationResult dist = opt.run(passes, spark.shape(Losses.logistic(), l1, 0), plan, Rngs.seeded(5));
        assertEquals(40, passes.counts().passes(), "one distributed full-gradient pass per step");
        assertClose(mem.solution(), dist.solution(), 1e-9);
        assertEquals(mem.privacy(), dist.privacy());
        assertEquals(plan.statement(), dist.ledger());
    }

    /**
     * noisy-frank-wolfe's practical default (Poisson batches, drawn on the driver by the same iterator on
     * the same generator): the Spark batch sums give the in-memory release, report, ledger and parameters.
     */
    @Test
    void noisyFrankWolfeOnPoissonBatchesSameGeneratorSameModelAndReport() {
        Polytope l1 = Polytopes.l1Ball(5);
        NoisyFrankWolfe opt = NoisyFrankWolfe.builder().build();
        Problem problem = Problem.of(memory, Losses.logistic(), l1);
        RunPlan plan = opt.plan(problem.shape(), PrivacyBudget.of(1.0, 1e-5));
        assertTrue(NoisyFrankWolfe.onBatches(plan));
        OptimizationResult mem = opt.run(problem, plan, Rngs.seeded(6));
        OptimizationResult dist = opt.run(new SparkBatches(spark, Losses.logistic(), null),
                spark.shape(Losses.logistic(), l1, 0), N, plan, Rngs.seeded(6));
        sameRelease(plan, mem, dist);
    }

    @Test
    void objectivePerturbationSameGeneratorSameModelAndReport() {
        ConvexSet ball = ConvexSets.l2Ball(1);
        Problem problem = Problem.of(memory, Losses.logistic(), ball);
        ProblemShape shape = spark.shape(Losses.logistic(), ball, 0);
        PrivacyBudget budget = PrivacyBudget.of(1.0, 1e-5);
        // the certified Newton solve, and (one Newton step) the certified backup solve
        for (ObjectivePerturbation opt : new ObjectivePerturbation[] {ObjectivePerturbation.builder()
                .diagnostics(true).build(), ObjectivePerturbation.builder().newtonSteps(1).diagnostics(true).build()}) {
            RunPlan plan = opt.plan(problem.shape(), budget);
            OptimizationResult mem = opt.run(problem, plan, Rngs.seeded(21));
            OptimizationResult dist = opt.run(new SparkPasses(spark), shape, plan, Rngs.seeded(21));
            sameRelease(plan, mem, dist);
            assertEquals(mem.nonPrivateDiagnostics().get(Diagnostic.SOLVER_FALLBACK),
                    dist.nonPrivateDiagnostics().get(Diagnostic.SOLVER_FALLBACK), "the same solve path");
            assertEquals(mem.nonPrivateDiagnostics().get(Diagnostic.TRAIN_LOSS),
                    dist.nonPrivateDiagnostics().get(Diagnostic.TRAIN_LOSS), 1e-12);
        }
    }

    @Test
    void svrgObjectivePerturbationSameDrawsSameModelReadingOnlyTheDrawnRows() {
        ConvexSet ball = ConvexSets.l2Ball(1);
        Problem problem = Problem.of(memory, Losses.logistic(), ball);
        ProblemShape shape = spark.shape(Losses.logistic(), ball, 0);
        ApproximateObjectivePerturbation opt = ApproximateObjectivePerturbation.builder().build();
        RunPlan plan = opt.plan(problem.shape(), PrivacyBudget.of(1.0, 1e-5));
        OptimizationResult mem = opt.run(problem, plan, Rngs.seeded(23));
        SparkPasses passes = new SparkPasses(spark);
        OptimizationResult dist = opt.run(passes, shape, plan, Rngs.seeded(23));
        sameRelease(plan, mem, dist);
        long epochs = (long) plan.parameters().real(Param.EPOCHS);
        long k = (long) plan.parameters().real(Param.INNER_STEPS);
        assertEquals(epochs + 1, passes.counts().passes(), "one full pass per anchor");
        assertEquals(0, passes.counts().fetchJobs(), "each epoch's rows come with the anchor pass before it: no other job");
        long fetched = passes.counts().rowsFetched();
        assertTrue(fetched <= epochs * k, "at most k rows per epoch: " + fetched);
        assertTrue(fetched > 0.9 * epochs * k * Math.exp(-k / (double) N), "distinct draws fetched");
        // with early stopping the epochs are not known in advance: each epoch's rows are a job of their own
        ApproximateObjectivePerturbation early = opt.toBuilder().earlyStop(true).build();
        RunPlan earlyPlan = early.plan(problem.shape(), PrivacyBudget.of(1.0, 1e-5));
        SparkPasses separate = new SparkPasses(spark);
        sameRelease(earlyPlan, early.run(problem, earlyPlan, Rngs.seeded(23)),
                early.run(separate, shape, earlyPlan, Rngs.seeded(23)));
        assertEquals(separate.counts().passes() - 1, separate.counts().fetchJobs(), "one fetch job per epoch run");
    }

    /**
     * The constant check on Spark: the executors' counts are the in-memory ones exactly, and a checked
     * noisy Frank–Wolfe run (trained stage with distributed passes, then the check on those counts) gives
     * the in-memory release and report.
     */
    @Test
    void constantCheckCountsOnTheExecutorsAndReleasesAsInMemory() {
        double c = 0.5;
        DistributedData withColumn = spark.withConstantColumn(c);
        Problem problem = Problem.of(memory, Losses.logistic(), Polytopes.l1Ball(5)).withIntercept(c);
        org.dpopt.optim.check.ClassCounts mine = org.dpopt.optim.check.ClassCounts.of(problem.data());
        org.dpopt.optim.check.ClassCounts theirs = withColumn.classCounts();
        assertEquals(mine.rows(), theirs.rows());
        assertEquals(mine.positives(), theirs.positives());
        org.apache.commons.rng.UniformRandomProvider g = Rngs.seeded(31);
        for (int k = 0; k < 3; k++) {
            DMatrixRMaj w = new DMatrixRMaj(D + 1, 1);
            for (int j = 0; j <= D; j++) {
                w.set(j, 0, g.nextDouble() - 0.5);
            }
            assertEquals(mine.correct(w), theirs.correct(w), "correct count of w " + k);
        }
        NoisyFrankWolfe fw = NoisyFrankWolfe.builder().iterations(20).build();
        org.dpopt.optim.check.ConstantCheck check = org.dpopt.optim.check.ConstantCheck.builder(fw).build();
        RunPlan plan = check.plan(problem.shape(), PrivacyBudget.of(1.0, 1e-5));
        OptimizationResult mem = check.run(problem, plan, Rngs.seeded(33));
        ProblemShape shape = withColumn.shape(Losses.logistic(), Polytopes.l1Ball(5), 0);
        org.apache.commons.rng.UniformRandomProvider rng = Rngs.seeded(33);
        OptimizationResult trained = fw.run(new SparkPasses(withColumn), shape,
                org.dpopt.optim.check.ConstantCheck.trainedPlan(plan), rng);
        OptimizationResult dist = check.check(plan, shape, trained, theirs, rng);
        sameRelease(plan, mem, dist);
        withColumn.unpersist();
    }

    /** Same model to 1e-9, same report, ledger == statement, same public parameters. */
    private static void sameRelease(RunPlan plan, OptimizationResult mem, OptimizationResult dist) {
        assertClose(mem.solution(), dist.solution(), 1e-9);
        assertEquals(mem.privacy(), dist.privacy());
        assertEquals(plan.statement(), dist.ledger(), "ledger == statement");
        assertEquals(mem.ledger(), dist.ledger());
        assertEquals(mem.parameters(), dist.parameters());
    }

    static void assertClose(DMatrixRMaj want, DMatrixRMaj got, double rel) {
        double num = 0;
        double den = 0;
        for (int j = 0; j < want.numRows; j++) {
            num += (want.data[j] - got.data[j]) * (want.data[j] - got.data[j]);
            den += want.data[j] * want.data[j];
        }
        assertTrue(Math.sqrt(num) <= rel * Math.sqrt(den), "relative error " + Math.sqrt(num / den));
    }
}
