package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.noise.Rngs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code dpopt train --algorithm pg-mirror-descent}: runs, reports diagnostics, refuses bad flags. */
class PgMirrorDescentCliTest {

    @TempDir
    Path dir;

    private Path sample() throws Exception {
        Dataset data = Synthetic.phaseRetrieval(1500, Synthetic.plantedVector(5, 1, Rngs.seeded(1)), 0.1,
                Rngs.seeded(2)).data();
        StringBuilder sb = new StringBuilder("a,b,c,d,e,y\n");
        for (int i = 0; i < data.size(); i++) {
            for (int j = 0; j < 5; j++) {
                sb.append(data.feature(i, j)).append(',');
            }
            sb.append(data.label(i)).append('\n');
        }
        Path f = dir.resolve("pr.csv");
        Files.writeString(f, sb.toString());
        return f;
    }

    private static int run(StringWriter out, StringWriter err, String... args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    @Test
    void trainsAndReportsNoNonPrivateDiagnosticByDefault() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = run(out, err, "train", "--algorithm", "pg-mirror-descent", "--data", sample().toString(),
                "--epsilon", "2", "--delta", "1e-5", "--p", "1", "--radius", "1", "--json");
        assertEquals(0, rc, err.toString());
        String s = out.toString();
        // near-stationarity reads all the data: a non-private diagnostic, absent unless asked for
        assertTrue(!s.contains("\"near_stationarity\""), s);
        assertTrue(s.contains("\"lp_norm\":1.0"), s);
        assertTrue(s.contains("\"loss\":\"phase-retrieval\""), s);
        assertTrue(s.contains("disjoint parts"), s);
    }

    @Test
    void refusesBadRhoAndForeignFlags() throws Exception {
        Path f = sample();
        StringWriter err = new StringWriter();
        assertEquals(2, run(new StringWriter(), err, "train", "--algorithm", "pg-mirror-descent", "--data",
                f.toString(), "--epsilon", "2", "--delta", "1e-5", "--rho", "-1"));
        assertTrue(err.toString().contains("rho must be"), err.toString());
        StringWriter err2 = new StringWriter();
        assertEquals(2, run(new StringWriter(), err2, "train", "--algorithm", "pg-mirror-descent", "--data",
                f.toString(), "--epsilon", "2", "--delta", "1e-5", "--radius", "1", "--epochs", "2"));
        StringWriter err3 = new StringWriter();
        assertEquals(2, run(new StringWriter(), err3, "train", "--algorithm", "pg-mirror-descent", "--data",
                f.toString(), "--epsilon", "2", "--delta", "1e-5", "--radius", "1", "--p", "3"));
    }

    @Test
    void binaryLabelsGetAClassificationLossAndTheDefaultBallWithoutFlags() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = run(out, err, "train", "--algorithm", "pg-mirror-descent", "--data", CliTest.trainFile(dir).toString(),
                "--epsilon", "2", "--delta", "1e-5", "--seed", "1", "--json");
        assertEquals(0, rc, err.toString());
        String s = out.toString();
        assertTrue(s.contains("\"loss\":\"logistic\""), s);
        assertTrue(s.contains("\"radius\":10.0"), s);
        assertTrue(s.contains("\"test_majority_rate\""), s);
    }
}
