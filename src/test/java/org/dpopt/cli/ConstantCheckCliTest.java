package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code --constant-check}: on by default for binary classifiers (not dp-sgd), reported, refused where it cannot run. */
class ConstantCheckCliTest {

    @TempDir
    Path dir;

    private record Run(int rc, String out, String err) {
        JsonNode json() throws Exception {
            return new ObjectMapper().readTree(out);
        }
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int rc = cl.execute(args);
        return new Run(rc, out.toString(), err.toString());
    }

    private Run train(String algorithm, String... more) throws Exception {
        String[] base = {"train", "--algorithm", algorithm, "--data", CliTest.trainFile(dir).toString(), "--epsilon", "2",
            "--delta", "1e-5", "--seed", "3", "--json", "--quiet"};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return run(all);
    }

    @Test
    void onByDefaultSpendingATenthOfEpsilonAndSayingWhatWasReleased() throws Exception {
        Run r = train("noisy-sfw");
        assertEquals(0, r.rc(), r.err());
        JsonNode j = r.json();
        assertEquals(0.2, j.get("parameters").get("constant_check_epsilon").asDouble(), 1e-12);
        assertTrue(j.get("epsilon").asDouble() <= 2 * (1 + 1e-9), j.toString());
        String choice = j.get("constant_check").asText();
        assertTrue(choice.equals("trained") || choice.equals("negative") || choice.equals("positive"), choice);
        assertTrue(j.get("privacy").asText().contains("constant check:"), j.toString());
        JsonNode params = j.get("parameters");
        assertEquals(2 * params.get("constant_check_scale").asDouble(), params.get("constant_check_margin").asDouble(),
                1e-12, "a head start of two Laplace scales");
    }

    @Test
    void vrFrankWolfeGivesTwoScalesOnPoissonBatchesAndNoneInOnePass() throws Exception {
        // the practical default (Poisson batches): the head start of noisy-frank-wolfe's practical default
        Run r = train("vr-frank-wolfe");
        assertEquals(0, r.rc(), r.err());
        JsonNode params = r.json().get("parameters");
        assertEquals(2 * params.get("constant_check_scale").asDouble(), params.get("constant_check_margin").asDouble(),
                1e-12, "a head start of two Laplace scales");
        // the one-pass report-noisy-max schedule (the paper preset, or a given --rounds): none
        for (String[] flags : new String[][] {{"--preset", "paper"}, {"--rounds", "2"}}) {
            Run p = train("vr-frank-wolfe", flags);
            assertEquals(0, p.rc(), p.err());
            JsonNode pp = p.json().get("parameters");
            assertTrue(pp.get("constant_check_scale").asDouble() > 0, pp.toString());
            assertEquals(0.0, pp.get("constant_check_margin").asDouble(), 0.0);
        }
    }

    @Test
    void offForDpSgdAndWithAShareOfZero() throws Exception {
        Run sgd = train("dp-sgd");
        assertEquals(0, sgd.rc(), sgd.err());
        assertFalse(sgd.json().has("constant_check"), sgd.out());
        assertFalse(sgd.json().get("parameters").has("constant_check_epsilon"), sgd.out());
        Run off = train("noisy-sfw", "--constant-check", "0");
        assertEquals(0, off.rc(), off.err());
        assertFalse(off.json().has("constant_check"), off.out());
        Run on = train("dp-sgd", "--constant-check", "0.25");
        assertEquals(0, on.rc(), on.err());
        assertEquals(0.5, on.json().get("parameters").get("constant_check_epsilon").asDouble(), 1e-12);
    }

    @Test
    void refusesAShareItCannotUseBeforeWritingAnything() throws Exception {
        Path model = dir.resolve("m.json");
        Run big = train("noisy-sfw", "--constant-check", "1", "--model-out", model.toString());
        assertEquals(2, big.rc());
        assertEquals("dpopt: --constant-check must be 0 (off) or in [1.0E-6, 1) but was 1.0", big.err().strip());
        Run tiny = train("noisy-sfw", "--constant-check", "1e-320");
        assertEquals(2, tiny.rc());
        assertEquals("dpopt: --constant-check must be 0 (off) or in [1.0E-6, 1) but was 1.0E-320",
                tiny.err().strip());
        assertFalse(Files.exists(model));
        Run noIntercept = train("noisy-sfw", "--constant-check", "0.2", "--no-intercept");
        assertEquals(2, noIntercept.rc());
        assertTrue(noIntercept.err().startsWith("dpopt: --constant-check must be 0 without an intercept"),
                noIntercept.err());
        Run regression = train("noisy-sfw", "--constant-check", "0.2", "--loss", "squared");
        assertEquals(2, regression.rc());
        assertTrue(regression.err().contains("--constant-check must be 0 for a loss that is not a binary"),
                regression.err());
        // without the flag, a problem the check cannot run on simply runs unchecked
        Run plain = train("noisy-sfw", "--no-intercept");
        assertEquals(0, plain.rc(), plain.err());
        assertFalse(plain.json().has("constant_check"), plain.out());
    }
}
