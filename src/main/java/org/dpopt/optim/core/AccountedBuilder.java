package org.dpopt.optim.core;

import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.linalg.Checks;

/**
 * A builder of an optimizer whose noise an accountant calibrates and whose run it certifies: the
 * {@link #accountant(PrivacyAccountant)} setting, declared once for all of them. The concrete builder
 * gives the default and, for an optimizer whose guarantee is stated under one neighbouring relation,
 * that relation, which every accountant set is checked against.
 *
 * @param <B> the concrete builder type
 */
public abstract class AccountedBuilder<B extends AccountedBuilder<B>> extends OptimizerBuilder<B> {
    private PrivacyAccountant accountant;
    private final NeighboringRelation required;
    private final String algorithm;

    /**
     * For subclasses.
     *
     * @param defaultAccountant the accountant until one is set (null where the optimizer chooses it
     *                          when it plans)
     * @param required the relation an accountant set must account under, or null for any (then the
     *                 optimizer checks the relation when it plans)
     * @param algorithm the optimizer's catalog name (for the message of a refused accountant)
     */
    protected AccountedBuilder(PrivacyAccountant defaultAccountant, NeighboringRelation required, String algorithm) {
        this.accountant = defaultAccountant;
        this.required = required;
        this.algorithm = Checks.notNull("algorithm", algorithm);
    }

    /**
     * The accountant that calibrates the noise and certifies the run. The optimizer's builder
     * documentation states its default and the relation it must account under.
     *
     * @throws IllegalArgumentException if a is null, or accounts under another relation than the one
     *         this optimizer's guarantee is stated under
     */
    public B accountant(PrivacyAccountant a) {
        this.accountant = required == null ? Checks.notNull("accountant", a) : requireRelation(a, required, algorithm);
        return self();
    }

    /** The accountant as set so far (the default until set; null where the optimizer chooses it). */
    public PrivacyAccountant accountant() {
        return accountant;
    }
}
