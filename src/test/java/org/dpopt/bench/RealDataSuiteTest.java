package org.dpopt.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real-data suite's plumbing with a stand-in for {@code dpopt train} (no training, no timing): the
 * exact command of each run, the CSV rows, the marks of the markdown table against the peers and the
 * majority rate, the plots, a missing dataset skipped aloud and a failed run recorded.
 */
class RealDataSuiteTest {

    @TempDir
    Path tmp;

    /** Answers accuracy 0.9 for "good", 0.6 for "weak" (below diffprivlib's 0.7, at or below majority 0.632). */
    private static final class FakeTrain implements TrainRunner {
        final List<List<String>> calls = new ArrayList<>();

        @Override
        public List<String> classifiers() {
            return List.of("good", "weak", "prox-sgd", "broken");
        }

        @Override
        public Map<String, Object> train(List<String> args) {
            calls.add(args);
            String alg = args.get(1);
            if (alg.equals("broken")) {
                throw new IllegalStateException("dpopt train exited with 2: dpopt: --radius must be given");
            }
            double acc = alg.equals("weak") ? 0.6 : 0.9;
            return Map.of("test_accuracy", acc, "test_majority_rate", 0.631579, "seconds", 0.5);
        }
    }

    private RealDataSuite.Plan plan(List<String> sets) throws Exception {
        Path data = Files.createDirectories(tmp.resolve("shared/data"));
        for (String f : new String[] {"breast_cancer_train.csv", "breast_cancer_test.csv"}) {
            Files.writeString(data.resolve(f), "x,label\n0.1,1\n");
        }
        Path peers = Files.createDirectories(tmp.resolve("shared/refdata")).resolve("peers-accuracy.csv");
        try (InputStream in = getClass().getResourceAsStream("/realdata/peers-accuracy.csv")) {
            Files.copy(in, peers);
        }
        return new RealDataSuite.Plan(data, peers, sets, new double[] {1}, 3);
    }

    @Test
    void runsTheBareCommandPerSeedAndMarksShortfalls() throws Exception {
        FakeTrain train = new FakeTrain();
        StringWriter log = new StringWriter();
        Path out = Files.createDirectories(tmp.resolve("out"));
        Map<String, Object> s = new RealDataSuite(plan(List.of("breast_cancer", "absent_set")))
                .run(out, true, new PrintWriter(log, true), train);

        Path data = tmp.resolve("shared/data");
        assertEquals(List.of("--algorithm", "good", "--data", data.resolve("breast_cancer_train.csv").toString(),
                "--test-data", data.resolve("breast_cancer_test.csv").toString(), "--epsilon", "1", "--delta", "1e-5",
                "--seed", "101"), train.calls.get(0));
        assertEquals("103", train.calls.get(2).get(11));
        List<String> prox = train.calls.get(6);
        assertEquals(List.of("prox-sgd", "--loss", "hinge"), List.of(prox.get(1), prox.get(12), prox.get(13)));
        assertEquals(3 + 3 + 3 + 1, train.calls.size(), "a failed cell stops at its first failed run");
        assertTrue(log.toString().contains("skipping absent_set"), log.toString());

        assertEquals(0.9, s.get("breast_cancer good acc@eps=1"));
        assertEquals(0.7, s.get("breast_cancer diffprivlib-best acc@eps=1"));
        List<String> csv = Files.readAllLines(out.resolve("real-data.csv"));
        assertEquals(5, csv.size());
        assertTrue(csv.get(2).startsWith("breast_cancer,weak,1,1e-5,3,0.600000,0.000000,3,0.631579,0.700000,0.846053,"),
                csv.get(2));
        assertTrue(csv.get(4).contains("\"dpopt train exited with 2"), csv.get(4));
        assertEquals(1 + 9, Files.readAllLines(out.resolve("real-data-runs.csv")).size());

        String md = Files.readString(out.resolve("real-data.md"));
        assertTrue(md.contains("| `good` | 0.900 ± 0.000 |"), md);
        assertTrue(md.contains("| `weak` | 0.600 ± 0.000 ↓ ✗ 3/3 |"), md);
        assertTrue(md.contains("| `broken` | failed |"), md);
        assertTrue(md.contains("| diffprivlib 0.6.6, best C | 0.700 |"), md);
        assertTrue(md.contains("| majority class of the test labels | 0.632 |"), md);
        assertTrue(md.contains("- `weak`: below diffprivlib's best setting on breast_cancer; at or below the "
                + "majority-class rate on breast_cancer."), md);
        assertTrue(Files.size(out.resolve("real-data-breast_cancer.png")) > 0);
    }

    @Test
    void diffprivlibsBestSettingIsTheLargestMeanOverItsVariants() throws Exception {
        RealDataPeers p = RealDataPeers.read(plan(List.of()).peers());
        assertEquals(0.7, p.diffprivlibBest("breast_cancer", 1));
        assertEquals(0.691667, p.diffprivlibBest("heart_scale", 1));
        assertEquals(0.846053, p.opacus("breast_cancer", 1));
        assertTrue(Double.isNaN(p.diffprivlibBest("breast_cancer", 5)));
        assertTrue(Double.isNaN(RealDataPeers.read(tmp.resolve("none.csv")).opacus("breast_cancer", 1)));
    }

    @Test
    void refusesToRunWithoutTheCommandLine() {
        assertThrows(IllegalStateException.class,
                () -> new RealDataSuite().run(tmp, true, new PrintWriter(new StringWriter())));
    }
}
