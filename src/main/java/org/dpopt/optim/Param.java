package org.dpopt.optim;

import java.util.Locale;

/**
 * The one vocabulary of planned run parameters: public quantities computed from the configuration
 * and the problem's public shape (n, d, R, the loss's constants, the domain) before any data is read.
 * {@link RunParameters} maps these keys to values; the CLI's JSON {@code "parameters"} object uses
 * {@link #key()}.
 *
 * <p>A key has one meaning everywhere (house rule: one definition per DP quantity): the
 * {@code NOISE_MULTIPLIER} z is always σ/Δ of the release it belongs to, {@code SIGMA} the absolute
 * standard deviation, {@code LEARNING_RATE} the step size η of the update it names.
 */
public enum Param {
    // data shape
    /** n, the dataset size the plan is made for (declared, or the actual size treated as public). */
    DATASET_SIZE(Kind.INTEGER),
    /** d. */
    DIMENSION(Kind.INTEGER),
    /** R, the declared row-norm bound. */
    ROW_NORM_BOUND(Kind.REAL),
    /** L, the per-example gradient-norm bound (from the loss and R). */
    LIPSCHITZ(Kind.REAL),
    /** β, the per-example smoothness of the loss the algorithm differentiates. */
    SMOOTHNESS(Kind.REAL),
    /** The domain's ℓ2 radius (or a declared comparator radius when unconstrained). */
    RADIUS(Kind.REAL),
    /** The domain's ℓ2 diameter D. */
    DIAMETER(Kind.REAL),
    /** Whether the domain is bounded. */
    CONSTRAINED(Kind.BOOLEAN),
    // noise
    /** z = σ/Δ of the (main) Gaussian release. */
    NOISE_MULTIPLIER(Kind.REAL),
    /** σ, the absolute noise standard deviation of the (main) release. */
    SIGMA(Kind.REAL),
    /** Δ, the ℓ2 sensitivity of the (main) release. */
    SENSITIVITY(Kind.REAL),
    /** ε0 of each pure-DP selection (report-noisy-max). */
    EPSILON_PER_STEP(Kind.REAL),
    /** The Laplace scale b of report-noisy-max. */
    LAPLACE_SCALE(Kind.REAL),
    // schedule
    /** T, the number of noisy steps. */
    STEPS(Kind.INTEGER),
    /** E, epochs. */
    EPOCHS(Kind.REAL),
    /** The expected (Poisson) or fixed batch size b. */
    BATCH_SIZE(Kind.REAL),
    /** q = b/n. */
    SAMPLING_RATE(Kind.REAL),
    /** The public constant a batch sum is divided by (never the realized batch size). */
    NORMALIZER(Kind.REAL),
    /** The batch sampler's name. */
    SAMPLER(Kind.TEXT),
    /** The largest batch a truncated sampler keeps. */
    MAX_BATCH_SIZE(Kind.INTEGER),
    /** Rounds of an outer loop (Frank–Wolfe, proximal guidance). */
    ROUNDS(Kind.INTEGER),
    /** Phases (of localization, or per round). */
    PHASES(Kind.INTEGER),
    /** Records per disjoint part (parallel composition). */
    PART_SIZE(Kind.INTEGER),
    /** Per-example clip norm C. */
    CLIP_NORM(Kind.REAL),
    /** Step size η (for Frank–Wolfe: the constant step μ of w ← w + μ(v − w)). */
    LEARNING_RATE(Kind.REAL),
    /** ℓ2 regularisation λ in (λ/2)‖w‖² (or as the algorithm documents it). */
    L2(Kind.REAL),
    /** How the released iterate is chosen: last, average, random. */
    OUTPUT(Kind.TEXT),
    /** Which parameter rule made the plan: the theorem's setting ("paper") or the practical default. */
    PRESET(Kind.TEXT),
    /** The accountant that calibrated and reports. */
    ACCOUNTANT(Kind.TEXT),
    // Frank–Wolfe family
    /** Δ of each report-noisy-max score: the largest change of one candidate's score between neighbours. */
    SCORE_SENSITIVITY(Kind.REAL),
    /** J, the number of vertices (candidates) each selection chooses from. */
    VERTICES(Kind.INTEGER),
    /** B∞, a declared public bound on every row's ℓ∞ norm. */
    SUP_NORM_BOUND(Kind.REAL),
    /** Steps per round of an outer loop. */
    STEPS_PER_ROUND(Kind.INTEGER),
    /** b₀, the records of a round's anchor batch (a full-batch estimate on fresh records). */
    ANCHOR_BATCH_SIZE(Kind.INTEGER),
    /** Records a one-pass schedule reads, each at most once. */
    RECORDS_USED(Kind.INTEGER),
    /** Rows per block of a block-shuffled read order (0: the storage order). */
    SHUFFLE_BLOCK(Kind.INTEGER),
    // smoothing and geometry
    /**
     * Iterations of an inner loop per outer step: τ subgradient steps of a Moreau prox solve, K halvings
     * of a one-dimensional bisection prox, or the stochastic steps of one SVRG epoch.
     */
    INNER_STEPS(Kind.INTEGER),
    /** How a Moreau prox is solved: "subgradient" (inner descent) or "bisection" (one-dimensional, for GLLs). */
    INNER_PROX(Kind.TEXT),
    /** α, the accuracy a smoothing oracle's gradient is computed to. */
    SMOOTHING_ACCURACY(Kind.REAL),
    /** e, the guaranteed ℓ2 error of one inexact (smoothed) per-example gradient, charged to the sensitivity. */
    GRADIENT_ERROR(Kind.REAL),
    /** p of the ℓp geometry: of a mirror map, or of an ℓp-ball domain in the problem's dimension. */
    LP_NORM(Kind.REAL),
    /** ρ, the weak-convexity constant the algorithm's proximal terms use. */
    WEAK_CONVEXITY(Kind.REAL),
    // objective perturbation
    /** σ_G, the per-coordinate standard deviation of the random linear term G of a perturbed objective. */
    OBJECTIVE_SIGMA(Kind.REAL),
    /** The rule the noise was calibrated by (objective perturbation: "tight" or "kst12"; phased-sgd: "calibrated" or "paper"). */
    NOISE_RULE(Kind.TEXT),
    /** The ε at which the objective-perturbation theorem is applied (all of ε, or its share). */
    PERTURBATION_EPSILON(Kind.REAL),
    /** The δ at which the objective-perturbation theorem is applied. */
    PERTURBATION_DELTA(Kind.REAL),
    /** The certified distance to the exact minimizer required of a released solve (relative to max(1, M)). */
    SOLVER_TOLERANCE(Kind.REAL),
    /** The limit on a solver's (data-dependent) iterations, e.g. Newton steps. */
    SOLVER_STEP_LIMIT(Kind.INTEGER),
    /** α, the certified suboptimality required of an approximate minimizer. */
    ACCURACY(Kind.REAL),
    /** r, the certified bound on the distance of an approximate minimizer from the exact one. */
    DISTANCE_BOUND(Kind.REAL),
    /** The fixed step count of a backup solve run only when the main solve is not certified. */
    FALLBACK_STEPS(Kind.INTEGER),
    /** B, a public bound on the norm of a noise vector (e.g. ‖G‖), exceeded with probability inside p. */
    NOISE_NORM_BOUND(Kind.REAL),
    /** p, the bound (for every dataset) on the probability that a solver cannot release a certified point. */
    FAILURE_PROBABILITY(Kind.REAL),
    /** (1 + e^ε)p, the part of δ set aside for that failure. */
    FAILURE_DELTA(Kind.REAL),
    // the private check of a classifier against the constant classifiers
    /** ε₀, the part of ε spent choosing between the trained classifier and the two constant ones. */
    CONSTANT_CHECK_EPSILON(Kind.REAL),
    /** The Laplace scale of that choice's noisy counts. */
    CONSTANT_CHECK_SCALE(Kind.REAL),
    /** The public head start added to the trained classifier's count before the noisy choice. */
    CONSTANT_CHECK_MARGIN(Kind.REAL);

    /** The value type of a key. */
    public enum Kind {
        /** A finite double. */
        REAL,
        /** A whole number (long). */
        INTEGER,
        /** true/false. */
        BOOLEAN,
        /** A short string. */
        TEXT
    }

    private final String key = name().toLowerCase(Locale.ROOT);
    private final Kind kind;

    Param(Kind kind) {
        this.kind = kind;
    }

    /** The snake_case key used in reports and JSON: the constant's name in lower case. */
    public String key() {
        return key;
    }

    /** The value type. */
    public Kind kind() {
        return kind;
    }
}
