package org.dpopt.models;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.dpopt.data.Dataset;
import org.dpopt.data.Labels;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.OptimizationResult;
import org.ejml.data.DMatrixRMaj;

/**
 * A fitted linear model with everything needed to use and to judge it: m score vectors w_c ∈ ℝ^d and
 * intercepts b_c (scores s_c(x) = ⟨w_c, x⟩ + b_c), the class labels, the declared row-norm bound R,
 * the loss and link, the algorithm and its public parameters, and the privacy statement of the run
 * that produced it. Immutable.
 *
 * <ul>
 * <li>{@link Kind#BINARY} (m = 1): predicts {@code classes[1]} if s(x) &gt; 0, else {@code classes[0]};
 * with the logit link P(classes[1] | x) = σ(s(x)).</li>
 * <li>{@link Kind#MULTINOMIAL} (m = k): predicts arg max_c s_c(x) (the lowest c on ties); with the
 * softmax link P(c | x) = e^{s_c}/Σ e^{s_j}.</li>
 * <li>{@link Kind#REGRESSION} (m = 1): predicts s(x).</li>
 * </ul>
 *
 * <p>Rows are used as the training rows were: a row with ‖x‖₂ &gt; R is first projected onto the ball
 * of radius R (x·R/‖x‖), the per-row map the CLI applies when reading data.
 *
 * <p>Files: {@link #save} writes the versioned JSON format described in {@code ModelFormat} (the README
 * lists its fields); {@link #load} reads and validates it. Everything in the file is the private
 * release (weights, and planned public parameters) and its privacy statement; no non-private
 * diagnostic is ever stored.
 */
public final class Model {

    /** What the model predicts. */
    public enum Kind {
        /** Two classes, one score. */
        BINARY,
        /** k ≥ 2 classes, k scores (multinomial logistic regression). */
        MULTINOMIAL,
        /** A real value. */
        REGRESSION
    }

    private final Kind kind;
    private final String loss;
    private final String link;
    private final double[] classes;
    private final double[][] weights;
    private final double[] intercepts;
    private final boolean fitIntercept;
    private final double interceptScale;
    private final double rowNormBound;
    private final String algorithm;
    private final Map<String, Object> parameters;
    private final ModelPrivacy privacy;
    private final String dpoptVersion;

    Model(Kind kind, String loss, String link, double[] classes, double[][] weights, double[] intercepts,
            double interceptScale, double rowNormBound, String algorithm, Map<String, Object> parameters,
            ModelPrivacy privacy, String dpoptVersion, String source) {
        this.kind = Checks.notNull("kind", kind);
        this.loss = Checks.notNull("loss", loss);
        this.link = Checks.notNull("link", link);
        this.classes = classes.clone();
        this.weights = deepCopy(weights);
        this.intercepts = intercepts.clone();
        this.interceptScale = interceptScale;
        this.fitIntercept = interceptScale > 0;
        this.rowNormBound = rowNormBound;
        this.algorithm = Checks.notNull("algorithm", algorithm);
        this.parameters = Collections.unmodifiableMap(ModelFormat.normalized(parameters));
        this.privacy = Checks.notNull("privacy", privacy);
        this.dpoptVersion = Checks.notNull("dpoptVersion", dpoptVersion);
        ModelFormat.validate(this, source);
    }

    /**
     * The model a training run released: its solution split into per-score weights and intercepts
     * (b_c = c·w_{c,d} for the intercept's column of constant c), with the run's report and public
     * parameters.
     *
     * @param result the run's result
     * @param problem the problem it solved (its loss, intercept and dimension)
     * @param rowNormBound R, the declared bound of the original feature rows
     * @param classes the class labels: {negative, positive} for a binary loss, 0..k−1 for a k-class
     *                loss, empty for regression
     */
    public static Model fromRun(OptimizationResult result, Problem problem, double rowNormBound, double[] classes) {
        return fromRun(result, problem, rowNormBound, classes, List.of());
    }

    /**
     * As {@link #fromRun(OptimizationResult, Problem, double, double[])}, with notes added to the privacy
     * statement (e.g. that the class set was derived from the labels and is treated as public).
     */
    public static Model fromRun(OptimizationResult result, Problem problem, double rowNormBound, double[] classes,
            List<String> notes) {
        return fromRun(result, Checks.notNull("problem", problem).shape(), rowNormBound, classes, notes);
    }

