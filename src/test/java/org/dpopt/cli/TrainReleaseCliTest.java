package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;
import org.dpopt.data.Dataset;
import org.dpopt.noise.NoiseSource;
import org.dpopt.optim.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code dpopt train} releases: private by default (secure noise, no seed), only the private
 * release and held-out metrics without {@code --diagnostics}, non-private numbers only under their
 * own key, public constants declared rather than read off the data.
 */
class TrainReleaseCliTest {

    /** The keys a default (private) run may print: the private release and held-out metrics. */
    static final Set<String> RELEASE_KEYS = Set.of("algorithm", "loss", "classes", "fit_intercept", "epsilon",
            "epsilon_infinite", "epsilon_lower",
            "delta", "accountant", "relation", "noise", "parameters", "privacy", "constant_check", "test_accuracy",
            "test_loss",
            "test_majority_rate", "hint", "test_rows", "test_note", "seconds");

    private static Set<String> keys(JsonNode j) {
        Set<String> k = new TreeSet<>();
        for (Iterator<String> it = j.fieldNames(); it.hasNext();) {
            k.add(it.next());
        }
        return k;
    }

    static String[] train(Path data, Path model, String... extra) {
        String[] base = {"train", "--algorithm", "dp-sgd", "--data", data.toString(), "--epsilon", "1", "--delta",
            "1e-5", "--epochs", "3", "--model-out", model.toString(), "--json"};
        String[] all = java.util.Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return all;
    }

    @Test
    void defaultRunIsSecureUnreproducibleAndReleasesOnlyWhitelistedKeys(@TempDir Path dir) throws Exception {
        Path f = CliTest.trainFile(dir);
        Path m1 = dir.resolve("m1.txt");
        Path m2 = dir.resolve("m2.txt");
        JsonNode a = CliTest.json(CliTest.run(train(f, m1)));
        JsonNode b = CliTest.json(CliTest.run(train(f, m2)));
        assertEquals(NoiseSource.SECURE_DESCRIPTION, a.get("noise").asText());
        assertTrue(RELEASE_KEYS.containsAll(keys(a)), "unexpected keys " + keys(a));
        assertFalse(a.has("seed"), "a secure run must not print a seed");
        assertFalse(a.has("non_private_diagnostics"));
        Set<String> paramKeys = new TreeSet<>();
        for (Param p : Param.values()) {
            paramKeys.add(p.key());
        }
        assertTrue(paramKeys.containsAll(keys(a.get("parameters"))), "parameters: " + keys(a.get("parameters")));
        // the replay attack: a default run cannot be reproduced, so two runs differ
        assertNotEquals(Files.readString(m1), Files.readString(m2), "two default runs gave the same model");
        assertFalse(a.get("privacy").asText().contains("not private"), a.get("privacy").asText());
    }

    @Test
    void seededRunIsResearchModeAndSaysSo(@TempDir Path dir) throws Exception {
        Path f = CliTest.trainFile(dir);
        Path m1 = dir.resolve("m1.txt");
        Path m2 = dir.resolve("m2.txt");
        CliTest.Run r = CliTest.run(train(f, m1, "--seed", "7"));
        JsonNode a = CliTest.json(r);
        CliTest.json(CliTest.run(train(f, m2, "--seed", "7")));
        assertEquals(NoiseSource.SEEDED_DESCRIPTION, a.get("noise").asText());
        assertEquals(7, a.get("seed").asLong());
        assertTrue(r.err().contains("not private unless the seed is secret and random"), r.err());
        assertTrue(a.get("privacy").asText().contains("not private unless the seed is secret"));
        assertEquals(Files.readString(m1), Files.readString(m2), "same seed must reproduce the model");
    }

