package org.dpopt.cli;

import java.util.Map;
import java.util.function.Consumer;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.Preset;
import org.dpopt.optim.core.ReleaseObserver;
import org.dpopt.optim.core.RunOptions;

/**
 * The hyperparameter flags given to {@code dpopt train} (absent flags are null), the loss name, and
 * whether non-private diagnostics were asked for.
 *
 * @param values given flags and their values
 * @param loss the loss name (default per algorithm)
 * @param diagnostics whether {@code --diagnostics} was given
 * @param observer sees the run's noisy releases (a progress bar), never changes them
 */
record TrainArgs(Map<Flag<?>, Object> values, String loss, boolean diagnostics, ReleaseObserver observer) {

    /** Copies. */
    TrainArgs {
        values = Map.copyOf(values);
        Checks.notNull("loss", loss);
        Checks.notNull("observer", observer);
    }

    /** Without an observer. */
    TrainArgs(Map<Flag<?>, Object> values, String loss, boolean diagnostics) {
        this(values, loss, diagnostics, ReleaseObserver.NONE);
    }

    /** The run options of every optimizer built from these flags. */
    RunOptions runOptions() {
        return RunOptions.DEFAULT.withDiagnostics(diagnostics).withObserver(observer);
    }

    /** The value of a flag, or null if it was not given. */
    <T> T get(Flag<T> f) {
        return f.type().cast(values.get(f));
    }

    /** The value of a flag, or the default. */
    <T> T or(Flag<T> f, T dflt) {
        T v = get(f);
        return v != null ? v : dflt;
    }

    /** Hands the flag's value to {@code use} if the flag was given (a builder setter, typically). */
    <T> void ifGiven(Flag<T> f, Consumer<? super T> use) {
        T v = get(f);
        if (v != null) {
            use.accept(v);
        }
    }

    /** The {@code --preset} given, else {@link Preset#PRACTICAL}. */
    Preset preset() {
        return has(Flag.PRESET) ? Preset.byName(get(Flag.PRESET)) : Preset.PRACTICAL;
    }

    /** True if the flag was given. */
    boolean has(Flag<?> f) {
        return values.containsKey(f);
    }
}
