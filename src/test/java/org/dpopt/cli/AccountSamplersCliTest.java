package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code dpopt account … --sampler NAME}: every sampler, honest "bound" field, refusals. */
class AccountSamplersCliTest {

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private static JsonNode json(String... args) throws Exception {
        Run r = run(args);
        assertEquals(0, r.code(), r.err());
        return new ObjectMapper().readTree(r.out());
    }

    private static String[] calibrate(String sampler, String bound) {
        return new String[] {"account", "calibrate", "--sampler", sampler, "--dataset-size", "10000", "--batch-size", "100",
            "--steps", "500", "--epsilon", "5", "--delta", "2.7e-8", "--bound", bound, "--json"};
    }

    @Test
    void calibratesEverySamplerWithAnHonestBoundField() throws Exception {
        JsonNode det = json(calibrate("deterministic", "upper"));
        assertEquals(2.473947, det.get("noise_multiplier").asDouble(), 1e-5);
        assertEquals("upper", det.get("bound").asText());
        for (String s : new String[] {"shuffle-persistent", "shuffle-dynamic"}) {
            JsonNode up = json(calibrate(s, "upper"));
            JsonNode lo = json(calibrate(s, "lower"));
            assertEquals(det.get("noise_multiplier").asDouble(), up.get("noise_multiplier").asDouble(), 1e-9);
            assertEquals("lower", lo.get("bound").asText());
            assertTrue(lo.get("noise_multiplier").asDouble() < up.get("noise_multiplier").asDouble());
        }
        JsonNode p = json(concat(calibrate("poisson", "upper"), "--accountant", "ablq"));
        assertEquals("ADD_OR_REMOVE_ONE", p.get("relation").asText());
        JsonNode t = json(calibrate("truncated-poisson", "upper"));
        assertTrue(t.get("noise_multiplier").asDouble() >= p.get("noise_multiplier").asDouble() * 0.99);
        assertTrue(t.get("max_batch_size").asInt() > 100);
        assertEquals("ZERO_OUT", t.get("relation").asText());
    }

    @Test
    void epsilonForAShuffledRunShowsBothSides() throws Exception {
        JsonNode r = json("account", "epsilon", "--sampler", "shuffle-dynamic", "--dataset-size", "1000", "--batch-size",
                "10", "--steps", "200", "--noise-multiplier", "1", "--delta", "1e-6", "--json");
        assertEquals("upper", r.get("bound").asText());
        assertTrue(r.get("epsilon_lower").asDouble() < r.get("epsilon").asDouble());
        JsonNode lo = json("account", "epsilon", "--sampler", "shuffle-dynamic", "--dataset-size", "1000", "--batch-size",
                "10", "--steps", "200", "--noise-multiplier", "1", "--delta", "1e-6", "--bound", "lower", "--json");
        assertEquals("lower", lo.get("bound").asText());
        assertEquals(r.get("epsilon_lower").asDouble(), lo.get("epsilon").asDouble(), 1e-12);
    }

    @Test
    void refusesInvalidConfigurations() {
        String[] base = {"account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-6", "--dataset-size", "1000"};
        assertNotEquals(0, run(concat(base, "--sampler", "deterministic", "--batch-size", "30", "--steps", "100")).code());
        assertNotEquals(0, run(concat(base, "--sampler", "shuffle-dynamic", "--batch-size", "10", "--steps", "150")).code());
        assertNotEquals(0, run(concat(base, "--sampler", "poisson", "--batch-size", "10", "--steps", "100",
                "--max-batch-size", "20")).code());
        assertNotEquals(0, run(concat(base, "--sampler", "truncated-poisson", "--batch-size", "10", "--steps", "100",
                "--bound", "lower")).code());
        assertNotEquals(0, run(concat(base, "--sampler", "poisson", "--batch-size", "10", "--steps", "100",
                "--bound", "lower", "--accountant", "rdp")).code());
        assertNotEquals(0, run(concat(base, "--sampler", "shuffle-dynamic", "--batch-size", "10", "--steps", "100",
                "--bound", "sideways")).code());
        assertNotEquals(0, run(concat(base, "--sampler", "balls", "--batch-size", "10", "--steps", "100")).code());
        Run r = run(concat(base, "--sampler", "shuffle-dynamic", "--batch-size", "10", "--steps", "150"));
        assertTrue(r.err().contains("must be a multiple of the steps per epoch"), r.err());
    }

    private static String[] concat(String[] a, String... b) {
        String[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
