package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI contract over every command, one row per bad input: exit 2, exactly one line {@code dpopt: <name>
 * must be <condition> but was <value>} on stderr, no stack trace, with {@code --json} exactly one JSON object
 * {@code {"error", "parameter"}} on stdout, and no file in the working directory created, changed or removed
 * (existing output files included). Absurd sizes are refused up front rather than run out of memory or time.
 * In each row, {@code @name} is a file of the test directory.
 */
class CliContractTest {
    private static final String TRAIN = "train --algorithm dp-sgd --epsilon 1 --delta 1e-5 --data @t.csv ";
    private static final String PREDICT = "predict --model @m.json ";
    private static final String EPS = "account epsilon --noise-multiplier 1 --delta 1e-5 --sampling-rate 0.01 ";
    private static final String CAL = "account calibrate --epsilon 1 --delta 1e-5 --dataset-size 1000 --batch-size 10 ";

    /** Bad inputs: {command line, the start of the expected message}. */
    static final String[][] BAD = {
        {TRAIN + "--epsilon -1", "--epsilon must be positive"},
        {TRAIN + "--epsilon 0", "--epsilon must be positive"},
        {TRAIN + "--epsilon NaN", "--epsilon must be positive"},
        {TRAIN + "--epsilon Infinity", "--epsilon must be positive"},
        {TRAIN + "--epsilon inf", "--epsilon must be a number"},
        {TRAIN + "--epsilon 1e6", "--epsilon must be at most"},
        {TRAIN + "--epsilon 1e300", "--epsilon must be at most"},
        {TRAIN + "--delta 0", "--delta must be in (0, 1)"},
        {TRAIN + "--delta 1", "--delta must be in (0, 1)"},
        {TRAIN + "--delta NaN", "--delta must be in (0, 1)"},
        {TRAIN + "--epochs 0", "--epochs must be positive"},
        {TRAIN + "--epochs -1", "--epochs must be positive"},
        {TRAIN + "--epochs NaN", "--epochs must be positive"},
        {TRAIN + "--epochs Infinity", "--epochs must be positive"},
        {TRAIN + "--epochs 1e8", "--epochs must be"},
        {TRAIN + "--epochs 1e7", "--epochs must be"},
        {TRAIN + "--batch-size 0", "--batch-size must be at least 1"},
        {TRAIN + "--batch-size -3", "--batch-size must be at least 1"},
        {TRAIN + "--batch-size 99999999999", "--batch-size must be an integer"},
        {TRAIN + "--batch-size 100000", "--batch-size must be at most"},
        {TRAIN + "--clip-norm 0", "--clip-norm must be positive"},
        {TRAIN + "--clip-norm NaN", "--clip-norm must be positive"},
        {TRAIN + "--learning-rate -1", "--learning-rate must be positive"},
        {TRAIN + "--sampler nope", "--sampler must be one of"},
        {TRAIN + "--accountant nope", "--accountant must be one of"},
        {TRAIN + "--loss nope", "--loss must be one of"},
        {TRAIN + "--format nope", "--format must be"},
        {TRAIN + "--algorithm nope", "--algorithm must be one of"},
        {TRAIN + "--bogus", "option must be one of those of 'dpopt train'"},
        {TRAIN + "--seed 1 --secure", "--seed must be absent with --secure"},
        {TRAIN + "--seed 1.5", "--seed must be an integer"},
        {TRAIN + "--test-fraction 0", "--test-fraction must be in (0, 1)"},
        {TRAIN + "--test-fraction NaN", "--test-fraction must be in (0, 1)"},
        {TRAIN + "--row-norm-bound 0", "--row-norm-bound must be positive"},
        {TRAIN + "--row-norm-bound Infinity", "--row-norm-bound must be positive"},
        {TRAIN + "--dataset-size 0", "--dataset-size must be at least 1"},
        {TRAIN + "--dataset-size 10", "number of rows must be at most the declared dataset size"},
        {TRAIN + "--dataset-size 2000000000", "--dataset-size must be at most"},
        {TRAIN + "--classes 1", "--classes must be at least 2"},
        {TRAIN + "--intercept-scale 0", "--intercept-scale must be positive"},
        {TRAIN + "--model-out @adir", "--model-out must be a file path, not a directory"},
        {TRAIN + "--model-out @nodir/m.json", "--model-out must be in an existing directory"},
        {TRAIN + "--model-out @t.csv", "--model-out must be different from the input"},
        {TRAIN + "--model-out @existing.json --epsilon 0", "--epsilon must be positive"},
        {TRAIN + "--model-out @existing.json --epochs 1e8", "--epochs must be"},
        {TRAIN + "--test-data @adir", "data file must be an existing file"},
        {"train --algorithm dp-sgd --epsilon 1 --delta 1e-5 --data @missing.csv", "data file must be an existing"},
        {"train --algorithm dp-sgd --epsilon 1 --delta 1e-5 --data @adir", "data file must be an existing file"},
        {"train --algorithm dp-sgd --epsilon 1 --delta 1e-5 --data @empty.csv", "@empty.csv must be a file with at least"},
        {"train --algorithm dp-sgd --epsilon 1 --delta 1e-5 --data @header.csv", "@header.csv must be a file with at least"},
        {"train --algorithm dp-sgd --epsilon 1 --delta 1e-5 --format libsvm --data @ok.libsvm", "--dimension must be given"},
        {"train --algorithm dp-sgd --epsilon 1 --delta 1e-5 --format libsvm --dimension 0 --data @ok.libsvm",
            "--dimension must be at least 1"},
        {"train --algorithm dp-sgd --epsilon 1 --delta 1e-5 --format libsvm --dimension 2 --data @big.libsvm",
            "largest feature index in @big.libsvm must be at most dimension 2"},
        {"train --algorithm dp-sgd --epsilon 1 --delta 1e-5 --format libsvm --dimension 1000000000 --data @ok.libsvm",
            "dense matrix of @ok.libsvm"},
        {"train --algorithm non-private --epsilon 1 --data @t.csv", "--epsilon must be absent for non-private"},
        {"train --algorithm dp-sgd --epsilon 1 --delta 1e-5 --data @huge.csv", "norm of row 300 in @huge.csv must be finite"},
        {"train --algorithm dp-sgd --epsilon 1 --delta 1e-5 --format libsvm --dimension 2 --data @dup.libsvm",
            "feature indices of @dup.libsvm line 1 must be distinct"},
        {TRAIN.replace("@t.csv", "@half.csv") + "--loss logistic", "label of row 1 of --data must be 0 or 1"},
        {TRAIN.replace("@t.csv", "@three.csv") + "--loss logistic", "label of row 2 of --data must be 0 or 1"},
        {TRAIN.replace("@t.csv", "@mixed.csv"), "labels of --data must be integers 0..k-1"},
        {TRAIN.replace("@t.csv", "@single.csv"), "labels of --data must be at least two different classes"},
        {TRAIN + "--sampler truncated-poisson --batch-size 10 --max-batch-size 5", "--max-batch-size must be at least"},
        {TRAIN + "--max-batch-size 50", "--max-batch-size must be used only with --sampler truncated-poisson"},
        {TRAIN + "--engine spark --budget-file @b.txt", "--total-epsilon must be given to create the budget file"},
        {TRAIN + "--budget-file @b.txt", "--total-epsilon must be given to create the budget file"},
        {TRAIN + "--budget-file @b.txt --total-epsilon 1", "--total-delta must be given to create the budget file"},
        {TRAIN + "--budget-file @b.txt --total-epsilon 0.5 --total-delta 1e-5", "--epsilon must be at most --total-epsilon 0.5"},
        {TRAIN + "--budget-file @b.txt --total-epsilon 2 --total-delta 1e-6", "--delta must be at most --total-delta 1.0E-6"},
        {TRAIN + "--progress --quiet", "--progress must be absent with --quiet"},
        {"bench --suite samplers --progress --quiet", "--progress must be absent with --quiet"},
        {"train --algorithm prox-sgd --epsilon 1 --delta 1e-5 --data @t.csv --epochs 1e8", "--epochs must be"},
        {"train --algorithm noisy-frank-wolfe --epsilon 1 --delta 1e-5 --data @t.csv --epochs 2",
            "--epochs must be absent for noisy-frank-wolfe"},
        {TRAIN + "--budget-file @adir --total-epsilon 2 --total-delta 1e-4", "--budget-file must be a file path"},
        {TRAIN + "--total-epsilon 2", "--total-epsilon must be absent without --budget-file"},
        {TRAIN + "--budget-file @b.txt --total-epsilon -2 --total-delta 1e-4", "--total-epsilon must be positive"},
        {PREDICT.replace("@m.json", "@missing.json") + "--data @t.csv", "--model must be an existing model file"},
        {PREDICT.replace("@m.json", "@adir") + "--data @t.csv", "--model must be an existing model file"},
        {PREDICT.replace("@m.json", "@empty.csv") + "--data @t.csv", "JSON text of @empty.csv must be"},
        {PREDICT.replace("@m.json", "@t.csv") + "--data @t.csv", "JSON text of @t.csv must be"},
        {PREDICT + "--data @missing.csv", "--data must be an existing file"},
        {PREDICT + "--data @adir", "--data must be an existing file"},
        {PREDICT + "--data @empty.csv", "@empty.csv must be a file with at least one data row"},
        {PREDICT + "--data @t.csv --out @adir", "--out must be a file path, not a directory"},
        {PREDICT + "--data @t.csv --out @nodir/p.csv", "--out must be in an existing directory"},
        {PREDICT + "--data @t.csv --out @t.csv", "--out must be different from the input"},
        {PREDICT + "--data @t.csv --out @m.json", "--out must be different from the input"},
        {PREDICT + "--data @t.csv --out @existing.json --format nope", "--format must be csv or libsvm"},
        {PREDICT + "--data @t.csv --bogus", "option must be one of those of 'dpopt predict'"},
        {EPS + "--steps 100 --noise-multiplier 0", "--noise-multiplier must be positive"},
        {EPS + "--steps 100 --noise-multiplier NaN", "--noise-multiplier must be positive"},
        {EPS + "--steps 100 --noise-multiplier Infinity", "--noise-multiplier must be positive"},
        {EPS + "--steps 100 --delta 0", "--delta must be in (0, 1)"},
        {EPS.replace("0.01", "1.5") + "--steps 100", "--sampling-rate must be in (0, 1]"},
        {EPS + "--steps 0", "--steps must be at least 1"},
        {EPS + "--steps 1e12", "--steps must be an integer"},
        {EPS + "--steps 1000000000000", "--steps must be at most"},
        {EPS + "--steps 100 --accountant nope", "--accountant must be one of"},
        {EPS + "--steps 100 --discretization 0", "--discretization must be in"},
        {"account nope --noise-multiplier 1", "query must be one of"},
        {"account", "query must be given"},
        {CAL + "--steps 100 --epsilon 0", "--epsilon must be positive"},
        {CAL + "--steps 100 --epsilon 1e6", "--epsilon must be at most"},
        {CAL + "--steps 100 --batch-size 100000", "--batch-size must be at most --dataset-size"},
        {CAL + "--steps 1000000000000", "--steps must be at most"},
        {"account statement --dataset-size 1000 --batch-size 10 --epochs 1e8 --noise-multiplier 1", "--epochs must be"},
        {"audit --algorithm nope", "--algorithm must be one of"},
        {"audit --algorithm dp-sgd --epsilon 0", "--epsilon must be positive"},
        {"audit --algorithm dp-sgd --epsilon 1e6", "--epsilon must be at most"},
        {"audit --algorithm dp-sgd --runs 7", "--runs must be at least 8"},
        {"audit --algorithm dp-sgd --runs 1000000000", "--runs must be at most"},
        {"audit --algorithm dp-sgd --alpha 0", "--alpha must be in (0, 1)"},
        {"audit --algorithm dp-sgd --mutant nope", "--mutant must be one of"},
        {"audit --algorithm dp-sgd --out @t.csv", "--out must be a directory"},
        {"audit --algorithm dp-sgd --progress --quiet", "--progress must be absent with --quiet"},
        {"bench --suite nope", "--suite must be one of"},
        {"bench --suite samplers --out @t.csv", "--out must be a directory"},
        {"demo --dataset nope", "--dataset must be one of"},
        {"demo --runs 0", "--runs must be in [1, 1000]"},
        {"demo --runs 100000000", "--runs must be in [1, 1000]"},
        {"demo --bogus", "option must be one of those of 'dpopt demo'"},
        {"budget show", "FILE must be given"},
        {"budget show @missing", "budget file must be an existing file"},
        {"budget show @adir", "budget file must be an existing file"},
        {"budget show @t.csv", "budget file @t.csv must be"},
        {"budget show @empty.csv", "budget file @empty.csv must be"},
        {"budget nope", "argument must be one of those of 'dpopt budget'"},
        {"nope", "argument must be one of those of 'dpopt'"},
    };

