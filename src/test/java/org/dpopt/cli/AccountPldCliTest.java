package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.junit.jupiter.api.Test;

/** {@code dpopt account} with the PLD accountant (the default): JSON carries both bounds. */
class AccountPldCliTest {

    @Test
    void epsilonDefaultsToPldWithErrorBar() throws Exception {
        JsonNode j = CliTest.json(CliTest.run("account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5",
                "--sampling-rate", "0.01", "--steps", "1000", "--json"));
        assertEquals("pld", j.get("accountant").asText());
        double eps = j.get("epsilon").asDouble();
        double low = j.get("epsilon_lower").asDouble();
        assertTrue(low <= eps && low > 0);
        double direct = new PldAccountant().epsilon(
                new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(1)), 1000), 1e-5);
        assertEquals(direct, eps, 0.0);
        // theory-notes/test-oracles.md §3 bracket and RDP comparison
        assertTrue(eps >= 1.8181 && eps <= 1.8383, "eps " + eps);
        JsonNode r = CliTest.json(CliTest.run("account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5",
                "--sampling-rate", "0.01", "--steps", "1000", "--accountant", "rdp", "--json"));
        assertEquals(new RdpAccountant().epsilon(
                new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(1)), 1000), 1e-5),
                r.get("epsilon").asDouble(), 0.0);
        assertTrue(r.get("epsilon").asDouble() > eps);
    }

    @Test
    void deltaAndCalibrateCarryLowerBounds() throws Exception {
        JsonNode d = CliTest.json(CliTest.run("account", "delta", "--noise-multiplier", "1", "--epsilon", "1",
                "--sampling-rate", "0.01", "--steps", "1000", "--accountant", "pld", "--json"));
        assertTrue(d.get("delta_lower").asDouble() <= d.get("delta").asDouble());
        assertTrue(d.get("delta").asDouble() >= 2.4667e-3 && d.get("delta").asDouble() <= 2.7659e-3);
        JsonNode c = CliTest.json(CliTest.run("account", "calibrate", "--epsilon", "2", "--delta", "1e-5",
                "--sampling-rate", "0.01", "--steps", "300", "--json"));
        assertEquals("pld", c.get("accountant").asText());
        assertTrue(c.get("epsilon").asDouble() <= 2.0);
        assertTrue(c.get("epsilon_lower").asDouble() <= c.get("epsilon").asDouble());
    }

    @Test
    void discretizationIsAParameter() throws Exception {
        JsonNode fine = CliTest.json(CliTest.run("account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5",
                "--sampling-rate", "0.01", "--steps", "100", "--discretization", "1e-4", "--json"));
        JsonNode coarse = CliTest.json(CliTest.run("account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5",
                "--sampling-rate", "0.01", "--steps", "100", "--discretization", "1e-2", "--json"));
        // both are upper bounds; the coarse grid has the wider error bar
        double fineGap = fine.get("epsilon").asDouble() - fine.get("epsilon_lower").asDouble();
        double coarseGap = coarse.get("epsilon").asDouble() - coarse.get("epsilon_lower").asDouble();
        assertTrue(coarseGap > fineGap);
        assertTrue(coarse.get("epsilon_lower").asDouble() <= fine.get("epsilon").asDouble());
        CliTest.Run r = CliTest.run("account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5",
                "--sampling-rate", "0.01", "--steps", "10", "--accountant", "rdp", "--discretization", "1e-3");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--discretization must be used only with --accountant pld"), r.err());
        CliTest.Run bad = CliTest.run("account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5",
                "--sampling-rate", "0.01", "--steps", "10", "--discretization", "0");
        assertEquals(2, bad.code());
    }

    @Test
    void unknownAccountantIsRefused() {
        CliTest.Run r = CliTest.run("account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5",
                "--sampling-rate", "0.01", "--steps", "10", "--accountant", "moments");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("one of [pld, rdp, ablq]"), r.err());
        assertEquals("", r.out());
    }
}
