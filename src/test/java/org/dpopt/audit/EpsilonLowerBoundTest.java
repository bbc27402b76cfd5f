package org.dpopt.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.dpopt.noise.Rngs;
import org.junit.jupiter.api.Test;

/**
 * The bound's arithmetic, and its validity and power on mechanisms whose privacy is known exactly,
 * sampled directly (no optimizer): randomized response (pure ε) and the Gaussian mechanism (μ-GDP).
 */
class EpsilonLowerBoundTest {

    @Test
    void inequalitySolvedForEpsilon() {
        // a = 0.01, b = 0.5: ln(0.5 / 0.01) = ln 50
        assertEquals(Math.log(50), EpsilonLowerBound.epsilon(0.01, 0.5, 0), 1e-12);
        // symmetric in (a, b)
        assertEquals(EpsilonLowerBound.epsilon(0.2, 0.03, 1e-5), EpsilonLowerBound.epsilon(0.03, 0.2, 1e-5), 1e-15);
        // δ is subtracted: ln((1 − δ − b)/a)
        assertEquals(Math.log((1 - 0.1 - 0.4) / 0.05), EpsilonLowerBound.epsilon(0.05, 0.4, 0.1), 1e-12);
        // no test beats guessing: a + b ≥ 1 gives 0
        assertEquals(0, EpsilonLowerBound.epsilon(0.6, 0.5, 1e-5));
    }

    @Test
    void evaluationUsesHalfAlphaPerRate() {
        ErrorCounts c = new ErrorCounts(300, 200, 490, 10);
        EpsilonLowerBound.Evaluation e = EpsilonLowerBound.evaluate(0.5, c, 0.05, 1e-5);
        assertEquals(ClopperPearson.upper(10, 500, 0.025), e.fprUpper(), 0);
        assertEquals(ClopperPearson.upper(200, 500, 0.025), e.fnrUpper(), 0);
        assertEquals(IndependentClopperPearson.epsilonLower(300, 10, 490, 200, 0.05, 1e-5), e.epsilon(), 1e-9);
        assertEquals(GaussianDp.mu(e.fprUpper(), e.fnrUpper()), e.mu(), 0);
    }

    /** Randomized response with ε: the score is the reported bit. */
    private static double[] rr(double eps, boolean present, int m, UniformRandomProvider rng) {
        double p = Math.exp(eps) / (1 + Math.exp(eps));
        double[] s = new double[m];
        for (int i = 0; i < m; i++) {
            boolean truth = rng.nextDouble() < p;
            s[i] = truth == present ? 1 : 0;
        }
        return s;
    }

    private static double[] gaussian(double mean, int m, UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        double[] s = new double[m];
        for (int i = 0; i < m; i++) {
            s[i] = mean + g.sample();
        }
        return s;
    }

    /**
     * Validity: 400 independent audits of a mechanism at the edge of its guarantee. Each exceeds the
     * true ε with probability ≤ α = 0.05, so the number of exceedances is stochastically below Bin(400,
     * 0.05), whose 1 − 1e-6 quantile is 43: this test fails with probability ≤ 1e-6 for a correct
     * implementation of the bound. (Seeds 1000.., fixed.)
     */
    @Test
    void validOnRandomizedResponseAndGaussian() {
        int exceedRr = 0;
        int exceedGauss = 0;
        double mu = 1.0;
        double delta = 1e-5;
        double epsGauss = GaussianDp.epsilon(mu, delta);
        for (int rep = 0; rep < 400; rep++) {
            UniformRandomProvider rng = Rngs.seeded(1000 + rep);
            double[][] h = {rr(1, true, 200, rng), rr(1, false, 200, rng), rr(1, true, 200, rng),
                rr(1, false, 200, rng)};
            if (EpsilonLowerBound.split(h[0], h[1], h[2], h[3], EpsilonLowerBound.Objective.CLOPPER_PEARSON, 0.05,
                    delta).epsilon() > 1) {
                exceedRr++;
            }
            double[][] g = {gaussian(mu, 200, rng), gaussian(0, 200, rng), gaussian(mu, 200, rng),
                gaussian(0, 200, rng)};
            EpsilonLowerBound.Evaluation e = EpsilonLowerBound.split(g[0], g[1], g[2], g[3],
                    EpsilonLowerBound.Objective.GAUSSIAN_DP, 0.05, delta);
            if (e.mu() > mu) {
                exceedGauss++;
            }
            assertTrue(e.epsilonGdp() <= epsGauss || e.mu() > mu);
        }
        assertTrue(exceedRr <= 43, "randomized response: " + exceedRr + " of 400 audits exceeded the true epsilon");
        assertTrue(exceedGauss <= 43, "Gaussian: " + exceedGauss + " of 400 audits exceeded the true mu");
    }

    /**
     * Power: with 5000 runs per side, randomized response at ε = 2 gives ε_lower ≈ 1.8 and the Gaussian
     * μ = 1 gives μ_lower ≈ 0.93; the thresholds 1.5 and 0.85 are more than 4 standard errors below
     * (false-failure probability &lt; 1e-4). Seed 7, fixed.
     */
    @Test
    void powerfulOnRandomizedResponseAndGaussian() {
        UniformRandomProvider rng = Rngs.seeded(7);
        int m = 2500;
        double[][] h = {rr(2, true, m, rng), rr(2, false, m, rng), rr(2, true, m, rng), rr(2, false, m, rng)};
        double e = EpsilonLowerBound.split(h[0], h[1], h[2], h[3], EpsilonLowerBound.Objective.CLOPPER_PEARSON, 0.05,
                1e-5).epsilon();
        assertTrue(e > 1.5 && e <= 2, "randomized response eps=2: eps_lower = " + e);
        double[][] g = {gaussian(1, m, rng), gaussian(0, m, rng), gaussian(1, m, rng), gaussian(0, m, rng)};
        double mu = EpsilonLowerBound.split(g[0], g[1], g[2], g[3], EpsilonLowerBound.Objective.GAUSSIAN_DP, 0.05,
                1e-5).mu();
        assertTrue(mu > 0.85 && mu <= 1, "Gaussian mu=1: mu_lower = " + mu);
    }

    @Test
    void orientationIsChosenOnTheSelectionHalf() {
        UniformRandomProvider rng = Rngs.seeded(3);
        // a statistic with the wrong sign: the canary lowers the score
        double[][] g = {gaussian(-2, 500, rng), gaussian(0, 500, rng), gaussian(-2, 500, rng), gaussian(0, 500, rng)};
        EpsilonLowerBound.Evaluation e = EpsilonLowerBound.split(g[0], g[1], g[2], g[3],
                EpsilonLowerBound.Objective.GAUSSIAN_DP, 0.05, 1e-5);
        assertEquals(-1, e.orientation());
        assertTrue(e.mu() > 1.5, "mu_lower = " + e.mu());
    }
}