    @TempDir
    static Path dir;

    @BeforeAll
    static void files() throws Exception {
        Path t = Files.copy(CliTest.trainFile(dir), dir.resolve("t.csv"));
        String text = Files.readString(t);
        Files.writeString(dir.resolve("empty.csv"), "");
        Files.writeString(dir.resolve("header.csv"), text.substring(0, text.indexOf('\n') + 1));
        Files.createDirectory(dir.resolve("adir"));
        Files.writeString(dir.resolve("ok.libsvm"), "1 1:0.5 2:0.1\n0 1:0.1 2:0.2\n1 1:0.3\n0 2:0.3\n");
        Files.writeString(dir.resolve("big.libsvm"), "1 1:0.5 2:0.1\n0 1:0.1 1000000000:0.2\n");
        Files.writeString(dir.resolve("existing.json"), "keep me\n");
        Files.writeString(dir.resolve("huge.csv"), text + "1e308,1e308,1\n");
        Files.writeString(dir.resolve("dup.libsvm"), "1 1:0.5 1:0.1\n0 1:0.1 2:0.2\n1 1:0.3\n0 2:0.3\n");
        labels("half.csv", "0", "0.5");
        labels("three.csv", "0", "1", "2");
        labels("mixed.csv", "0", "1", "-1");
        labels("single.csv", "1");
        CliTest.json(CliTest.run("train", "--algorithm", "dp-sgd", "--epsilon", "1", "--delta", "1e-5", "--epochs", "1",
                "--data", t.toString(), "--seed", "1", "--model-out", dir.resolve("m.json").toString(), "--json"));
    }