    /**
     * As {@link #fromRun(OptimizationResult, Problem, double, double[], List)} from the public shape of the
     * problem (its loss, intercept and dimension) — for a run whose rows are not in this JVM.
     */
    public static Model fromRun(OptimizationResult result, ProblemShape shape, double rowNormBound, double[] classes,
            List<String> notes) {
        Checks.notNull("result", result);
        Checks.notNull("notes", notes);
        Loss l = Checks.notNull("shape", shape).loss();
        int m = l.outputs();
        int cols = shape.dimension();
        int d = cols - (shape.hasIntercept() ? 1 : 0);
        double[] w = result.solution().data;
        Checks.vector("solution", result.solution(), shape.parameterDimension());
        double[][] ws = new double[m][d];
        double[] bs = new double[m];
        for (int c = 0; c < m; c++) {
            System.arraycopy(w, c * cols, ws[c], 0, d);
            bs[c] = shape.hasIntercept() ? shape.interceptScale() * w[c * cols + d] : 0;
        }
        Kind kind = m > 1 ? Kind.MULTINOMIAL : l.isClassification() ? Kind.BINARY : Kind.REGRESSION;
        return new Model(kind, l.name(), ModelFormat.link(kind, l.name()), classes, ws, bs, shape.interceptScale(),
                rowNormBound, result.plan().algorithm(), result.parameters().asMap(),
                ModelPrivacy.of(result.privacy(), result.noise()).withNotes(notes), ModelFormat.DPOPT_VERSION,
                "the trained model");
    }

    /**
     * Reads and validates a model file.
     *
     * @throws IllegalArgumentException naming the first field that is missing or invalid
     * @throws java.io.UncheckedIOException if the file cannot be read
     */
    public static Model load(Path path) {
        return ModelFormat.read(path);
    }

    /** Parses and validates a model from its JSON text. */
    public static Model fromJson(String json) {
        return ModelFormat.parse(json, "model JSON");
    }

    /** Writes the model file atomically (a temporary file beside the target, then a rename). */
    public void save(Path path) {
        ModelFormat.write(this, path);
    }

    /** The model file's JSON text. */
    public String toJson() {
        return ModelFormat.toJson(this);
    }

    /** The m scores s_c(x) = ⟨w_c, x⟩ + b_c of one row of d features (projected onto the R-ball first). */
    public double[] scores(double[] x) {
        Checks.notNull("x", x);
        if (x.length != dimension()) {
            throw Checks.fail("number of features", "the model's dimension " + dimension(), x.length);
        }
        double sq = 0;
        for (double v : x) {
            if (!Double.isFinite(v)) {
                throw Checks.fail("feature", "finite", v);
            }
            sq += v * v;
        }
        double f = Math.sqrt(sq) > rowNormBound ? rowNormBound / Math.sqrt(sq) : 1.0;
        double[] s = new double[weights.length];
        for (int c = 0; c < weights.length; c++) {
            double dot = 0;
            for (int j = 0; j < x.length; j++) {
                dot += weights[c][j] * x[j];
            }
            s[c] = f * dot + intercepts[c];
        }
        return s;
    }

    /** The prediction for one row: a class label, or a real value for regression. */
    public double predict(double[] x) {
        return decide(scores(x));
    }

    private double decide(double[] s) {
        switch (kind) {
            case BINARY:
                return s[0] > 0 ? classes[1] : classes[0];
            case MULTINOMIAL:
                int best = 0;
                for (int c = 1; c < s.length; c++) {
                    if (s[c] > s[best]) {
                        best = c;
                    }
                }
                return classes[best];
            default:
                return s[0];
        }
    }

    /**
     * Class probabilities for one row, in the order of {@link #classes()}.
     *
     * @throws IllegalArgumentException for a model without a probabilistic link (hinge, regression, ...)
     */
    public double[] predictProbability(double[] x) {
        double[] s = scores(x);
        if ("logit".equals(link)) {
            double p = s[0] >= 0 ? 1 / (1 + Math.exp(-s[0])) : Math.exp(s[0]) / (1 + Math.exp(s[0]));
            return new double[] {1 - p, p};
        }
        if ("softmax".equals(link)) {
            double max = Arrays.stream(s).max().orElseThrow();
            double z = 0;
            for (int c = 0; c < s.length; c++) {
                s[c] = Math.exp(s[c] - max);
                z += s[c];
            }
            for (int c = 0; c < s.length; c++) {
                s[c] /= z;
            }
            return s;
        }
        throw Checks.fail("link of a model asked for probabilities", "logit or softmax (a logistic or multinomial "
                + "model)", link + " (loss " + loss + ")");
    }

