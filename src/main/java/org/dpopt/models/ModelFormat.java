package org.dpopt.models;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpopt.data.TextFiles;
import org.dpopt.linalg.Checks;

/**
 * The model file, format version 1: one JSON object with, in this order,
 * <pre>
 *   format            "dpopt-model"
 *   format_version    1
 *   dpopt_version     the version that wrote it
 *   kind              "binary" | "multinomial" | "regression"
 *   loss, link        e.g. "logistic"/"logit", "multinomial"/"softmax", "hinge"/"sign", "squared"/"identity"
 *   classes           the class labels ([0, 1] or [-1, 1]; [0, …, k−1]; [] for regression)
 *   dimension         d, the number of features (without the intercept)
 *   row_norm_bound    R, the declared bound on ‖x‖₂ (longer rows are projected onto the R-ball)
 *   fit_intercept     whether an intercept was fitted; intercept_scale: the constant c of its column
 *   weights           m arrays of d numbers (m = 1 for binary and regression, k for multinomial)
 *   intercept         m numbers (zeros without an intercept)
 *   algorithm         the optimizer's name; parameters: its planned public parameters
 *   privacy           epsilon, epsilon_lower, delta, accountant, relation, bound, event, notes
 *   noise             "secure" or the seeded-mode warning; private: true iff ε is finite and noise secure
 *   note              what the privacy statement covers (and that seeded models are not private)
 * </pre>
 * JSON has no ∞ or NaN: an infinite ε is written {@code "epsilon": null, "epsilon_infinite": true}
 * (likewise {@code epsilon_lower}); a missing value (NaN: no lower bound, no δ) is {@code null}.
 * Readers refuse a newer {@code format_version}, unknown kinds, and any inconsistent field.
 */
final class ModelFormat {
    private ModelFormat() {
    }

    /** The value of {@code "format"}. */
    static final String FORMAT = "dpopt-model";
    /** The version this code writes and the newest it reads. */
    static final int FORMAT_VERSION = 1;
    /** The dpopt version recorded in files. */
    static final String DPOPT_VERSION = "0.1.0";

    /** The note every file carries. */
    static String note(ModelPrivacy p) {
        return p.isPrivate()
                ? "The weights are the private release covered by \"privacy\" (secure noise). Metrics computed with "
                        + "this model on any data are not covered. (A model trained with seeded noise, research mode, "
                        + "would not be private: seeded runs are not private unless the seed was secret and random.)"
                : Double.isInfinite(p.epsilon())
                        ? "NOT PRIVATE: trained without a privacy guarantee."
                        : "NOT PRIVATE as released: seeded noise (research mode) can be replayed by whoever knows the "
                                + "seed; seeded runs are not private unless the seed was secret and random.";
    }

    /** The link of a loss: logit for logistic, softmax for multinomial, identity for regression, else sign. */
    static String link(Model.Kind kind, String loss) {
        return switch (kind) {
            case MULTINOMIAL -> "softmax";
            case REGRESSION -> "identity";
            case BINARY -> "logistic".equals(loss) ? "logit" : "sign";
        };
    }