    /** A 60-row file whose labels cycle through the given ones. */
    private static void labels(String name, String... cycle) throws IOException {
        StringBuilder sb = new StringBuilder("x1,x2,label\n");
        for (int i = 0; i < 60; i++) {
            sb.append((i % 10) / 20.0).append(',').append((i % 7) / 20.0).append(',').append(cycle[i % cycle.length])
                    .append('\n');
        }
        Files.writeString(dir.resolve(name), sb.toString());
    }

    /** The arguments of a row; an option given again replaces its earlier value (rows vary a base line). */
    private static String[] args(String line) {
        List<String> out = new ArrayList<>();
        for (String tok : line.trim().split(" +")) {
            out.add(tok.startsWith("@") ? dir.resolve(tok.substring(1)).toString() : tok);
        }
        for (int k = out.size() - 1; k >= 0; k--) {
            String opt = out.get(k);
            int earlier = opt.startsWith("--") ? out.subList(0, k).indexOf(opt) : -1;
            if (earlier >= 0) {
                boolean valued = earlier + 1 < out.size() && !out.get(earlier + 1).startsWith("--");
                out.remove(earlier);
                if (valued) {
                    out.remove(earlier);
                }
                k = out.size();
            }
        }
        out.add("--json");
        return out.toArray(new String[0]);
    }

