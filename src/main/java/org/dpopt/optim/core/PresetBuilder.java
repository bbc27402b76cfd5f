package org.dpopt.optim.core;

import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.Preset;

/**
 * A builder of an accounted optimizer that has a {@link Preset}: the {@link #preset(Preset)} setting,
 * declared once for all of them.
 *
 * @param <B> the concrete builder type
 */
public abstract class PresetBuilder<B extends PresetBuilder<B>> extends AccountedBuilder<B> {
    private Preset preset = Preset.PRACTICAL;

    /** For subclasses: as {@link AccountedBuilder#AccountedBuilder}. */
    protected PresetBuilder(PrivacyAccountant defaultAccountant, NeighboringRelation required, String algorithm) {
        super(defaultAccountant, required, algorithm);
    }

    /**
     * {@link Preset#PRACTICAL} (default) or {@link Preset#PAPER}, the rule the unset hyperparameters
     * (and, for some optimizers, the released iterate) come from. The optimizer's builder documentation
     * states what each sets for it.
     */
    public B preset(Preset p) {
        this.preset = Checks.notNull("preset", p);
        return self();
    }

    /** The preset as set so far. */
    public Preset preset() {
        return preset;
    }
}
