package org.dpopt.sampling;

import java.util.LinkedHashMap;
import java.util.Map;
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
    }

    private static final Map<String, Recipe> RECIPES = new LinkedHashMap<>();

    static {
        RECIPES.put("poisson", (n, b, e) -> PoissonSampler.epochs(b, e, n));
    }

    /** Poisson sampling with q = b/n and T = ⌈E·n/b⌉. */
    public static Recipe poisson() {
        return RECIPES.get("poisson");
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
