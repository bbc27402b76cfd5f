package org.dpopt.cli;

import java.util.ArrayList;
import java.util.List;
import org.dpopt.data.Dataset;
import org.dpopt.data.Labels;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;

/**
 * The loss, class set and problem of {@code dpopt train}, resolved from the flags and the training
 * labels before any training:
 * <ul>
 * <li>the loss is {@code --loss}, else the algorithm's default — except that a classification default
 * becomes {@code multinomial} when {@code --classes K} ≥ 3 is declared or the training labels take three
 * or more values (and are not a binary encoding {0, 1} or {−1, +1});</li>
 * <li>a binary loss refuses labels outside one binary encoding; {@code multinomial} refuses labels
 * outside 0..K−1, K from {@code --classes} or else 1 + the largest training label (the class set is
 * then derived from the labels and the report says it is treated as public); a classifier refuses
 * training data with a single class;</li>
 * <li>the intercept is on unless {@code --no-intercept}: rows (x, c), c = {@code --intercept-scale} or
 * R/2; a constraint set that fixes signs (the simplex) needs {@code --no-intercept}.</li>
 * </ul>
 *
 * @param loss the loss
 * @param classes the class labels (binary: {negative, positive}; k classes: 0..k−1; regression: none)
 * @param notes notes for the privacy statement
 * @param problem the training problem (intercept and declared size applied)
 */
record TrainSetup(Loss loss, double[] classes, List<String> notes, Problem problem) {

    /** Copies. */
    TrainSetup {
        classes = classes.clone();
        notes = List.copyOf(notes);
    }

    /** The flags that shape the problem. */
    record Flags(String loss, String defaultLoss, Integer classes, boolean intercept, Double interceptScale,
            ConvexSet domain, Integer datasetSize) {
    }

    /**
     * Resolves the setup.
     *
     * @param file the rows of the training file, whose labels are checked (row numbers in messages are its
     *             0-based data rows) and, without {@code --classes}, give the class set
     * @param train the training rows (the file, or its training split)
     * @param source the training file's name in messages (e.g. {@code "--data"})
     */
    static TrainSetup resolve(Flags f, Dataset file, Dataset train, String source) {
        Labelled l = labels(f, file, train, source);
        return new TrainSetup(l.loss(), l.classes(), l.notes(), problem(f, train, l.loss()));
    }

    /** The loss, class labels and report notes the flags and the labels give (see the class comment). */
    record Labelled(Loss loss, double[] classes, List<String> notes) {
    }

    /**
     * The loss and class set of {@link #resolve}, without building the problem (for rows that are not in
     * this JVM: {@code file} and {@code train} then stand for their labels).
     */
    static Labelled labels(Flags f, Dataset file, Dataset train, String source) {
        if (f.classes() != null) {
            Checks.atLeast("--classes", f.classes(), 2);
        }
        String name = lossName(f, file);
        List<String> notes = new ArrayList<>();
        Loss loss;
        double[] classes;
        if (Losses.MULTINOMIAL.equals(name)) {
            Labels.requireTwoClasses(file, source);
            int k = f.classes() != null ? f.classes() : Labels.impliedClassCount(file, source);
            if (f.classes() == null) {
                notes.add("class set 0.." + (k - 1) + " derived from the training labels and treated as public "
                        + "(declare it with --classes K)");
            }
            loss = Losses.multinomial(k);
            classes = new double[k];
            for (int c = 0; c < k; c++) {
                classes[c] = c;
            }
        } else {
            loss = Losses.byName(name);
            classes = new double[0];
            if (loss.isClassification()) {
                if (f.classes() != null && f.classes() != 2) {
                    throw Checks.fail("--classes", "2 for the binary loss " + name + " (use --loss multinomial for "
                            + "more classes)", f.classes());
                }
                Labels.BinaryEncoding e = Labels.binaryEncoding(file, source);
                Labels.requireTwoClasses(file, source);
                classes = new double[] {e.negative(), e.positive()};
            } else if (f.classes() != null) {
                throw Checks.fail("--classes", "absent for the regression loss " + name, f.classes());
            }
        }
        loss.checkLabels(file, source);
        if (loss.isClassification()) {
            Labels.requireTwoClasses(train, file == train ? source : "the training split of " + source);
        }
        return new Labelled(loss, classes, notes);
    }

    private static String lossName(Flags f, Dataset train) {
        if (f.loss() != null) {
            if (!Losses.NAMES.contains(f.loss()) && !Losses.MULTINOMIAL.equals(f.loss())) {
                throw Checks.fail("--loss", "one of " + Losses.NAMES + " or " + Losses.MULTINOMIAL, f.loss());
            }
            return f.loss();
        }
        Loss dflt = Losses.byName(f.defaultLoss());
        boolean multi = f.classes() != null ? f.classes() >= 3
                : !Labels.isBinaryEncoded(train) && Labels.distinct(train).length >= 3;
        return dflt.isClassification() && multi ? Losses.MULTINOMIAL : f.defaultLoss();
    }

    private static Problem problem(Flags f, Dataset train, Loss loss) {
        Problem p = Problem.of(train, loss, f.domain());
        double c = interceptScale(f, train.rowNormBound());
        if (c > 0) {
            p = p.withIntercept(c);
        }
        if (f.datasetSize() != null) {
            p = p.withDeclaredSize(Checks.atLeastOne("--dataset-size", f.datasetSize()));
        }
        return p;
    }

    /**
     * The intercept's constant c: {@code --intercept-scale}, else R/2; 0 with {@code --no-intercept}.
     * Refuses an intercept for a constraint set that fixes signs, and a scale without an intercept.
     *
     * @param rowNormBound R, the declared bound of the feature rows
     */
    static double interceptScale(Flags f, double rowNormBound) {
        if (!f.intercept()) {
            if (f.interceptScale() != null) {
                throw Checks.fail("--intercept-scale", "absent with --no-intercept", f.interceptScale());
            }
            return 0;
        }
        if (!f.domain().isSignSymmetric()) {
            throw Checks.fail("--intercept", "off (give --no-intercept) for the constraint set " + f.domain()
                    + ": it fixes the sign of every coordinate, so a bias could not take both signs", "on");
        }
        double c = f.interceptScale() != null ? f.interceptScale() : Problem.defaultInterceptScale(rowNormBound);
        return Checks.positive("--intercept-scale", c);
    }

    /** The number of classes (0 for regression). */
    int classCount() {
        return classes.length;
    }
}
