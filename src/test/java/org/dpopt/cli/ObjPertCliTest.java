package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ObjPertCliTest {

    @TempDir
    Path tmp;

    private Path data() throws IOException {
        Path p = tmp.resolve("heart.csv");
        try (InputStream in = getClass().getResourceAsStream("/datasets/heart_scale.csv")) {
            Files.copy(in, p);
        }
        return p;
    }

    private record Run(int code, String out, String err) {
    }

    private Run run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void bothAlgorithmsTrainWithTheSupportedLosses() throws IOException {
        String d = data().toString();
        for (String alg : new String[] {"objective-perturbation", "objective-perturbation-svrg"}) {
            for (String loss : new String[] {"logistic", "smoothed-hinge", "huber", "squared"}) {
                Run r = run("train", "--algorithm", alg, "--data", d, "--epsilon", "1", "--delta", "1e-5",
                        "--loss", loss, "--radius", "2", "--json");
                assertEquals(0, r.code(), alg + " " + loss + ": " + r.err());
                assertTrue(r.out().contains("\"algorithm\":\"" + alg + "\""), r.out());
                assertTrue(r.out().contains("REPLACE_ONE"), r.out());
            }
        }
        Run l2 = run("train", "--algorithm", "objective-perturbation-svrg", "--data", d, "--epsilon", "2", "--delta",
                "1e-5", "--l2", "0.05", "--radius", "3", "--epochs", "400", "--json");
        assertEquals(0, l2.code(), l2.err());
        assertTrue(l2.out().contains("\"l2\":0.05"), l2.out());
    }

    @Test
    void refusedConfigurationsExitNonZeroWithTheReason() throws IOException {
        String d = data().toString();
        Run hinge = run("train", "--algorithm", "objective-perturbation", "--data", d, "--epsilon", "1", "--delta",
                "1e-5", "--loss", "hinge", "--radius", "1");
        assertNotEquals(0, hinge.code());
        assertTrue(hinge.err().contains("smoothness"), hinge.err());
        Run noRadius = run("train", "--algorithm", "objective-perturbation", "--data", d, "--epsilon", "1", "--delta",
                "1e-5", "--preset", "paper");
        assertNotEquals(0, noRadius.code());
        assertTrue(noRadius.err().contains("radius"), noRadius.err());
        Run tinyL2 = run("train", "--algorithm", "objective-perturbation", "--data", d, "--epsilon", "1", "--delta",
                "1e-5", "--l2", "1e-6", "--radius", "1");
        assertNotEquals(0, tinyL2.code());
        assertTrue(tinyL2.err().contains("lambda >="), tinyL2.err());
        Run badEpochs = run("train", "--algorithm", "objective-perturbation-svrg", "--data", d, "--epsilon", "1",
                "--delta", "1e-5", "--radius", "1", "--epochs", "2.5");
        assertNotEquals(0, badEpochs.code());
        assertTrue(badEpochs.err().contains("--epochs"), badEpochs.err());
        Run unused = run("train", "--algorithm", "objective-perturbation", "--data", d, "--epsilon", "1", "--delta",
                "1e-5", "--radius", "1", "--epochs", "3");
        assertNotEquals(0, unused.code());
    }
}