    @Test
    void seedWithSecureIsRefused(@TempDir Path dir) throws Exception {
        Path f = CliTest.trainFile(dir);
        Path m = dir.resolve("m.txt");
        CliTest.Run r = CliTest.run(train(f, m, "--seed", "7", "--secure"));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().startsWith("dpopt: --seed must be absent with --secure"), r.err());
        assertFalse(Files.exists(m));
    }

    @Test
    void diagnosticsOnlyWhenAskedUnderTheirOwnKeyAndLabelled(@TempDir Path dir) throws Exception {
        Path f = CliTest.trainFile(dir);
        CliTest.Run r = CliTest.run(train(f, dir.resolve("m.txt"), "--diagnostics"));
        JsonNode j = CliTest.json(r);
        Set<String> outside = keys(j);
        outside.remove("non_private_diagnostics");
        assertTrue(RELEASE_KEYS.containsAll(outside), "non-private numbers outside their key: " + outside);
        JsonNode d = j.get("non_private_diagnostics");
        for (String k : new String[] {"train_loss", "gradient_evaluations", "mean_clipped_fraction", "train_rows",
            "projected_rows"}) {
            assertTrue(d.has(k), "missing diagnostic " + k + " in " + d);
        }
        assertTrue(r.err().contains("NOT PRIVATE"), r.err());
    }

    @Test
    void libsvmNeedsADeclaredDimensionAndANeighbourCannotChangeIt(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("a.libsvm");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            sb.append(i % 2).append(" 1:").append((i % 7) / 10.0).append(" 3:").append((i % 5) / 10.0).append('\n');
        }
        Files.writeString(f, sb.toString());
        Path m = dir.resolve("m.txt");
        CliTest.Run noDim = CliTest.run("train", "--algorithm", "dp-sgd", "--format", "libsvm", "--data", f.toString(),
                "--epsilon", "1", "--delta", "1e-5", "--model-out", m.toString());
        assertEquals(2, noDim.code(), noDim.err());
        assertTrue(noDim.err().startsWith("dpopt: --dimension must be given for --format libsvm"), noDim.err());
        assertFalse(Files.exists(m));
        JsonNode j = CliTest.json(CliTest.run("train", "--algorithm", "dp-sgd", "--format", "libsvm", "--data",
                f.toString(), "--dimension", "30", "--epsilon", "1", "--delta", "1e-5", "--model-out", m.toString(),
                "--json"));
        assertEquals(30, org.dpopt.models.Model.load(m).dimension(), "the model has the declared dimension");
        assertEquals(31, j.get("parameters").get("dimension").asInt(), "the optimizer's d counts the intercept");
        // a neighbour with one record using a unique large index: refused, never a longer model
        Files.writeString(f, sb + "1 500:0.5\n");
        Path m2 = dir.resolve("m2.txt");
        CliTest.Run neighbour = CliTest.run("train", "--algorithm", "dp-sgd", "--format", "libsvm", "--data",
                f.toString(), "--dimension", "30", "--epsilon", "1", "--delta", "1e-5", "--model-out", m2.toString());
        assertEquals(2, neighbour.code(), neighbour.err());
        assertFalse(Files.exists(m2));
    }

    @Test
    void declaredDatasetSizeFixesThePlanAndIsNotRevealed(@TempDir Path dir) throws Exception {
        Path f = CliTest.trainFile(dir);
        // 300 rows, 240 in the training split; two different actual sizes under one declared n give one plan
        JsonNode a = CliTest.json(CliTest.run("train", "--algorithm", "dp-sgd", "--data", f.toString(), "--epsilon", "1",
                "--delta", "1e-5", "--dataset-size", "250", "--json"));
        JsonNode b = CliTest.json(CliTest.run("train", "--algorithm", "dp-sgd", "--data", f.toString(), "--epsilon", "1",
                "--delta", "1e-5", "--dataset-size", "250", "--test-fraction", "0.25", "--json"));
        assertEquals(a.get("parameters"), b.get("parameters"));
        assertEquals(250, a.get("parameters").get("dataset_size").asInt());
        assertTrue(a.get("privacy").asText().contains("declared public in advance"), a.get("privacy").asText());
        assertFalse(a.has("test_rows"), "the size of a split of the training file would reveal its size");
        // fewer declared rows than present, or a positional sampler with a mismatch, is refused
        CliTest.Run tooSmall = CliTest.run("train", "--algorithm", "dp-sgd", "--data", f.toString(), "--epsilon", "1",
                "--delta", "1e-5", "--dataset-size", "100");
        assertEquals(2, tooSmall.code(), tooSmall.err());
        CliTest.Run positional = CliTest.run("train", "--algorithm", "dp-sgd", "--sampler", "deterministic", "--data",
                f.toString(), "--epsilon", "1", "--delta", "1e-5", "--dataset-size", "250");
        assertEquals(2, positional.code(), positional.err());
        assertTrue(positional.err().contains("declared dataset size must be equal to the number of rows 240"),
                positional.err());
    }

    @Test
    void modelOutIsCheckedBeforeTraining(@TempDir Path dir) throws Exception {
        Path f = CliTest.trainFile(dir);
        for (Path bad : new Path[] {dir, dir.resolve("missing/m.txt"), f}) {
            CliTest.Run r = CliTest.run(train(f, bad));
            assertEquals(2, r.code(), bad + ": " + r.err());
            assertTrue(r.err().startsWith("dpopt: --model-out must be"), r.err());
        }
        assertEquals(301, Files.readAllLines(f).size(), "the input was not touched");
    }

    @Test
    void everyClassifierReportsTheMajorityRateAndAHintWhenItIsNoBetter(@TempDir Path dir) throws Exception {
        Path f = CliTest.trainFile(dir);
        // the paper's report-noisy-max schedule in an l1 ball of radius 1e-9 on this file selects the intercept
        // vertex: one class for every row, so the accuracy is the rate of that class, at most the majority
        // rate; the hint must follow
        CliTest.Run r = CliTest.run("train", "--algorithm", "noisy-frank-wolfe", "--data", f.toString(), "--epsilon",
                "1", "--delta", "1e-5", "--radius", "1e-9", "--preset", "paper", "--seed", "3", "--json");
        JsonNode a = CliTest.json(r);
        double majority = a.get("test_majority_rate").asDouble();
        assertTrue(majority >= 0.5 && majority <= 1, "majority " + majority);
        assertTrue(a.get("test_accuracy").asDouble() <= majority, a.toString());
        assertTrue(a.get("hint").asText().contains("--radius"), a.get("hint").asText());
        assertTrue(r.err().contains("dpopt: hint: "), r.err());
        assertTrue(r.err().contains("test accuracy " + String.format(java.util.Locale.ROOT, "%.4f",
                a.get("test_accuracy").asDouble()) + " is no better than the majority-class rate"), r.err());
        // a useful model: the rate is printed, no hint
        CliTest.Run good = CliTest.run(train(f, dir.resolve("m.txt"), "--seed", "3"));
        JsonNode g = CliTest.json(good);
        assertTrue(g.get("test_accuracy").asDouble() > g.get("test_majority_rate").asDouble(), g.toString());
        assertFalse(g.has("hint"));
        assertFalse(good.err().contains("hint"), good.err());
    }

    @Test
    void theMajorityRateCountsTheMostFrequentTestLabel() {
        Dataset d = Dataset.of(new double[][] {{0}, {0}, {0}, {0}, {0}}, new double[] {1, 0, 1, 2, 1}, 1.0);
        assertEquals(0.6, MajorityGuard.majorityRate(d), 1e-15);
        assertEquals(null, MajorityGuard.hint(0.61, 0.6, AlgorithmSpecs.get("dp-sgd")));
        assertTrue(MajorityGuard.hint(0.6, 0.6, AlgorithmSpecs.get("dp-sgd")).contains("--epochs"));
    }
}