    static Map<String, Object> toMap(Model m) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("format", FORMAT);
        o.put("format_version", (long) FORMAT_VERSION);
        o.put("dpopt_version", m.dpoptVersion());
        o.put("kind", m.kind().name().toLowerCase(java.util.Locale.ROOT));
        o.put("loss", m.loss());
        o.put("link", m.link());
        o.put("classes", labels(m.classes()));
        o.put("dimension", (long) m.dimension());
        o.put("row_norm_bound", m.rowNormBound());
        o.put("fit_intercept", m.fitIntercept());
        o.put("intercept_scale", m.interceptScale());
        List<Object> w = new ArrayList<>();
        for (double[] row : m.weights()) {
            w.add(row);
        }
        o.put("weights", w);
        o.put("intercept", m.intercepts());
        o.put("algorithm", m.algorithm());
        o.put("parameters", m.parameters());
        o.put("privacy", privacyMap(m.privacy()));
        o.put("noise", m.privacy().noise());
        o.put("private", m.privacy().isPrivate());
        o.put("note", note(m.privacy()));
        return o;
    }

    private static List<Object> labels(double[] classes) {
        List<Object> l = new ArrayList<>();
        for (double c : classes) {
            l.add((long) c);
        }
        return l;
    }

    private static Map<String, Object> privacyMap(ModelPrivacy p) {
        Map<String, Object> o = new LinkedHashMap<>();
        putReal(o, "epsilon", p.epsilon());
        putReal(o, "epsilon_lower", p.epsilonLower());
        putReal(o, "delta", p.delta());
        o.put("accountant", p.accountant());
        o.put("relation", p.relation());
        o.put("bound", p.bound());
        o.put("event", p.event());
        o.put("notes", new ArrayList<Object>(p.notes()));
        return o;
    }

    private static void putReal(Map<String, Object> o, String key, double v) {
        o.put(key, Double.isFinite(v) ? v : null);
        if (Double.isInfinite(v)) {
            o.put(key + "_infinite", true);
        }
    }

    static String toJson(Model m) {
        return JsonText.write(toMap(m));
    }

    static void write(Model m, Path path) {
        Checks.notNull("path", path);
        TextFiles.writeAtomically(path, toJson(m));
    }

    static Model read(Path path) {
        Checks.notNull("path", path);
        if (!Files.isRegularFile(path)) {
            throw Checks.fail("model file", "an existing file", path);
        }
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + e.getMessage(), e);
        }
        return parse(text, path.toString());
    }

    static Model parse(String json, String source) {
        Object v = JsonText.parse(json, source);
        return ModelReader.fromMap(new ModelReader.Fields(v, source));
    }

    /** Checks a model's invariants (called by its constructor, so a loaded file is always consistent). */
    static void validate(Model m, String source) {
        double[][] w = m.weights();
        double[] cls = m.classes();
        int rows = w.length;
        if (rows < 1 || w[0].length < 1) {
            throw Checks.fail(of("weights", source), "at least one row of at least one number", rows);
        }
        for (int c = 0; c < rows; c++) {
            if (w[c].length != w[0].length) {
                throw Checks.fail(of("weights[", source) + c + "]", "of length dimension = " + w[0].length, w[c].length);
            }
            for (double x : w[c]) {
                Checks.finite(of("weights[", source) + c + "] entry", x);
            }
        }
        switch (m.kind()) {
            case BINARY -> {
                exact(of("weights", source), 1, rows, "one row for a binary model");
                if (!(cls.length == 2 && (cls[0] == 0 || cls[0] == -1) && cls[1] == 1)) {
                    throw Checks.fail(of("classes", source), "[0, 1] or [-1, 1] for a binary model", java.util.Arrays.toString(cls));
                }
            }
            case MULTINOMIAL -> {
                exact(of("classes", source), rows, cls.length, "one label per row of weights");
                for (int c = 0; c < cls.length; c++) {
                    exact(of("classes[" + c + "]", source), c, (int) cls[c], "the labels 0..k-1 in order");
                }
                if (rows < 2) {
                    throw Checks.fail(of("classes", source), "at least 2 for a multinomial model", rows);
                }
            }
            case REGRESSION -> {
                exact(of("weights", source), 1, rows, "one row for a regression model");
                exact(of("classes", source), 0, cls.length, "empty for a regression model");
            }
        }
        double[] b = m.intercepts();
        exact(of("intercept", source), rows, b.length, "one number per row of weights");
        for (double x : b) {
            Checks.finite(of("intercept entry", source), x);
            if (!m.fitIntercept() && x != 0) {
                throw Checks.fail(of("intercept entry", source), "0 when fit_intercept is false", x);
            }
        }
        Checks.nonNegative(of("intercept_scale", source), m.interceptScale());
        Checks.positive(of("row_norm_bound", source), m.rowNormBound());
        String want = link(m.kind(), m.loss());
        if (!want.equals(m.link())) {
            throw Checks.fail(of("link", source), "\"" + want + "\" for a " + m.kind() + " model with loss " + m.loss(), m.link());
        }
    }

    /** Integers as Long, reals as Double (so that a saved and loaded model has equal parameters). */
    static Map<String, Object> normalized(Map<String, Object> p) {
        Map<String, Object> out = new LinkedHashMap<>();
        p.forEach((k, v) -> out.put(Checks.notNull("parameter name", k), v instanceof Integer || v instanceof Short
                || v instanceof Byte ? Long.valueOf(((Number) v).longValue()) : v instanceof Float f ? Double.valueOf(f)
                : v));
        return out;
    }

    /** A field's name in a message: {@code "weights" of model.json}. */
    static String of(String field, String source) {
        return "\"" + field + "\" of " + source;
    }

    private static void exact(String name, int want, int got, String why) {
        if (want != got) {
            throw Checks.fail(name, want + " (" + why + ")", got);
        }
    }
}
