package org.dpopt.optim;

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
    DATASET_SIZE("dataset_size", Kind.INTEGER),
    /** d. */
    DIMENSION("dimension", Kind.INTEGER),
    /** R, the declared row-norm bound. */
    ROW_NORM_BOUND("row_norm_bound", Kind.REAL),
    /** L, the per-example gradient-norm bound (from the loss and R). */
    LIPSCHITZ("lipschitz", Kind.REAL),
    /** β, the per-example smoothness of the loss the algorithm differentiates. */
    SMOOTHNESS("smoothness", Kind.REAL),
    /** The domain's ℓ2 radius (or a declared comparator radius when unconstrained). */
    RADIUS("radius", Kind.REAL),
    /** The domain's ℓ2 diameter D. */
    DIAMETER("diameter", Kind.REAL),
    /** Whether the domain is bounded. */
    CONSTRAINED("constrained", Kind.BOOLEAN),
    // noise
    /** z = σ/Δ of the (main) Gaussian release. */
    NOISE_MULTIPLIER("noise_multiplier", Kind.REAL),
    /** σ, the absolute noise standard deviation of the (main) release. */
    SIGMA("sigma", Kind.REAL),
    /** Δ, the ℓ2 sensitivity of the (main) release. */
    SENSITIVITY("sensitivity", Kind.REAL),
    /** ε0 of each pure-DP selection (report-noisy-max). */
    EPSILON_PER_STEP("epsilon_per_step", Kind.REAL),
    /** The Laplace scale b of report-noisy-max. */
    LAPLACE_SCALE("laplace_scale", Kind.REAL),
    // schedule
    /** T, the number of noisy steps. */
    STEPS("steps", Kind.INTEGER),
    /** E, epochs. */
    EPOCHS("epochs", Kind.REAL),
    /** The expected (Poisson) or fixed batch size b. */
    BATCH_SIZE("batch_size", Kind.REAL),
    /** q = b/n. */
    SAMPLING_RATE("sampling_rate", Kind.REAL),
    /** The public constant a batch sum is divided by (never the realized batch size). */
    NORMALIZER("normalizer", Kind.REAL),
    /** The batch sampler's name. */
    SAMPLER("sampler", Kind.TEXT),
    /** The largest batch a truncated sampler keeps. */
    MAX_BATCH_SIZE("max_batch_size", Kind.INTEGER),
    /** Rounds of an outer loop (Frank–Wolfe, proximal guidance). */
    ROUNDS("rounds", Kind.INTEGER),
    /** Phases (of localization, or per round). */
    PHASES("phases", Kind.INTEGER),
    /** Records per disjoint part (parallel composition). */
    PART_SIZE("part_size", Kind.INTEGER),
    /** Per-example clip norm C. */
    CLIP_NORM("clip_norm", Kind.REAL),
    /** Step size η (for Frank–Wolfe: the constant step μ of w ← w + μ(v − w)). */
    LEARNING_RATE("learning_rate", Kind.REAL),
    /** ℓ2 regularisation λ in (λ/2)‖w‖² (or as the algorithm documents it). */
    L2("l2", Kind.REAL),
    /** How the released iterate is chosen: last, average, random. */
    OUTPUT("output", Kind.TEXT),
    /** Which parameter rule made the plan: the theorem's setting ("paper") or the practical default. */
    PRESET("preset", Kind.TEXT),
    /** The accountant that calibrated and reports. */
    ACCOUNTANT("accountant", Kind.TEXT),
    // Frank–Wolfe family
    /** Δ of each report-noisy-max score: the largest change of one candidate's score between neighbours. */
    SCORE_SENSITIVITY("score_sensitivity", Kind.REAL),
    /** J, the number of vertices (candidates) each selection chooses from. */
    VERTICES("vertices", Kind.INTEGER),
    /** B∞, a declared public bound on every row's ℓ∞ norm. */
    SUP_NORM_BOUND("sup_norm_bound", Kind.REAL),
    /** Steps per round of an outer loop. */
    STEPS_PER_ROUND("steps_per_round", Kind.INTEGER),
    /** b₀, the records of a round's anchor batch (a full-batch estimate on fresh records). */
    ANCHOR_BATCH_SIZE("anchor_batch_size", Kind.INTEGER),
    /** Records a one-pass schedule reads, each at most once. */
    RECORDS_USED("records_used", Kind.INTEGER),
    /** Rows per block of a block-shuffled read order (0: the storage order). */
    SHUFFLE_BLOCK("shuffle_block", Kind.INTEGER),
    // smoothing and geometry
    /**
     * Iterations of an inner loop per outer step: τ subgradient steps of a Moreau prox solve, K halvings
     * of a one-dimensional bisection prox, or the stochastic steps of one SVRG epoch.
     */
    INNER_STEPS("inner_steps", Kind.INTEGER),
    /** How a Moreau prox is solved: "subgradient" (inner descent) or "bisection" (one-dimensional, for GLLs). */
    INNER_PROX("inner_prox", Kind.TEXT),
    /** α, the accuracy a smoothing oracle's gradient is computed to. */
    SMOOTHING_ACCURACY("smoothing_accuracy", Kind.REAL),
    /** e, the guaranteed ℓ2 error of one inexact (smoothed) per-example gradient, charged to the sensitivity. */
    GRADIENT_ERROR("gradient_error", Kind.REAL),
    /** p of the ℓp geometry: of a mirror map, or of an ℓp-ball domain in the problem's dimension. */
    LP_NORM("lp_norm", Kind.REAL),
    /** ρ, the weak-convexity constant the algorithm's proximal terms use. */
    WEAK_CONVEXITY("weak_convexity", Kind.REAL),
    // objective perturbation
    /** σ_G, the per-coordinate standard deviation of the random linear term G of a perturbed objective. */
    OBJECTIVE_SIGMA("objective_sigma", Kind.REAL),
    /** The rule the noise was calibrated by (objective perturbation: "tight" or "kst12"; phased-sgd: "calibrated" or "paper"). */
    NOISE_RULE("noise_rule", Kind.TEXT),
    /** The ε at which the objective-perturbation theorem is applied (all of ε, or its share). */
    PERTURBATION_EPSILON("perturbation_epsilon", Kind.REAL),
    /** The δ at which the objective-perturbation theorem is applied. */
    PERTURBATION_DELTA("perturbation_delta", Kind.REAL),
    /** The certified distance to the exact minimizer required of a released solve (relative to max(1, M)). */
    SOLVER_TOLERANCE("solver_tolerance", Kind.REAL),
    /** The limit on a solver's (data-dependent) iterations, e.g. Newton steps. */
    SOLVER_STEP_LIMIT("solver_step_limit", Kind.INTEGER),
    /** α, the certified suboptimality required of an approximate minimizer. */
    ACCURACY("accuracy", Kind.REAL),
    /** r, the certified bound on the distance of an approximate minimizer from the exact one. */
    DISTANCE_BOUND("distance_bound", Kind.REAL),
    /** The fixed step count of a backup solve run only when the main solve is not certified. */
    FALLBACK_STEPS("fallback_steps", Kind.INTEGER),
    /** B, a public bound on the norm of a noise vector (e.g. ‖G‖), exceeded with probability inside p. */
    NOISE_NORM_BOUND("noise_norm_bound", Kind.REAL),
    /** p, the bound (for every dataset) on the probability that a solver cannot release a certified point. */
    FAILURE_PROBABILITY("failure_probability", Kind.REAL),
    /** (1 + e^ε)p, the part of δ set aside for that failure. */
    FAILURE_DELTA("failure_delta", Kind.REAL);

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

    private final String key;
    private final Kind kind;

    Param(String key, Kind kind) {
        this.key = key;
        this.kind = kind;
    }

    /** The snake_case key used in reports and JSON. */
    public String key() {
        return key;
    }

    /** The value type. */
    public Kind kind() {
        return kind;
    }
}
