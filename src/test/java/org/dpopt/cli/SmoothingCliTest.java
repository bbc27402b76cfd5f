package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code dpopt train --algorithm phased-sgd|prox-sgd} end to end on the bundled heart_scale data. */
class SmoothingCliTest {

    private static String[] run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }

    private static Path copy(Path dir, String resource) throws Exception {
        Path f = dir.resolve(resource);
        try (var in = SmoothingCliTest.class.getResourceAsStream("/datasets/" + resource)) {
            Files.copy(in, f);
        }
        return f;
    }

    @Test
    void phasedSgdHingeTrainsAndReportsReplaceOne(@TempDir Path dir) throws Exception {
        Path data = copy(dir, "heart_scale.csv");
        String[] r = run("train", "--algorithm", "phased-sgd", "--loss", "hinge", "--data", data.toString(),
                "--epsilon", "2", "--delta", "1e-5", "--json");
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("\"algorithm\":\"phased-sgd\""), r[1]);
        assertTrue(r[1].contains("\"relation\":\"REPLACE_ONE\""), r[1]);
        assertTrue(r[1].contains("\"accountant\":\"basic-composition\""), r[1]);
        assertTrue(r[1].contains("\"inner_steps\""), r[1]);
        // constrained variant and the RDP accountant under replace-one
        r = run("train", "--algorithm", "phased-sgd", "--data", data.toString(), "--epsilon", "1", "--delta", "1e-5",
                "--radius", "2", "--accountant", "rdp", "--json");
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("\"accountant\":\"rdp\""), r[1]);
        assertTrue(r[1].contains("\"loss\":\"hinge\""), r[1]);
    }

    @Test
    void proxSgdTrains(@TempDir Path dir) throws Exception {
        Path data = copy(dir, "heart_scale.csv");
        String[] r = run("train", "--algorithm", "prox-sgd", "--loss", "absolute", "--data", data.toString(),
                "--epsilon", "2", "--delta", "1e-5", "--epochs", "1", "--json");
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("\"algorithm\":\"prox-sgd\""), r[1]);
        assertTrue(r[1].contains("inner_steps"), r[1]);
    }

    @Test
    void badInputsExitWithCode2(@TempDir Path dir) throws Exception {
        Path data = copy(dir, "heart_scale.csv");
        String[] r = run("train", "--algorithm", "phased-sgd", "--data", data.toString(), "--epsilon", "1",
                "--delta", "1e-5", "--accountant", "pld");
        assertEquals("2", r[0]);
        assertTrue(r[2].contains("--accountant must be one of [basic, rdp] for phased-sgd"), r[2]);
        r = run("train", "--algorithm", "phased-sgd", "--data", data.toString(), "--epsilon", "1", "--delta", "1e-5",
                "--batch-size", "10");
        assertEquals("2", r[0]);
        assertTrue(r[2].contains("--batch-size must be absent for phased-sgd"), r[2]);
    }
}
