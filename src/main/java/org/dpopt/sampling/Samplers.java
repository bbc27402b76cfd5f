package org.dpopt.sampling;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.linalg.Checks;

/**
 * Named sampler recipes: how to build a {@link BatchSampler} for a dataset of public size n from a
 * batch size and a number of epochs. Used by optimizers' builders and the CLI.
 */
public final class Samplers {
    private Samplers() {
    }

    /** Builds a sampler once n is known. */
    @FunctionalInterface
    public interface Recipe {
        /**
         * @param n public dataset size
         * @param batchSize expected (Poisson) or exact batch size b
         * @param epochs E (the step count is derived from n, b and E only)
         */
        BatchSampler create(int n, int batchSize, double epochs);

        /** The neighbouring relation of the samplers this recipe builds (known before n is). */
        default NeighboringRelation relation() {
            return NeighboringRelation.ADD_OR_REMOVE_ONE;
        }
    }

    /** A recipe for zero-out samplers (fixed n). */
    private record ZeroOutRecipe(Recipe body) implements Recipe {
        @Override
        public BatchSampler create(int n, int batchSize, double epochs) {
            return body.create(n, batchSize, epochs);
        }

        @Override
        public NeighboringRelation relation() {
            return NeighboringRelation.ZERO_OUT;
        }
    }

    /** Truncation constant c in B = b + ⌈c√b⌉ used by the {@code truncated-poisson} recipe. */
    public static final double DEFAULT_TRUNCATION_SIGMAS = 8;

    private static final Map<String, Recipe> RECIPES = new LinkedHashMap<>();

    static {
        RECIPES.put("poisson", (n, b, e) -> PoissonSampler.epochs(b, e, n));
        RECIPES.put("truncated-poisson", new ZeroOutRecipe(
                (n, b, e) -> TruncatedPoissonSampler.epochs(b, e, n, DEFAULT_TRUNCATION_SIGMAS)));
        RECIPES.put("planned-poisson", (n, b, e) -> PlannedPoissonSampler.of(PoissonSampler.epochs(b, e, n)));
        RECIPES.put("planned-truncated-poisson", new ZeroOutRecipe((n, b, e) -> PlannedPoissonSampler.of(
                TruncatedPoissonSampler.epochs(b, e, n, DEFAULT_TRUNCATION_SIGMAS))));
        RECIPES.put("planned-shuffle-persistent", new ZeroOutRecipe(
                (n, b, e) -> new PlannedShuffleSampler(b, FixedPartition.integerEpochs(e), true)));
        RECIPES.put("planned-shuffle-dynamic", new ZeroOutRecipe(
                (n, b, e) -> new PlannedShuffleSampler(b, FixedPartition.integerEpochs(e), false)));
        RECIPES.put("deterministic", new ZeroOutRecipe(
                (n, b, e) -> FixedSizeBatchSampler.deterministic(b, FixedPartition.integerEpochs(e))));
        RECIPES.put("shuffle-persistent", new ZeroOutRecipe(
                (n, b, e) -> FixedSizeBatchSampler.persistentShuffle(b, FixedPartition.integerEpochs(e))));
        RECIPES.put("shuffle-dynamic", new ZeroOutRecipe(
                (n, b, e) -> FixedSizeBatchSampler.dynamicShuffle(b, FixedPartition.integerEpochs(e))));
    }

    /**
     * T = max(1, ⌈E·n/b⌉): the step count of E epochs at (expected) batch size b. Depends only on the
     * public n and the configuration — the one place this formula lives.
     */
    public static long epochSteps(double epochs, int n, double batchSize) {
        Checks.positive("epochs", epochs);
        Checks.atLeastOne("n", n);
        Checks.positive("batchSize", batchSize);
        return Math.max(1, (long) Math.ceil(epochs * n / batchSize));
    }

    /** Poisson sampling with q = b/n and T = ⌈E·n/b⌉. */
    public static Recipe poisson() {
        return RECIPES.get("poisson");
    }

    /** Truncated Poisson with an explicit maximum batch size B (T = ⌈E·n/b⌉, zero-out relation). */
    public static Recipe truncatedPoisson(int maxBatchSize) {
        Checks.atLeastOne("maxBatchSize", maxBatchSize);
        return new ZeroOutRecipe((n, b, e) -> {
            return new TruncatedPoissonSampler(b, maxBatchSize, epochSteps(e, n, b));
        });
    }

    /**
     * The planned form (keyed per-record batches, {@link PlannedPoissonSampler}) of Poisson or truncated
     * Poisson sampling with an explicit B: same law, same event.
     */
    public static Recipe plannedTruncatedPoisson(int maxBatchSize) {
        Recipe r = truncatedPoisson(maxBatchSize);
        return new ZeroOutRecipe((n, b, e) -> PlannedPoissonSampler.of((TruncatedPoissonSampler) r.create(n, b, e)));
    }

    /**
     * The sampler of a recipe for a run of exactly {@code steps} batches instead of a number of epochs
     * (what {@code dpopt account --steps} describes): Poisson kinds run T = steps batches of expected
     * size b; the fixed partitions need steps to be a whole number E of epochs of n/b batches.
     *
     * @param name a recipe name ({@link #names()})
     * @param n public dataset size
     * @param batchSize b (expected for Poisson kinds, exact for fixed partitions; b | n for those)
     * @param steps T ≥ 1
     * @param maxBatchSize truncated Poisson only: B, or null for the recipe's default B = b + ⌈8√b⌉
     *                     (capped at n); must be null for every other recipe
     * @throws IllegalArgumentException for an unknown name or parameters the sampler cannot use
     */
    public static BatchSampler forSteps(String name, int n, int batchSize, long steps, Integer maxBatchSize) {
        Recipe r = byName(name);
        Checks.atLeastOne("n", n);
        Checks.atLeastOne("batchSize", batchSize);
        Checks.atLeastOne("steps", steps);
        if (maxBatchSize != null && !"truncated-poisson".equals(name)) {
            throw Checks.fail("maxBatchSize", "used only with truncated-poisson", maxBatchSize);
        }
        switch (name) {
            case "poisson":
                return new PoissonSampler(batchSize, steps);
            case "truncated-poisson": {
                int cap = maxBatchSize != null ? maxBatchSize
                        : TruncatedPoissonSampler.epochs(batchSize, 1, n, DEFAULT_TRUNCATION_SIGMAS).maxBatchSize();
                return new TruncatedPoissonSampler(batchSize, cap, steps);
            }
            default: {
                long perEpoch = FixedPartition.stepsPerEpoch(n, batchSize);
                if (steps % perEpoch != 0) {
                    throw Checks.fail("steps", "a multiple of the steps per epoch n/b = " + perEpoch + " for " + name, steps);
                }
                return r.create(n, batchSize, steps / perEpoch);
            }
        }
    }

    /** Looks a recipe up by its CLI name. */
    public static Recipe byName(String name) {
        Recipe r = RECIPES.get(name);
        if (r == null) {
            throw Checks.fail("sampler", "one of " + RECIPES.keySet(), name);
        }
        return r;
    }

    /** Names of all recipes. */
    public static java.util.Set<String> names() {
        return java.util.Collections.unmodifiableSet(RECIPES.keySet());
    }
}
