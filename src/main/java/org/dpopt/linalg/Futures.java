package org.dpopt.linalg;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Waiting for a computation started on another thread so that the caller sees what the same call would
 * have thrown on its own thread: the unchecked exception or error itself, not a wrapper.
 */
public final class Futures {
    private Futures() {
    }

    /**
     * The result of {@code f}, waiting for it; a {@link RuntimeException} or {@link Error} thrown by the
     * computation is rethrown as it is.
     */
    public static <T> T join(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }
}
