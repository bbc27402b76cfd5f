package org.dpopt.budget;

import java.nio.file.Path;

/** A second process for {@link BudgetFileTest}: takes the lock, prints how many releases it sees. */
final class BudgetFileLockProbe {
    private BudgetFileLockProbe() {
    }

    public static void main(String[] args) {
        try (BudgetFile.Session s = BudgetFile.open(Path.of(args[0]))) {
            System.out.println("entries " + s.ledger().map(l -> l.entries().size()).orElse(-1));
        }
    }
}
