package org.dpopt.cli;

import org.dpopt.geometry.ConvexSet;
import picocli.CommandLine.Option;

/**
 * The flags of {@code dpopt train} that shape the problem (a picocli mixin): the loss, the declared class
 * set, the intercept and the declared dataset size; see {@link TrainSetup}.
 */
final class ModelOptions {
    @Option(names = "--dataset-size", description = "Declare the public dataset size n in advance: plans use it and "
            + "the actual number of rows is not released.")
    Integer datasetSize;
    @Option(names = "--loss", description = "Loss: logistic|hinge|absolute|squared|huber|smoothed-hinge|"
            + "phase-retrieval|sigmoid|cauchy|multinomial (default per algorithm; multinomial when the training labels "
            + "are not 0/1 or -1/+1, or --classes K >= 3).")
    String loss;
    @Option(names = "--classes", description = "Declare the number of classes K (labels 0..K-1; 2 for a binary loss). "
            + "Default: from the training labels, a class set then treated as public.")
    Integer classes;
    @Option(names = "--intercept", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Fit an intercept (the default); --no-intercept turns it off.")
    boolean intercept;
    @Option(names = "--intercept-scale", description = "The constant c of the intercept's column (default R/2); the "
            + "declared row bound becomes sqrt(R^2 + c^2).")
    Double interceptScale;

    /** The loss name the optimizer is built with: --loss, else the algorithm's default. */
    String lossOr(String defaultLoss) {
        return loss != null ? loss : defaultLoss;
    }

    /** The flags as {@link TrainSetup} takes them. */
    TrainSetup.Flags setup(String defaultLoss, ConvexSet domain) {
        return new TrainSetup.Flags(loss, defaultLoss, classes, intercept, interceptScale, domain, datasetSize);
    }
}
