package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.dpopt.audit.IndependentClopperPearson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpopt audit}: the JSON contract, the plots, progress output, and bad input (exit 2, one line,
 * nothing written). The audits here are small and their values are not checked against the claim
 * (that is {@code org.dpopt.audit.OptimizerAuditsTest}); the counts are checked against an independent
 * Clopper–Pearson ({@link IndependentClopperPearson}).
 */
class AuditCliTest {

    /** {@code dpopt audit} of the fast full-batch dp-sgd configuration with extra arguments. */
    private static CliTest.Run fullBatch(String... more) {
        String[] head = {"audit", "--algorithm", "dp-sgd", "--design", "aligned-full-batch"};
        return CliTest.run(Stream.concat(Stream.of(head), Stream.of(more)).toArray(String[]::new));
    }

    @Test
    void withoutEpsilonTheDesignsDefaultClaimIsAudited() throws Exception {
        JsonNode shuffle = CliTest.json(CliTest.run("audit", "--algorithm", "dp-sgd", "--mutant",
                "shuffle-as-poisson", "--runs", "8", "--json", "--quiet"));
        assertEquals(1.0, shuffle.get("budget_epsilon").asDouble());
        JsonNode plain = CliTest.json(fullBatch("--runs", "8", "--json", "--quiet"));
        assertEquals(4.0, plain.get("budget_epsilon").asDouble());
        JsonNode named = CliTest.json(CliTest.run("audit", "--algorithm", "dp-sgd", "--mutant",
                "shuffle-as-poisson", "--epsilon", "2", "--runs", "8", "--json", "--quiet"));
        assertEquals(2.0, named.get("budget_epsilon").asDouble());
    }

    /** The constant check is audited like an optimizer: its own name, its design, its mutants. */
    @Test
    void theConstantCheckIsAnAuditTarget() throws Exception {
        JsonNode j = CliTest.json(CliTest.run("audit", "--algorithm", "constant-check", "--mutant", "rnm-half-scale",
                "--runs", "100", "--json", "--quiet"));
        assertEquals("constant-check", j.get("algorithm").asText());
        assertEquals("label-flip-tie", j.get("design").asText());
        assertEquals("rnm-half-scale", j.get("mutant").asText());
        assertEquals("REPLACE_ONE", j.get("relation").asText());
        assertFalse(j.get("white_box").asBoolean());
        // a test fixed in advance: every run evaluates it
        assertTrue(j.get("fixed_test").asBoolean());
        assertEquals(50, j.get("evaluation_runs_per_dataset").asInt());
        assertEquals(4.0, j.get("epsilon").asDouble(), 1e-6);
    }

    @Test
    void jsonKeysInStableOrderAndCountsBehindTheBound() throws Exception {
        JsonNode j = CliTest.json(fullBatch("--epsilon", "4", "--runs", "400", "--json"));
        List<String> keys = new ArrayList<>();
        for (Iterator<String> it = j.fieldNames(); it.hasNext();) {
            keys.add(it.next());
        }
        assertEquals(List.of("epsilon", "epsilon_lower", "confidence", "runs", "mutant", "counts", "tightness",
                "threshold", "statistic", "mu_lower", "epsilon_lower_gdp"), keys.subList(0, 11));
        assertEquals(0.95, j.get("confidence").asDouble());
        assertEquals(400, j.get("runs").asInt());
        assertEquals("none", j.get("mutant").asText());
        JsonNode c = j.get("counts");
        assertEquals(List.of("true_positives", "false_positives", "true_negatives", "false_negatives"),
                fieldNames(c));
        // the evaluation half: 100 runs per dataset
        assertEquals(100, c.get("true_positives").asLong() + c.get("false_negatives").asLong());
        assertEquals(100, c.get("false_positives").asLong() + c.get("true_negatives").asLong());
        assertEquals(j.get("epsilon_lower").asDouble() / j.get("epsilon").asDouble(), j.get("tightness").asDouble(),
                1e-12);
        assertTrue(j.get("passed").asBoolean());
        assertFalse(j.get("flagged").asBoolean());
        assertTrue(j.get("ledger").get("consistent").asBoolean());
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> k = new ArrayList<>();
        n.fieldNames().forEachRemaining(k::add);
        return k;
    }

