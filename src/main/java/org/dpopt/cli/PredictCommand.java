package org.dpopt.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpopt.data.Dataset;
import org.dpopt.data.DatasetIO;
import org.dpopt.linalg.Checks;
import org.dpopt.models.Model;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpopt predict}: apply a model file to data. Predictions (and class probabilities with
 * {@code --proba}) go to {@code --out} as CSV — checked before any work, written atomically — or, without
 * it, to stdout (CSV, or inside the JSON object with {@code --json}). When the data has labels (CSV with
 * one column more than the model's dimension; LIBSVM always) it reports the accuracy (classifiers) or
 * mean squared error (regression), computed on that data: the model's privacy guarantee does not cover
 * such metrics.
 */
@Command(name = "predict", mixinStandardHelpOptions = true,
        description = "Predict with a model file written by 'dpopt train --model-out'.")
final class PredictCommand implements Callable<Integer> {

    /** The label written next to metrics. */
    static final String METRIC_NOTE = "computed on the given data, which the model's privacy guarantee does not cover";

    @Option(names = "--model", required = true, description = "Model file (JSON) from dpopt train --model-out.")
    Path model;
    @Option(names = "--data", required = true, description = "Rows to predict (CSV: d features, optionally a label "
            + "last; or LIBSVM).")
    Path data;
    @Option(names = "--format", defaultValue = "csv", description = "csv or libsvm (default csv).")
    String format;
    @Option(names = "--out", description = "Write predictions to this CSV file (default: stdout).")
    Path out;
    @Option(names = "--proba", description = "Also output class probabilities (logistic and multinomial models).")
    boolean proba;
    @Mixin
    Output output;

    @Override
    public Integer call() {
        if (!Files.isRegularFile(model)) {
            throw Checks.fail("--model", "an existing model file", model);
        }
        if (!Files.isRegularFile(data)) {
            throw Checks.fail("--data", "an existing file", data);
        }
        if (!"csv".equals(format) && !"libsvm".equals(format)) {
            throw Checks.fail("--format", "csv or libsvm", format);
        }
        if (out != null) {
            OutputPaths.check("--out", out, model, data);
        }
        Model m = Model.load(model);
        if (proba && !("logit".equals(m.link()) || "softmax".equals(m.link()))) {
            throw Checks.fail("--proba", "used with a logistic or multinomial model", "a model with loss " + m.loss());
        }
        DatasetIO.FeatureRead read = "csv".equals(format)
                ? DatasetIO.readCsvFeatures(data, m.dimension(), m.rowNormBound()) : libsvm(m);
        Dataset rows = read.dataset();
        Map<String, Object> summary = summary(m, read);
        double[] pred = m.predict(rows);
        double[][] prob = proba ? m.predictProbability(rows) : null;
        String csv = csv(m, pred, prob);
        if (out != null) {
            OutputPaths.writeAtomically(out, csv);
        }
        print(m, summary, pred, prob, csv);
        return 0;
    }

    /** LIBSVM rows in the model's dimension (a label on every line), projected onto its R-ball. */
    private DatasetIO.FeatureRead libsvm(Model m) {
        DatasetIO.ReadResult r = DatasetIO.readLibsvm(data, m.dimension(), m.rowNormBound(),
                DatasetIO.RowNormPolicy.PROJECT);
        return new DatasetIO.FeatureRead(r.dataset(), true, r.projectedRows());
    }

    private Map<String, Object> summary(Model m, DatasetIO.FeatureRead read) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("model", model.toString());
        s.put("kind", m.kind().name().toLowerCase(java.util.Locale.ROOT));
        s.put("loss", m.loss());
        if (m.kind() != Model.Kind.REGRESSION) {
            s.put("classes", Json.labels(m.classes()));
        }
        s.put("rows", read.dataset().size());
        s.put("labelled", read.labelled());
        s.put("projected_rows", read.projectedRows());
        if (read.labelled()) {
            if (m.kind() == Model.Kind.REGRESSION) {
                s.put("mean_squared_error", Json.finiteOrNull(m.meanSquaredError(read.dataset())));
            } else {
                s.put("accuracy", m.accuracy(read.dataset()));
            }
            s.put("metric_note", METRIC_NOTE);
        }
        s.put("private", m.privacy().isPrivate());
        s.put("privacy", m.privacy().toString());
        if (out != null) {
            s.put("out", out.toString());
        }
        return s;
    }

    private static String csv(Model m, double[] pred, double[][] prob) {
        StringBuilder sb = new StringBuilder("prediction");
        double[] cls = m.classes();
        if (prob != null) {
            for (double c : cls) {
                sb.append(",p_").append((long) c);
            }
        }
        sb.append('\n');
        for (int i = 0; i < pred.length; i++) {
            sb.append(m.kind() == Model.Kind.REGRESSION ? Double.toString(pred[i]) : Long.toString((long) pred[i]));
            if (prob != null) {
                for (double p : prob[i]) {
                    sb.append(',').append(p);
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private void print(Model m, Map<String, Object> summary, double[] pred, double[][] prob, String csv) {
        PrintWriter o = output.out();
        PrintWriter err = output.err();
        if (!m.privacy().isPrivate()) {
            err.println("dpopt: this model is NOT private: " + m.privacy().noise());
        }
        if (output.json) {
            if (out == null) {
                List<Object> p = new ArrayList<>();
                for (double v : pred) {
                    p.add(m.kind() == Model.Kind.REGRESSION ? (Object) v : (Object) (long) v);
                }
                summary.put("predictions", p);
                if (prob != null) {
                    List<Object> rows = new ArrayList<>();
                    for (double[] r : prob) {
                        rows.add(toList(r));
                    }
                    summary.put("probabilities", rows);
                }
            }
            o.println(Json.write(summary));
        } else if (out == null) {
            o.print(csv);
            Object metric = summary.containsKey("accuracy") ? summary.get("accuracy") : summary.get("mean_squared_error");
            if (metric != null) {
                err.println("dpopt: " + (summary.containsKey("accuracy") ? "accuracy " : "mean squared error ") + metric
                        + " on " + summary.get("rows") + " labelled rows (" + METRIC_NOTE + ")");
            }
        } else {
            for (Map.Entry<String, Object> e : summary.entrySet()) {
                o.printf("%-24s %s%n", e.getKey(), e.getValue());
            }
        }
        err.flush();
        o.flush();
    }

    private static List<Object> toList(double[] r) {
        List<Object> l = new ArrayList<>();
        for (double v : r) {
            l.add(v);
        }
        return l;
    }
}