    private static Map<String, String> snapshot() throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                m.put(dir.relativize(p).toString(), Files.isDirectory(p) ? "<dir>"
                        : new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
            }
        }
        return m;
    }

    @Test
    void everyBadInputExitsTwoWithOneLineOneJsonObjectAndWritesNothing() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        List<String> broken = new ArrayList<>();
        for (String[] row : BAD) {
            Map<String, String> before = snapshot();
            CliTest.Run r = CliTest.run(args(row[0]));
            String expected = "dpopt: " + row[1].replace("@", dir.toString() + "/");
            String[] lines = r.err().strip().split("\n");
            String problem = null;
            if (r.code() != 2) {
                problem = "exit " + r.code();
            } else if (lines.length != 1 || r.err().contains("\tat ")) {
                problem = "stderr is not one line: " + r.err();
            } else if (!lines[0].startsWith(expected) || !lines[0].matches("dpopt: .+ must be .+ but was .+")) {
                problem = "message " + lines[0];
            } else {
                String[] out = r.out().strip().split("\n");
                JsonNode j = out.length == 1 ? mapper.readTree(out[0]) : null;
                List<String> keys = new ArrayList<>();
                if (j != null) {
                    for (Iterator<String> it = j.fieldNames(); it.hasNext();) {
                        keys.add(it.next());
                    }
                }
                if (j == null || !keys.equals(List.of("error", "parameter")) || !lines[0].equals(j.get("error").asText())) {
                    problem = "stdout is not one JSON error object: " + r.out();
                } else if (!snapshot().equals(before)) {
                    problem = "files changed";
                }
            }
            if (problem != null) {
                broken.add(row[0] + "  ->  " + problem);
            }
        }
        assertTrue(broken.isEmpty(), broken.size() + " of " + BAD.length + " broke the contract:\n"
                + String.join("\n", broken));
    }

    /** Legitimate edge inputs run: a byte-order mark (headerless), CRLF line ends, a quoted header. */
    @Test
    void edgeInputsRunAndReadTheSameRows() throws Exception {
        String text = Files.readString(dir.resolve("train.csv"));
        String body = text.substring(text.indexOf('\n') + 1);
        Files.writeString(dir.resolve("bom.csv"), "\uFEFF" + body, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("crlf.csv"), text.replace("\n", "\r\n"));
        Files.writeString(dir.resolve("quoted.csv"), "\"x1\",\"x2\",\"label\"\n" + body);
        String reference = null;
        for (String f : new String[] {"train.csv", "bom.csv", "crlf.csv", "quoted.csv"}) {
            Path model = dir.resolve("edge-" + f + ".json");
            JsonNode j = CliTest.json(CliTest.run("train", "--algorithm", "dp-sgd", "--epsilon", "1", "--delta", "1e-5",
                    "--epochs", "1", "--data", dir.resolve(f).toString(), "--seed", "5", "--model-out", model.toString(),
                    "--json"));
            assertEquals(240, j.get("parameters").get("dataset_size").asInt(), f + " lost or gained rows");
            String weights = mapper().readTree(Files.readString(model)).get("weights").toString();
            if (reference == null) {
                reference = weights;
            }
            assertEquals(reference, weights, f + " trained another model on the same rows");
            CliTest.Run p = CliTest.run("predict", "--model", dir.resolve("m.json").toString(), "--data",
                    dir.resolve(f).toString(), "--json");
            assertEquals(300, CliTest.json(p).get("rows").asInt(), f);
        }
        assertFalse(reference.isEmpty());
    }

    private static ObjectMapper mapper() {
        return new ObjectMapper();
    }
}
