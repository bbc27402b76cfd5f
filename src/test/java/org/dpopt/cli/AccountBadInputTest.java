package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The CLI contract for bad input to {@code dpopt account}: exit 2, exactly one line
 * {@code dpopt: <name> must be <condition> but was <value>} on stderr naming the offending parameter,
 * no stack trace, nothing on stdout; with {@code --json} additionally exactly one JSON object
 * {@code {"error": <that line>, "parameter": <name>}} on stdout. Deterministic.
 */
class AccountBadInputTest {

    private static final String Q = "--sampling-rate";
    private static final String[] OK_EPS = {"account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "0.01",
        "--steps", "100"};

    /** (expected parameter, arguments). */
    static Stream<Arguments> cases() {
        List<Arguments> c = new ArrayList<>();
        // non-numeric and malformed values (picocli's conversion errors, rephrased)
        c.add(of("--noise-multiplier", "account", "epsilon", "--noise-multiplier", "abc", "--delta", "1e-5", Q, "0.01", "--steps", "10"));
        c.add(of("--delta", "account", "epsilon", "--noise-multiplier", "1", "--delta", "x", Q, "0.01", "--steps", "10"));
        c.add(of("--steps", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "0.01", "--steps", "1.5"));
        c.add(of("--steps", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "0.01", "--steps", "1e18"));
        c.add(of(Q, "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "q", "--steps", "10"));
        c.add(of("--dataset-size", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size", "1e6",
                "--batch-size", "10", "--steps", "10"));
        c.add(of("--batch-size", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size", "100",
                "--batch-size", "2.5", "--steps", "10"));
        c.add(of("--dataset-size", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size",
                "3000000000", "--batch-size", "10", "--steps", "10"));
        c.add(of("--epochs", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size", "100",
                "--batch-size", "10", "--epochs", "one"));
        c.add(of("--epsilon", "account", "delta", "--noise-multiplier", "1", "--epsilon", "e", Q, "0.01", "--steps", "10"));
        c.add(of("--max-batch-size", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--sampler",
                "truncated-poisson", "--dataset-size", "100", "--batch-size", "10", "--steps", "10", "--max-batch-size", "big"));
        c.add(of("--discretization", withOpt(OK_EPS, "--discretization", "fine")));
        // NaN and infinities
        c.add(of("--noise-multiplier", "account", "epsilon", "--noise-multiplier", "NaN", "--delta", "1e-5", Q, "0.01", "--steps", "10"));
        c.add(of("--noise-multiplier", "account", "epsilon", "--noise-multiplier", "Infinity", "--delta", "1e-5", Q, "0.01",
                "--steps", "10"));
        c.add(of("--delta", "account", "epsilon", "--noise-multiplier", "1", "--delta", "NaN", Q, "0.01", "--steps", "10"));
        c.add(of(Q, "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "NaN", "--steps", "10"));
        c.add(of("--epochs", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size", "100",
                "--batch-size", "10", "--epochs", "NaN"));
        c.add(of("--epochs", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size", "100",
                "--batch-size", "10", "--epochs", "Infinity"));
        c.add(of("--epsilon", "account", "delta", "--noise-multiplier", "1", "--epsilon", "NaN", Q, "0.01", "--steps", "10"));
        c.add(of("--epsilon", "account", "delta", "--noise-multiplier", "1", "--epsilon", "Infinity", Q, "0.01", "--steps", "10"));
        c.add(of("--epsilon", "account", "calibrate", "--epsilon", "Infinity", "--delta", "1e-5", Q, "0.01", "--steps", "10"));
        c.add(of("--discretization", withOpt(OK_EPS, "--discretization", "NaN")));
        // negative and zero
        c.add(of("--noise-multiplier", "account", "epsilon", "--noise-multiplier", "-1", "--delta", "1e-5", Q, "0.01", "--steps", "10"));
        c.add(of("--noise-multiplier", "account", "epsilon", "--noise-multiplier", "0", "--delta", "1e-5", Q, "0.01", "--steps", "10"));
        c.add(of("--delta", "account", "epsilon", "--noise-multiplier", "1", "--delta", "-1e-5", Q, "0.01", "--steps", "10"));
        c.add(of("--delta", "account", "epsilon", "--noise-multiplier", "1", "--delta", "0", Q, "0.01", "--steps", "10"));
        c.add(of("--steps", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "0.01", "--steps", "0"));
        c.add(of("--steps", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "0.01", "--steps", "-5"));
        c.add(of(Q, "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "0", "--steps", "10"));
        c.add(of(Q, "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "-0.1", "--steps", "10"));
        c.add(of("--dataset-size", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size", "0",
                "--batch-size", "1", "--steps", "10"));
        c.add(of("--batch-size", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size", "100",
                "--batch-size", "0", "--steps", "10"));
        c.add(of("--batch-size", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size", "100",
                "--batch-size", "-1", "--steps", "10"));
        c.add(of("--epochs", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size", "100",
                "--batch-size", "10", "--epochs", "0"));
        c.add(of("--epochs", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size", "100",
                "--batch-size", "10", "--epochs", "-1"));
        c.add(of("--epsilon", "account", "delta", "--noise-multiplier", "1", "--epsilon", "-1", Q, "0.01", "--steps", "10"));
        c.add(of("--epsilon", "account", "calibrate", "--epsilon", "0", "--delta", "1e-5", Q, "0.01", "--steps", "10"));
        // out of range, or unreasonable to compute
        c.add(of(Q, "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "1.5", "--steps", "10"));
        c.add(of("--delta", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1", Q, "0.01", "--steps", "10"));
        c.add(of("--delta", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1.5", Q, "0.01", "--steps", "10"));
        c.add(of("--steps", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "0.01", "--steps",
                "1000000000000000000"));
        c.add(of("--epochs", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size", "100000",
                "--batch-size", "10", "--epochs", "1e12"));
        c.add(of("--epsilon", "account", "calibrate", "--epsilon", "1e6", "--delta", "1e-5", Q, "0.01", "--steps", "10"));
        c.add(of("--discretization", withOpt(OK_EPS, "--discretization", "0.5")));
        c.add(of("--discretization", withOpt(OK_EPS, "--discretization", "1e-9")));
        c.add(of("--batch-size", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size", "100",
                "--batch-size", "101", "--steps", "10"));
        c.add(of("--delta", "account", "calibrate", "--epsilon", "1", "--delta", "0", Q, "0.1", "--steps", "10"));
        // samplers and the flags that fit them
        c.add(of("--sampler", withOpt(OK_EPS, "--sampler", "bogus")));
        c.add(of("--max-batch-size", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size", "100",
                "--batch-size", "10", "--steps", "10", "--max-batch-size", "20"));
        c.add(of("--max-batch-size", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--sampler",
                "truncated-poisson", "--dataset-size", "100", "--batch-size", "10", "--steps", "10", "--max-batch-size", "5"));
        c.add(of("--max-batch-size", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--sampler",
                "truncated-poisson", "--dataset-size", "100", "--batch-size", "10", "--steps", "10", "--max-batch-size", "101"));
        c.add(of(Q, "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--sampler", "deterministic", Q, "0.1",
                "--steps", "10"));
        c.add(of(Q, "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "0.1", "--dataset-size", "100",
                "--steps", "10"));
        c.add(of("--epochs", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "0.1", "--epochs", "2"));
        c.add(of("--epochs", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--dataset-size", "100",
                "--batch-size", "10", "--steps", "10", "--epochs", "1"));
        c.add(of("--batch-size", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--sampler", "deterministic",
                "--dataset-size", "100", "--batch-size", "30", "--steps", "10"));
        c.add(of("--steps", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--sampler", "shuffle-dynamic",
                "--dataset-size", "100", "--batch-size", "10", "--steps", "15"));
        c.add(of("--epochs", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--sampler",
                "shuffle-persistent", "--dataset-size", "100", "--batch-size", "10", "--epochs", "1.5"));
        c.add(of("--dataset-size", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--sampler", "deterministic",
                "--batch-size", "10", "--steps", "10"));
        c.add(of("--steps", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "0.01"));
        // the query and the flags it takes
        c.add(of("query", "account", "bogus", "--noise-multiplier", "1", "--delta", "1e-5", Q, "0.1", "--steps", "10"));
        c.add(of("query", "account", "--noise-multiplier", "1", "--delta", "1e-5", Q, "0.1", "--steps", "10"));
        c.add(of("--epsilon", withOpt(OK_EPS, "--epsilon", "1")));
        c.add(of("--delta", "account", "delta", "--noise-multiplier", "1", "--epsilon", "1", "--delta", "1e-5", Q, "0.1",
                "--steps", "10"));
        c.add(of("--noise-multiplier", "account", "calibrate", "--noise-multiplier", "1", "--epsilon", "1", "--delta", "1e-5", Q,
                "0.1", "--steps", "10"));
        c.add(of("--delta", "account", "epsilon", "--noise-multiplier", "1", Q, "0.1", "--steps", "10"));
        c.add(of("--noise-multiplier", "account", "epsilon", "--delta", "1e-5", Q, "0.1", "--steps", "10"));
        c.add(of("--bound", withOpt(OK_EPS, "--bound", "middle")));
        c.add(of("--bound", withOpt(withOpt(OK_EPS, "--bound", "lower"), "--accountant", "rdp")));
        c.add(of("--accountant", withOpt(OK_EPS, "--accountant", "moments")));
        c.add(of("--discretization", withOpt(withOpt(OK_EPS, "--accountant", "rdp"), "--discretization", "1e-3")));
        c.add(of("--accountant", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--sampler",
                "shuffle-dynamic", "--dataset-size", "100", "--batch-size", "10", "--steps", "10", "--accountant", "pld"));
        c.add(of("--epsilon", "account", "statement", "--dataset-size", "100", "--batch-size", "10", "--epochs", "1",
                "--noise-multiplier", "1", "--epsilon", "1"));
        c.add(of(Q, "account", "statement", Q, "0.1", "--steps", "10", "--noise-multiplier", "1"));
        c.add(of("--noise-multiplier", "account", "statement", "--dataset-size", "100", "--batch-size", "10", "--epochs", "1"));
        c.add(of("--bound", "account", "statement", "--dataset-size", "100", "--batch-size", "10", "--epochs", "1",
                "--noise-multiplier", "1", "--bound", "lower"));
        // picocli's own errors
        c.add(of("--foo", withOpt(OK_EPS, "--foo", "1")));
        c.add(of("--steps", "account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", Q, "0.01", "--steps", "10",
                "--steps", "20"));
        c.add(of("--delta", "account", "epsilon", "--noise-multiplier", "1", Q, "0.01", "--steps", "10", "--delta"));
        return c.stream();
    }

    private static Arguments of(String parameter, String... args) {
        return Arguments.of(parameter, args);
    }

    private static String[] withOpt(String[] base, String name, String value) {
        String[] out = Arrays.copyOf(base, base.length + 2);
        out[base.length] = name;
        out[base.length + 1] = value;
        return out;
    }

    @ParameterizedTest(name = "{index}: {0}")
    @MethodSource("cases")
    void badInputIsRefusedOnOneLineNamingTheParameter(String parameter, String[] args) throws Exception {
        CliTest.Run r = CliTest.run(args);
        String cmd = String.join(" ", args);
        assertEquals(2, r.code(), cmd + " -> " + r.err());
        String[] lines = r.err().strip().split("\\R");
        assertEquals(1, lines.length, cmd + ": one line expected: " + r.err());
        String line = lines[0];
        assertTrue(line.matches("dpopt: .+ must be .+ but (was|were) .+"), cmd + ": house format: " + line);
        assertTrue(line.startsWith("dpopt: " + parameter + " ") || line.contains(" " + parameter),
                cmd + ": names " + parameter + ": " + line);
        assertFalse(r.err().contains("\tat "), "no stack trace");
        assertEquals("", r.out(), cmd + ": nothing on stdout without --json");

        String[] withJson = Arrays.copyOf(args, args.length + 1);
        withJson[args.length] = "--json";
        CliTest.Run j = CliTest.run(withJson);
        assertEquals(2, j.code());
        String[] out = j.out().strip().split("\\R");
        assertEquals(1, out.length, cmd + " --json: one JSON object expected: " + j.out());
        JsonNode node = new ObjectMapper().readTree(out[0]);
        assertEquals(2, node.size(), "exactly error and parameter: " + out[0]);
        assertEquals(j.err().strip(), node.get("error").asText());
        assertEquals(parameter, node.get("parameter").asText(), cmd + ": parameter field");
    }
}