    /** Predictions for every row of an n×d array. */
    public double[] predict(double[][] x) {
        Checks.notNull("x", x);
        double[] out = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = predict(x[i]);
        }
        return out;
    }

    /** Class probabilities (n×k) for every row of an n×d array. */
    public double[][] predictProbability(double[][] x) {
        Checks.notNull("x", x);
        double[][] out = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            out[i] = predictProbability(x[i]);
        }
        return out;
    }

    /** Predictions for every row of a dataset with d features (its labels are not read). */
    public double[] predict(Dataset data) {
        return predict(rows(data));
    }

    /** Class probabilities for every row of a dataset with d features. */
    public double[][] predictProbability(Dataset data) {
        return predictProbability(rows(data));
    }

    /**
     * The fraction of rows predicted correctly (a classifier; computed on the given data, which the
     * privacy statement does not cover). Binary labels may be in {0, 1} or {−1, +1} whatever the
     * training encoding (y &gt; 0 is the positive class); k-class labels must be in 0..k−1.
     */
    public double accuracy(Dataset data) {
        Checks.notNull("data", data);
        if (kind == Kind.REGRESSION) {
            throw Checks.fail("model for accuracy", "a classifier", "a regression model (use meanSquaredError)");
        }
        double[][] x = rows(data);
        if (kind == Kind.BINARY) {
            Labels.binaryEncoding(data, "the data");
        } else {
            Labels.requireClasses(data, classes.length, "the data");
        }
        int correct = 0;
        for (int i = 0; i < x.length; i++) {
            double[] s = scores(x[i]);
            boolean ok = kind == Kind.BINARY ? (s[0] > 0) == (data.label(i) > 0) : decide(s) == data.label(i);
            correct += ok ? 1 : 0;
        }
        return (double) correct / x.length;
    }

    /** The mean of (prediction − y)² over the rows (a regression model; not private). */
    public double meanSquaredError(Dataset data) {
        Checks.notNull("data", data);
        if (kind != Kind.REGRESSION) {
            throw Checks.fail("model for meanSquaredError", "a regression model", kind);
        }
        double[][] x = rows(data);
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            double r = predict(x[i]) - data.label(i);
            s += r * r;
        }
        return s / x.length;
    }

    private double[][] rows(Dataset data) {
        Checks.notNull("data", data);
        if (data.dimension() != dimension()) {
            throw Checks.fail("number of features of the data", "the model's dimension " + dimension(),
                    data.dimension());
        }
        double[][] x = new double[data.size()][];
        DMatrixRMaj row = new DMatrixRMaj(dimension(), 1);
        for (int i = 0; i < data.size(); i++) {
            data.row(i, row);
            x[i] = row.data.clone();
        }
        return x;
    }

    /** What the model predicts. */
    public Kind kind() {
        return kind;
    }

    /** The loss it was trained with (e.g. {@code "logistic"}, {@code "multinomial"}). */
    public String loss() {
        return loss;
    }

    /** {@code "logit"}, {@code "softmax"}, {@code "sign"} (a margin classifier) or {@code "identity"}. */
    public String link() {
        return link;
    }

    /** The class labels (empty for regression); a copy. */
    public double[] classes() {
        return classes.clone();
    }

    /** d, the number of features (without the intercept). */
    public int dimension() {
        return weights[0].length;
    }

    /** The weights w_c (m rows of d); a copy. */
    public double[][] weights() {
        return deepCopy(weights);
    }

    /** The intercepts b_c (zeros without an intercept); a copy. */
    public double[] intercepts() {
        return intercepts.clone();
    }

    /** True if an intercept was fitted. */
    public boolean fitIntercept() {
        return fitIntercept;
    }

    /** The constant c of the intercept's column during training (0 without an intercept). */
    public double interceptScale() {
        return interceptScale;
    }

    /** R, the declared bound on ‖x‖₂ of the feature rows. */
    public double rowNormBound() {
        return rowNormBound;
    }

    /** The algorithm's name (e.g. {@code "dp-sgd"}). */
    public String algorithm() {
        return algorithm;
    }

    /** The algorithm's planned public parameters (snake_case keys). */
    public Map<String, Object> parameters() {
        return parameters;
    }

    /** The privacy statement of the training run. */
    public ModelPrivacy privacy() {
        return privacy;
    }

    /** The dpopt version that trained the model. */
    public String dpoptVersion() {
        return dpoptVersion;
    }

    private static double[][] deepCopy(double[][] a) {
        return Arrays.stream(a).map(double[]::clone).toArray(double[][]::new);
    }

    @Override
    public String toString() {
        return "Model[" + kind + ", " + loss + ", d=" + dimension() + ", classes=" + classes.length + ", intercept="
                + fitIntercept + ", " + algorithm + ", " + privacy + "]";
    }
}