    /** The check of the issue: an independent Clopper–Pearson on the JSON's raw counts gives ε_lower. */
    @Test
    void independentClopperPearsonOnTheJsonCountsGivesTheSameEpsilonLower() throws Exception {
        String[][] cases = {
            {"--algorithm", "dp-sgd", "--design", "aligned-full-batch", "--epsilon", "4", "--runs", "600"},
            {"--algorithm", "dp-sgd", "--design", "aligned-full-batch", "--epsilon", "4", "--runs", "600",
                "--mutant", "realized-batch"},
            {"--algorithm", "dp-sgd", "--mutant", "no-clipping", "--epsilon", "1", "--runs", "600", "--alpha", "0.01"},
            {"--algorithm", "noisy-frank-wolfe", "--epsilon", "4", "--runs", "600"},
        };
        for (String[] args : cases) {
            String[] full = Stream.concat(Stream.of("audit", "--json"), Stream.of(args)).toArray(String[]::new);
            JsonNode j = CliTest.json(CliTest.run(full));
            JsonNode c = j.get("counts");
            double mine = IndependentClopperPearson.epsilonLower(c.get("true_positives").asLong(),
                    c.get("false_positives").asLong(), c.get("true_negatives").asLong(),
                    c.get("false_negatives").asLong(), j.get("alpha").asDouble(), j.get("delta").asDouble());
            double reported = j.get("epsilon_lower").asDouble();
            assertEquals(mine, reported, 1e-7 * Math.max(1, mine), String.join(" ", args));
            assertEquals(1 - j.get("alpha").asDouble(), j.get("confidence").asDouble(), 1e-15);
        }
    }

    @Test
    void outWritesJsonAndTwoPlotsAndIsReproducible(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("res");
        JsonNode a = CliTest.json(fullBatch("--epsilon", "4", "--runs", "200", "--json", "--out", out.toString()));
        String stem = "audit-dp-sgd-aligned-full-batch-eps4";
        assertTrue(Files.size(out.resolve(stem + ".json")) > 100);
        assertTrue(Files.size(out.resolve(stem + "-tradeoff.png")) > 1000);
        assertTrue(Files.size(out.resolve(stem + "-epsilon-vs-runs.png")) > 1000);
        JsonNode b = CliTest.json(fullBatch("--epsilon", "4", "--runs", "200", "--json"));
        assertEquals(a.get("counts"), b.get("counts"));
        assertEquals(a.get("epsilon_lower"), b.get("epsilon_lower"));
        assertEquals(a.get("gdp"), b.get("gdp"));
    }

    @Test
    void progressBarOnlyWhenAskedForOutsideATerminal() {
        CliTest.Run shown = fullBatch("--runs", "100", "--progress");
        assertEquals(0, shown.code(), shown.err());
        String bar = shown.err();
        assertTrue(bar.contains("100/100 runs") && bar.contains("runs/s") && bar.contains("ETA"), bar);
        CliTest.Run silent = fullBatch("--runs", "100");
        assertEquals(0, silent.code(), silent.err());
        assertEquals("", silent.err());
        CliTest.Run quiet = fullBatch("--runs", "100", "--quiet");
        assertEquals("", quiet.err());
    }

    @Test
    void badInputExitsTwoWithOneLineAndWritesNothing(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("res");
        Path file = dir.resolve("plain-file");
        Files.writeString(file, "x");
        String[][] bad = {
            {"--algorithm", "no-such", "--runs", "100"},
            {"--algorithm", "dp-sgd", "--runs", "7"},
            {"--algorithm", "dp-sgd", "--runs", "101"},
            {"--algorithm", "dp-sgd", "--epsilon", "0"},
            {"--algorithm", "dp-sgd", "--epsilon", "NaN"},
            {"--algorithm", "dp-sgd", "--alpha", "1"},
            {"--algorithm", "dp-sgd", "--mutant", "no-such"},
            {"--algorithm", "dp-sgd", "--mutant", "objpert-beta"},
            {"--algorithm", "nsgd", "--mutant", "shuffle-as-poisson"},
            {"--algorithm", "dp-sgd", "--design", "no-such"},
            {"--algorithm", "dp-sgd", "--design", "input-space", "--mutant", "realized-batch"},
            {"--algorithm", "dp-sgd", "--progress", "--quiet"},
        };
        for (String[] args : bad) {
            String[] full = Stream.concat(Stream.of("audit", "--out", out.toString()), Stream.of(args))
                    .toArray(String[]::new);
            CliTest.Run r = CliTest.run(full);
            assertEquals(2, r.code(), String.join(" ", args) + ": " + r.err());
            String[] lines = r.err().strip().split("\n");
            assertEquals(1, lines.length, r.err());
            assertTrue(lines[0].matches("dpopt: .+ must be .+ but was .*"), lines[0]);
            assertEquals("", r.out());
            assertFalse(Files.exists(out), "wrote " + out + " for " + String.join(" ", args));
        }
        CliTest.Run r = CliTest.run("audit", "--algorithm", "dp-sgd", "--runs", "100", "--out", file.toString());
        assertEquals(2, r.code());
        assertEquals("dpopt: --out must be a directory but was " + file, r.err().strip());
        assertEquals("x", Files.readString(file));
    }
}
